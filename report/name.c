/* name.c: shorter C++ names for lists and tables (see name.h). */
#include <string.h>

#include "name.h"

/* The inline namespaces of libstdc++, libc++ and the NDK's libc++, each shown as "std::". */
static const char *const inline_namespaces[] = { "std::__cxx11::", "std::__1::", "std::__ndk1::" };

/* Operator names with angle brackets, longest first so "operator<<=" is not read as "operator<". */
static const char *const bracket_operators[] = {
	"operator<=>", "operator<<=", "operator>>=", "operator->*", "operator<<", "operator>>",
	"operator<=",  "operator>=",  "operator->",  "operator<",   "operator>",
};

static int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* operator_at: the length of the bracket operator name at s (after a non-identifier), else 0. */
static size_t operator_at(const char *full, const char *s)
{
	if (s > full && is_ident_char(s[-1]))
		return 0;
	for (size_t i = 0; i < sizeof(bracket_operators) / sizeof(bracket_operators[0]); i++) {
		size_t n = strlen(bracket_operators[i]);

		if (!strncmp(s, bracket_operators[i], n))
			return n;
	}
	return 0;
}

/* prefix_at: the length of the inline namespace at s, else 0. */
static size_t prefix_at(const char *s)
{
	for (size_t i = 0; i < sizeof(inline_namespaces) / sizeof(inline_namespaces[0]); i++) {
		size_t n = strlen(inline_namespaces[i]);

		if (!strncmp(s, inline_namespaces[i], n))
			return n;
	}
	return 0;
}

/*
 * opens_list: the '<' at s begins a template argument list: it follows a
 * name ("vector<"), or an operator's name and a space ("operator< <int>").
 */
static int opens_list(const char *full, const char *s, const char *after_operator)
{
	if (s == full)
		return 0;
	return is_ident_char(s[-1]) || (after_operator && s[-1] == ' ' && s - 1 == after_operator);
}

int name_simplify(struct buf *out, const char *full)
{
	size_t start = out->len, n;
	long depth = 0;
	const char *s = full, *after_operator = NULL;

	buf_grow(out, strlen(full)); /* out->data is a string even when full is empty */

	while (*s && depth >= 0) {
		if (depth == 0 && (n = operator_at(full, s))) {
			buf_add(out, s, n);
			s += n;
			after_operator = s;
		} else if (depth == 0 && *s == '<' && !opens_list(full, s, after_operator)) {
			buf_putc(out, *s++);
		} else if (depth == 0 && (n = prefix_at(s))) {
			buf_puts(out, "std::");
			s += n;
		} else if (depth == 0 && !strncmp(s, "[abi:", 5) && strchr(s, ']')) {
			s = strchr(s, ']') + 1;
		} else if (*s == '<') {
			if (depth++ == 0)
				buf_puts(out, s[1] == '>' ? "<" : "<\xe2\x80\xa6");
			s++;
		} else if (*s == '>') {
			if (--depth == 0)
				buf_putc(out, '>');
			s++;
		} else {
			if (depth == 0)
				buf_putc(out, *s);
			s++;
		}
	}
	if (depth != 0) {
		/* Brackets that do not balance: not a name this can read. */
		buf_add(out, "", 0);
		out->len = start;
		out->data[start] = '\0';
		buf_puts(out, full);
		return 0;
	}
	return strcmp(out->data + start, full) != 0;
}
