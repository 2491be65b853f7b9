/* export.c: `callprof export`: dumps in, one file out in a format other tools read
 * (callgrind, pprof, speedscope, folded stacks; the formats are export_*.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dump.h"
#include "export.h"
#include "opts.h"
#include "outfile.h"
#include "profile.h"

/* Every format, in the order --help lists them. */
static const struct export_format *const formats[] = {
	&export_callgrind,
	&export_pprof,
	&export_speedscope,
	&export_folded,
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* The parsed command line. */
static struct {
	const char *format;
	const char *output;
} o;

static const struct opt export_options[] = {
	{ 'f', "format", OPT_STRING, &o.format, "FMT",
	  "callgrind, pprof, speedscope or folded (see below)" },
	{ 'o', "output", OPT_STRING, &o.output, "FILE",
	  "the file to write, replaced only once complete;\n"
	  "- writes to the standard output" },
};

static const char *const export_synopses[] = { "DUMP...", NULL };

static const struct opts_cmd export_cmd = {
	.name = "export",
	.synopses = export_synopses,
	.about = "Writes the profile of one or more dumps (merged as `callprof report` merges\n"
		 "them) in a format another tool reads.  Both --format and -o are needed.\n",
	.footer =
		"Formats:\n"
		"  callgrind    KCachegrind, QCachegrind, callgrind_annotate: per function self "
		"time\n"
		"               and calls, per call arc inclusive time and count (events ns, "
		"calls)\n"
		"  pprof        gzipped profile.proto for pprof: one sample per call path of each\n"
		"               thread, values calls (count) and self time (nanoseconds)\n"
		"  speedscope   speedscope's JSON: a sampled profile per thread, each call path\n"
		"               weighted by its self time in nanoseconds\n"
		"  folded       folded stacks for flamegraph.pl and inferno: \"main;parse;lex "
		"1234\",\n"
		"               one line per call path (all threads) with its self time in ns\n"
		"Without a clock (CALLPROF_CLOCK=none) the weights are calls instead of times.\n",
	.opts = export_options,
	.nopts = sizeof(export_options) / sizeof(export_options[0]),
};

static const struct export_format *find_format(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

static char **make_labels(const struct profile *p)
{
	char **labels = xcalloc(p->nfuncs + 1, sizeof(*labels));
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct pfunc *f = &p->funcs[i];

		buf_reset(&b);
		buf_puts(&b, f->name[0] ? f->name : "(anonymous)");
		pfunc_put_tell(
			&b, f,
			buf_puts); /* what the site shows beside it: "util.c", "dup.h:3 @0x1230" */
		labels[i] = xstrdup(b.data);
	}
	str_number_repeats(labels, p->nfuncs, " #", 1, 1); /* "f", "f #2", ... */
	buf_release(&b);
	return labels;
}

/* parse_args: 0, or the exit status after a message (OPTS_HELP for --help). */
static int parse_args(int argc, char **argv, struct opts_list *dumps,
		      const struct export_format **fmt)
{
	int rc;

	memset(&o, 0, sizeof(o));
	rc = opts_parse(&export_cmd, argc, argv, dumps);
	if (rc)
		return rc;
	if (!o.format)
		rc = opts_error(&export_cmd,
				"no --format given (callgrind, pprof, speedscope or folded)");
	else if (!(*fmt = find_format(o.format)))
		rc = opts_error(&export_cmd,
				"unknown format '%s' (callgrind, pprof, speedscope or folded)",
				o.format);
	else if (!o.output)
		rc = opts_error(&export_cmd,
				"no output file given (-o FILE, or -o - for the standard output)");
	else if (!*o.output)
		rc = opts_error(&export_cmd, "empty output file name");
	else if (!dumps->n)
		rc = opts_error(&export_cmd, "no dump given");
	if (rc)
		opts_list_release(dumps);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	const struct export_format *fmt = NULL;
	struct opts_list dumps;
	struct dump *loaded;
	struct profile prof;
	struct buf out = BUF_INIT;
	struct export_ctx x = { .version = CALLPROF_VERSION };
	int rc = parse_args(argc, argv, &dumps, &fmt);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	rc = 2;
	if (dumps_load(&loaded, dumps.v, dumps.n) < 0)
		goto out;
	if (profile_build(&prof, loaded, dumps.n) == 0) {
		x.prof = &prof;
		x.labels = make_labels(&prof);
		if (fmt->write(&x, &out) == 0)
			rc = outfile_write("export", o.output, out.data, out.len) < 0 ? 2 : 0;
		for (size_t i = 0; i < prof.nfuncs; i++)
			free(x.labels[i]);
		free(x.labels);
		profile_release(&prof);
	}
	dumps_free(loaded, dumps.n);
out:
	buf_release(&out);
	opts_list_release(&dumps);
	return rc;
}
