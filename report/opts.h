/* opts.h: every command's options in one table, parsed and described (--help) from that table. */
#ifndef CALLPROF_OPTS_H
#define CALLPROF_OPTS_H

#include <stddef.h>
#include <stdio.h>

/*
 * A command lists its options in an array of struct opt; opts_parse reads
 * argv against it and opts_help prints the usage and the option list from
 * the same array, so --help and the parser cannot disagree.
 *
 * Forms accepted: "--name VALUE", "--name=VALUE", "-n VALUE", "-n=VALUE";
 * a flag is "--name" or "-n" alone.  A value may begin with '-' ("-n -5"
 * gives -n the value "-5", which its type then refuses).  "--" ends the
 * options; "-" alone is an argument.  Every command also takes -h and --help
 * (not listed in its table).  Options may come anywhere among the arguments,
 * except in a command with in_order set (record), where the first argument
 * ends them: the rest is the profiled program's own command line.
 *
 * Example: with { 'o', "output", OPT_STRING, &dir, "DIR", "where the site goes" },
 * "report a.json --output=site b.json" sets dir to "site" and leaves the
 * arguments "a.json", "b.json"; its help line reads
 * "  -o, --output DIR   where the site goes".
 */

/* What an option's value is, and the C type its value pointer points at. */
enum opt_type {
	OPT_FLAG,    /* int: set to 1; takes no value */
	OPT_STRING,  /* const char *: the value as given (the last one wins) */
	OPT_LIST,    /* struct opts_list: every value given, in order (repeatable) */
	OPT_COUNT,   /* size_t: a whole number, 0 or more */
	OPT_PERCENT, /* double: a number, 0 or more */
	OPT_TIME_NS, /* uint64_t: a time such as 1ms, 250us or 1500 (ns), see fmt_parse_ns */
};

struct opt {
	char short_name;       /* 'o' for -o, or 0 */
	const char *long_name; /* "output" for --output, or NULL */
	enum opt_type type;
	void *value;      /* where the value goes (see enum opt_type) */
	const char *arg;  /* the value's name in the help ("DIR"); NULL for a flag */
	const char *help; /* what it does; each "\n" starts a continuation line */
};

/* A growable list of borrowed strings, kept NULL-terminated (v[n] == NULL once not empty). */
struct opts_list {
	char **v;
	size_t n, alloc;
};

/* One command's command line. */
struct opts_cmd {
	const char *name; /* "report" */
	const char *const
		*synopses;  /* what follows the options on each usage line; NULL-terminated */
	const char *about;  /* the paragraphs between the usage and the options */
	const char *footer; /* a paragraph after the options, or NULL */
	const struct opt *opts;
	size_t nopts;
	int in_order; /* the first argument ends the options */
};

/* opts_parse's result when it printed the help: the command exits 0. */
#define OPTS_HELP (-1)

/*
 * opts_parse reads argv[1 .. argc) (argv[0] is the command's name) into the
 * options' values and the other arguments into args (set up here, borrowing
 * argv's strings; opts_list_release it).  Returns 0; OPTS_HELP after printing
 * the help to stdout; or 1 after printing a one-line usage error to stderr
 * (an unknown option, a missing or malformed value).
 */
int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, struct opts_list *args);

/* opts_help prints the command's usage lines, about, options and footer. */
void opts_help(const struct opts_cmd *cmd, FILE *out);

/*
 * opts_error prints "callprof CMD: MESSAGE (see 'callprof CMD --help')" as one
 * line on stderr, for the usage errors a command finds itself.  Returns 1,
 * the exit status of a usage error.
 */
int opts_error(const struct opts_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* opts_list_add appends s (borrowed); opts_list_release frees the list, not the strings. */
void opts_list_add(struct opts_list *l, char *s);
void opts_list_release(struct opts_list *l);

#endif
