/* merge.c: `callprof merge`: several dumps in, one dump out, in the same format, so profiles
 * reduce in stages (sharded CI jobs, the processes of many machines). */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "dump.h"
#include "opts.h"
#include "outfile.h"

/* The command line, once parsed: -o, where the merged dump goes. */
static const char *merge_output;

static const struct opt merge_options[] = {
	{ 'o', "output", OPT_STRING, &merge_output, "FILE",
	  "where the merged dump goes (- for the standard output);\n"
	  "replaced only once complete, so FILE may be one of the DUMPs" },
};

static const char *const merge_synopses[] = { "DUMP...", NULL };

static const struct opts_cmd merge_cmd = {
	.name = "merge",
	.synopses = merge_synopses,
	.about = "Writes one dump holding the DUMPs to FILE (-o is needed), in the format\n"
		 "the runtime writes, which report, top, diff, export and merge read like any\n"
		 "other.  Merging is associative: merge the dumps of each CI shard, then the\n"
		 "shards' merged dumps, and the report is the report of all the dumps together.\n"
		 "Every thread of every process is kept (with its pid); functions match as\n"
		 "report matches them, by module, name and file (and build-id and offset for\n"
		 "copies of a static function).\n",
	.opts = merge_options,
	.nopts = sizeof(merge_options) / sizeof(merge_options[0]),
};

int cmd_merge(int argc, char **argv)
{
	struct opts_list args;
	struct dump *in, merged;
	struct buf out = BUF_INIT;
	int rc;

	merge_output = NULL;
	rc = opts_parse(&merge_cmd, argc, argv, &args);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	if (!merge_output || !*merge_output)
		rc = opts_error(&merge_cmd,
				"no output file given (-o FILE, or -o - for the standard output)");
	else if (!args.n)
		rc = opts_error(&merge_cmd, "no dump given");
	if (rc) {
		opts_list_release(&args);
		return rc;
	}
	rc = 2;
	if (dumps_load(&in, args.v, args.n) == 0) {
		dump_merge(&merged, in, args.n, merge_output);
		dumps_free(in, args.n);
		dump_write(&merged, &out);
		dump_release(&merged);
		rc = outfile_write("merge", merge_output, out.data, out.len) < 0 ? 2 : 0;
	}
	buf_release(&out);
	opts_list_release(&args);
	return rc;
}
