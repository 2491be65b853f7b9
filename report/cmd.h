/* cmd.h: the subcommands of the callprof tool, one file each (cmd_NAME in NAME.c). */
#ifndef CALLPROF_CMD_H
#define CALLPROF_CMD_H

/* Every command returns the process exit status: 0 success, 1 usage error,
 * 2 bad input, 3 a gate tripped (diff --fail-above). */
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/*
 * Shared by the commands that write a site (report.c).  cmd_opt_value: the
 * value of option name at argv[*i], given as "NAME VALUE" (*i advances) or
 * "NAME=VALUE", else NULL.  cmd_print_index: prints DIR/index.html with DIR
 * made absolute, for a terminal to open.
 */
const char *cmd_opt_value(int argc, char **argv, int *i, const char *name);
void cmd_print_index(const char *dir);

#endif
