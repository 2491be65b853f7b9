/* opts.c: the one option parser of every command, and the help it prints from the same table. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fmt.h"
#include "opts.h"

#define OPTS_HELP_COLUMN 21   /* where the option descriptions begin in --help */
#define OPTS_USAGE_MAX 4      /* a command with more options says "[options]" in its usage line */
#define OPTS_MAX_PERCENT 1e15 /* larger "percentages" are typing mistakes */

void opts_list_add(struct opts_list *l, char *s)
{
	if (l->n + 1 >= l->alloc)
		l->v = xreallocarray(l->v, l->alloc = l->alloc ? 2 * l->alloc : 8, sizeof(*l->v));
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void opts_list_release(struct opts_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int opts_error(const struct opts_cmd *cmd, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;

	buf_printf(&line, "callprof %s: ", cmd->name);
	va_start(ap, fmt);
	buf_vprintf(&line, fmt, ap);
	va_end(ap);
	buf_printf(&line, " (see 'callprof %s --help')\n", cmd->name);
	/* A value from the command line may hold a newline: the message stays one line. */
	for (size_t i = 0; i + 1 < line.len; i++)
		if ((unsigned char)line.data[i] < 0x20 || line.data[i] == 0x7f)
			line.data[i] = '?';
	fputs(line.data, stderr);
	buf_release(&line);
	return 1;
}

/* ---- help ---- */

/* opt_names: "-o, --output DIR", "--title T", "-n N": how the help names an option. */
static void opt_names(struct buf *out, const struct opt *o)
{
	if (o->short_name)
		buf_printf(out, "-%c%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name)
		buf_printf(out, "--%s", o->long_name);
	if (o->arg)
		buf_printf(out, " %s", o->arg);
}

/* usage_options: "[-o DIR] [--title T] " for the usage line, or "[options] " when there are many. */
static void usage_options(struct buf *out, const struct opts_cmd *cmd)
{
	if (cmd->nopts > OPTS_USAGE_MAX) {
		buf_puts(out, "[options] ");
		return;
	}
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct opt *o = &cmd->opts[i];

		if (o->short_name)
			buf_printf(out, "[-%c", o->short_name);
		else
			buf_printf(out, "[--%s", o->long_name);
		buf_printf(out, "%s%s] ", o->arg ? " " : "", o->arg ? o->arg : "");
	}
}

/* option_line: "  -o, --output DIR   where the site goes", continuation lines indented alike. */
static void option_line(struct buf *out, const struct opt *o)
{
	size_t start = out->len;

	buf_puts(out, "  ");
	opt_names(out, o);
	do
		buf_putc(out, ' ');
	while (out->len - start < OPTS_HELP_COLUMN);
	for (const char *h = o->help; *h; h++) {
		buf_putc(out, *h);
		if (*h == '\n')
			buf_printf(out, "%*s", OPTS_HELP_COLUMN, "");
	}
	buf_putc(out, '\n');
}

void opts_help(const struct opts_cmd *cmd, FILE *out)
{
	struct buf text = BUF_INIT;

	for (size_t k = 0; cmd->synopses[k]; k++) {
		buf_printf(&text, "%scallprof %s ", k ? "       " : "usage: ", cmd->name);
		usage_options(&text, cmd);
		buf_printf(&text, "%s\n", cmd->synopses[k]);
	}
	if (cmd->about)
		buf_printf(&text, "\n%s", cmd->about);
	if (cmd->nopts)
		buf_putc(&text, '\n');
	for (size_t i = 0; i < cmd->nopts; i++)
		option_line(&text, &cmd->opts[i]);
	if (cmd->footer)
		buf_printf(&text, "\n%s", cmd->footer);
	fwrite(text.data, 1, text.len, out);
	buf_release(&text);
}

/* ---- parsing ---- */

static const struct opt *find_long(const struct opts_cmd *cmd, const char *name, size_t len)
{
	for (size_t i = 0; i < cmd->nopts; i++) {
		const char *l = cmd->opts[i].long_name;

		if (l && strlen(l) == len && !memcmp(l, name, len))
			return &cmd->opts[i];
	}
	return NULL;
}

static const struct opt *find_short(const struct opts_cmd *cmd, char c)
{
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].short_name == c)
			return &cmd->opts[i];
	return NULL;
}

/* parse_count: a whole number, digits only. */
static int parse_count(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* parse_percent: a finite number, 0 or more (and below OPTS_MAX_PERCENT). */
static int parse_percent(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= 0 && v < OPTS_MAX_PERCENT))
		return -1;
	*out = v;
	return 0;
}

/* set_value stores value into o's variable; typed is the option as given ("--fail-above"). */
static int set_value(const struct opts_cmd *cmd, const struct opt *o, const char *typed,
		     char *value)
{
	switch (o->type) {
	case OPT_FLAG: *(int *)o->value = 1; return 0;
	case OPT_STRING: *(const char **)o->value = value; return 0;
	case OPT_LIST: opts_list_add(o->value, value); return 0;
	case OPT_COUNT:
		if (parse_count(value, o->value) < 0)
			return opts_error(cmd, "%s wants a number, not '%s'", typed, value);
		return 0;
	case OPT_PERCENT:
		if (parse_percent(value, o->value) < 0)
			return opts_error(cmd,
					  "%s wants a percentage (a number, 0 or more), not '%s'",
					  typed, value);
		return 0;
	case OPT_TIME_NS:
		if (fmt_parse_ns(value, o->value) < 0)
			return opts_error(
				cmd, "%s wants a time such as 1ms, 250us or 1500 (ns), not '%s'",
				typed, value);
		return 0;
	}
	return opts_error(cmd, "option '%s' of an unknown type", typed);
}

/* parse_option: the option at argv[*i] (which begins with '-'), with its value; *i moves past them. */
static int parse_option(const struct opts_cmd *cmd, int argc, char **argv, int *i)
{
	char *arg = argv[*i], *eq, typed[64];
	const struct opt *o;
	size_t len;

	if (arg[1] == '-') {
		eq = strchr(arg + 2, '=');
		len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
		o = find_long(cmd, arg + 2, len);
	} else {
		eq = arg[2] == '=' ? arg + 2 : NULL;
		o = arg[2] && !eq ? NULL : find_short(cmd, arg[1]);
	}
	if (!o)
		return opts_error(cmd, "unknown option '%s'", arg);
	snprintf(typed, sizeof(typed), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	if (o->type == OPT_FLAG) {
		if (eq)
			return opts_error(cmd, "option '%s' takes no value", typed);
		return set_value(cmd, o, typed, NULL);
	}
	if (eq)
		return set_value(cmd, o, typed, eq + 1);
	if (*i + 1 >= argc)
		return opts_error(cmd, "option '%s' needs a value (%s)", typed, o->arg);
	return set_value(cmd, o, typed, argv[++*i]);
}

int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, struct opts_list *args)
{
	int ended = 0; /* "--", or the first argument of an in_order command */

	memset(args, 0, sizeof(*args));
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int rc;

		if (ended || a[0] != '-' || !a[1]) {
			opts_list_add(args, a);
			ended |= cmd->in_order;
			continue;
		}
		if (!strcmp(a, "--")) {
			ended = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opts_help(cmd, stdout);
			opts_list_release(args);
			return OPTS_HELP;
		}
		rc = parse_option(cmd, argc, argv, &i);
		if (rc) {
			opts_list_release(args);
			return rc;
		}
	}
	return 0;
}
