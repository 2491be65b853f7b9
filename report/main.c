/* main.c: the callprof command line: finds the subcommand in one table and runs it. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Every subcommand, in the order `callprof --help` lists them. */
static const struct command commands[] = {
	{ "record", cmd_record, "run a program with the profiler preloaded and write its dump" },
	{ "report", cmd_report, "turn one or more dumps into a static HTML site" },
	{ "top", cmd_top, "print the flat profile of one or more dumps as text" },
	{ "diff", cmd_diff, "compare two profiles: a site of what changed, and a gate for CI" },
	{ "export", cmd_export,
	  "write one or more dumps for callgrind, pprof, speedscope or flamegraph" },
	{ "merge", cmd_merge, "merge dumps into one dump (sharded CI, many processes)" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: callprof <command> [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'callprof <command> --help' (or 'callprof help <command>') describes one "
		     "command;\n"
		     "'callprof --version' prints the version.  See also callprof(1).\n");
}

/* run_command: the subcommand called name with its arguments (argv[0] is its name). */
static int run_command(const char *name, int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc, argv);
	fprintf(stderr, "callprof: unknown command '%s' (see 'callprof --help')\n", name);
	return 1;
}

int main(int argc, char **argv)
{
	char *help_args[] = { NULL, (char *)"--help", NULL };

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* "callprof help CMD" is "callprof CMD --help". */
		help_args[0] = argv[2];
		return run_command(argv[2], 2, help_args);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("callprof %s\n", CALLPROF_VERSION);
		return 0;
	}
	return run_command(argv[1], argc - 1, argv + 1);
}
