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
};

static void usage(FILE *out)
{
	fprintf(out, "usage: callprof <command> [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'callprof <command> --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("callprof %s\n", CALLPROF_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "callprof: unknown command '%s' (see 'callprof --help')\n", argv[1]);
	return 1;
}
