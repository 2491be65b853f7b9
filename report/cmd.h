/* cmd.h: the subcommands of the callprof tool, one file each (cmd_NAME in NAME.c). */
#ifndef CALLPROF_CMD_H
#define CALLPROF_CMD_H

/* Every command returns the process exit status: 0 success, 1 usage error,
 * 2 bad input, 3 a gate tripped (diff --fail-above). */
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
