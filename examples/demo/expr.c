/* expr.c: a recursive-descent evaluator: expr = term {(+|-) term}, term = factor {(*|/) factor}. */
#include <ctype.h>
#include <stdlib.h>

#include "demo.h"

static long parse_expr(const char **p);

static void skip_space(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
}

static long parse_factor(const char **p)
{
	long v;

	skip_space(p);
	if (**p == '(') {
		(*p)++;
		v = parse_expr(p);
		skip_space(p);
		if (**p == ')')
			(*p)++;
		return v;
	}
	if (**p == '-') {
		(*p)++;
		return -parse_factor(p);
	}
	v = strtol(*p, (char **)p, 10);
	return v;
}

static long parse_term(const char **p)
{
	long v = parse_factor(p);

	for (;;) {
		skip_space(p);
		if (**p == '*') {
			(*p)++;
			v *= parse_factor(p);
		} else if (**p == '/') {
			long d;
			(*p)++;
			d = parse_factor(p);
			v = d ? v / d : 0;
		} else {
			return v;
		}
	}
}

static long parse_expr(const char **p)
{
	long v = parse_term(p);

	for (;;) {
		skip_space(p);
		if (**p == '+') {
			(*p)++;
			v += parse_term(p);
		} else if (**p == '-') {
			(*p)++;
			v -= parse_term(p);
		} else {
			return v;
		}
	}
}

long expr_eval(const char *text)
{
	return parse_expr(&text);
}
