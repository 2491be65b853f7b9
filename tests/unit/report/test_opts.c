/* test_opts.c: the option parser of every command and the help it prints (report/opts.c). */
#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "opts.h"

/* The values the test command's options set. */
static const char *o_dir, *o_title;
static struct opts_list o_base;
static size_t o_count;
static double o_pct;
static uint64_t o_ns;
static int o_quiet;

static const struct opt options[] = {
	{ 'o', "output", OPT_STRING, &o_dir, "DIR", "where it goes;\nsecond line" },
	{ 0, "title", OPT_STRING, &o_title, "T", "the title" },
	{ 0, "base", OPT_LIST, &o_base, "DUMP", "repeatable" },
	{ 'n', NULL, OPT_COUNT, &o_count, "N", "rows" },
	{ 0, "fail-above", OPT_PERCENT, &o_pct, "PCT", "gate" },
	{ 0, "min-time", OPT_TIME_NS, &o_ns, "T", "noise" },
	{ 'q', "quiet", OPT_FLAG, &o_quiet, NULL, "say less" },
};
static const char *const synopses[] = { "DUMP...", NULL };
static const struct opts_cmd cmd = {
	"test", synopses, "About it.\n", "Footer.\n", options, sizeof(options) / sizeof(options[0]),
	0
};

/* A command whose first argument ends its options, as record's does. */
static const char *const run_synopses[] = { "[--] PROGRAM [ARGS...]", "--other", NULL };
static const struct opts_cmd run_cmd = { "run", run_synopses, NULL, NULL, options, 1, 1 };

/* parse: argv {"test", the arguments given..., NULL} through c into args. */
static int parse(const struct opts_cmd *c, struct opts_list *args, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)c->name;
	va_start(ap, args);
	for (char *a; (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return opts_parse(c, argc, argv, args);
}

/* parse_err: parse, expecting a usage error; its message (one line) into said. */
#define parse_err(said, c, ...)                                                                  \
	do {                                                                                     \
		struct opts_list args_;                                                          \
		char path_[64];                                                                  \
		int saved_ = redirect(STDERR_FILENO, scratch_path(path_, sizeof(path_), "err")); \
		int rc_ = parse(c, &args_, __VA_ARGS__, (char *)NULL);                           \
		restore(STDERR_FILENO, saved_);                                                  \
		CHECK(rc_ == 1);                                                                 \
		slurp(path_, said, sizeof(said));                                                \
		unlink(path_);                                                                   \
	} while (0)

void test_opts_forms(void)
{
	struct opts_list args;

	CHECK(parse(&cmd, &args, "-o", "a", NULL) == 0);
	CHECK_STR(o_dir, "a");
	CHECK(parse(&cmd, &args, "-o=b", NULL) == 0);
	CHECK_STR(o_dir, "b");
	CHECK(parse(&cmd, &args, "--output", "c", NULL) == 0);
	CHECK_STR(o_dir, "c");
	CHECK(parse(&cmd, &args, "--output=d=e", NULL) == 0);
	CHECK_STR(o_dir, "d=e");
	CHECK(parse(&cmd, &args, "--output=", "--title", "-x", NULL) ==
	      0); /* a value may begin with '-' */
	CHECK_STR(o_dir, "");
	CHECK_STR(o_title, "-x");
	CHECK(parse(&cmd, &args, "-o", "1", "-o", "2", NULL) == 0); /* the last one wins */
	CHECK_STR(o_dir, "2");
	CHECK(!o_quiet);
	CHECK(parse(&cmd, &args, "-q", NULL) == 0);
	CHECK(o_quiet);
	o_quiet = 0;
	CHECK(parse(&cmd, &args, "--quiet", NULL) == 0);
	CHECK(o_quiet);
	CHECK_EQ_U64(args.n, 0);
	opts_list_release(&args);
}

void test_opts_anywhere(void)
{
	struct opts_list args;

	CHECK(parse(&cmd, &args, "a.json", "-o", "site", "b.json", "--title=T", "c.json", NULL) ==
	      0);
	CHECK_STR(o_dir, "site");
	CHECK_STR(o_title, "T");
	CHECK_EQ_U64(args.n, 3);
	CHECK_STR(args.v[0], "a.json");
	CHECK_STR(args.v[1], "b.json");
	CHECK_STR(args.v[2], "c.json");
	CHECK(args.v[3] == NULL);
	opts_list_release(&args);
}

void test_opts_dashdash(void)
{
	struct opts_list args;

	CHECK(parse(&cmd, &args, "-", "--", "-o", "--", "x", NULL) == 0);
	CHECK(o_dir == NULL);
	CHECK_EQ_U64(args.n, 4);
	CHECK_STR(args.v[0], "-"); /* "-" alone is an argument */
	CHECK_STR(args.v[1], "-o");
	CHECK_STR(args.v[2], "--");
	CHECK_STR(args.v[3], "x");
	opts_list_release(&args);
}

void test_opts_in_order(void)
{
	struct opts_list args;

	CHECK(parse(&run_cmd, &args, "-o", "out.json", "prog", "-o", "x", "--", "--help", NULL) ==
	      0);
	CHECK_STR(o_dir, "out.json");
	CHECK_EQ_U64(args.n, 5);
	CHECK_STR(args.v[0], "prog");
	CHECK_STR(args.v[1], "-o");
	CHECK_STR(args.v[3], "--");
	CHECK_STR(args.v[4], "--help"); /* the program's, not ours */
	CHECK(args.v[5] == NULL);       /* ready for execvp */
	opts_list_release(&args);
	CHECK(parse(&run_cmd, &args, "--", "-o", NULL) == 0);
	CHECK(args.n == 1 && !strcmp(args.v[0], "-o"));
	opts_list_release(&args);
}

void test_opts_typed_values(void)
{
	struct opts_list args;

	CHECK(parse(&cmd, &args, "-n", "12", "--fail-above", "2.5", "--min-time=3ms", "--base", "a",
		    "--base=b", NULL) == 0);
	CHECK_EQ_U64(o_count, 12);
	CHECK_NEAR(o_pct, 2.5, 0);
	CHECK_EQ_U64(o_ns, 3000000);
	CHECK_EQ_U64(o_base.n, 2);
	CHECK_STR(o_base.v[0], "a");
	CHECK_STR(o_base.v[1], "b");
	CHECK(parse(&cmd, &args, "-n", "0", "--fail-above", "0", "--min-time", "1500", NULL) == 0);
	CHECK_EQ_U64(o_count, 0);
	CHECK_NEAR(o_pct, 0, 0);
	CHECK_EQ_U64(o_ns, 1500);
	opts_list_release(&o_base);
	opts_list_release(&args);
}

void test_opts_errors(void)
{
	char said[512];

	parse_err(said, &cmd, "--bogus", "a.json");
	CHECK_STR(said, "callprof test: unknown option '--bogus' (see 'callprof test --help')\n");
	parse_err(said, &cmd, "--bogus=1");
	CHECK_STR(said, "callprof test: unknown option '--bogus=1' (see 'callprof test --help')\n");
	parse_err(said, &cmd, "-ofile");
	CHECK_STR(said, "callprof test: unknown option '-ofile' (see 'callprof test --help')\n");
	parse_err(said, &cmd, "a.json", "--title");
	CHECK_STR(
		said,
		"callprof test: option '--title' needs a value (T) (see 'callprof test --help')\n");
	parse_err(said, &cmd, "-n", "x");
	CHECK_STR(said, "callprof test: -n wants a number, not 'x' (see 'callprof test --help')\n");
	parse_err(said, &cmd, "-n=-3");
	CHECK_STR(said,
		  "callprof test: -n wants a number, not '-3' (see 'callprof test --help')\n");
	parse_err(said, &cmd, "--fail-above", "-5");
	CHECK_STR(said,
		  "callprof test: --fail-above wants a percentage (a number, 0 or more), not '-5' "
		  "(see 'callprof test --help')\n");
	parse_err(said, &cmd, "--fail-above=nan");
	CHECK_STR(said,
		  "callprof test: --fail-above wants a percentage (a number, 0 or more), not 'nan' "
		  "(see 'callprof test --help')\n");
	parse_err(said, &cmd, "--min-time", "5parsecs");
	CHECK_STR(said, "callprof test: --min-time wants a time such as 1ms, 250us or 1500 (ns), "
			"not '5parsecs' "
			"(see 'callprof test --help')\n");
	parse_err(said, &cmd, "--quiet=yes");
	CHECK_STR(said,
		  "callprof test: option '--quiet' takes no value (see 'callprof test --help')\n");
	parse_err(said, &cmd, "-n", "1\n2");
	CHECK_STR(said,
		  "callprof test: -n wants a number, not '1?2' (see 'callprof test --help')\n");
	CHECK_EQ_U64(opts_error(&cmd, "no %s given", "dump"), 1);
}

/* help_of: what opts_help prints for c. */
static const char *help_of(const struct opts_cmd *c, char *out, size_t size)
{
	char path[64];
	int saved = redirect(STDOUT_FILENO, scratch_path(path, sizeof(path), "out"));

	opts_help(c, stdout);
	restore(STDOUT_FILENO, saved);
	slurp(path, out, size);
	unlink(path);
	return out;
}

void test_opts_help_text(void)
{
	char text[2048];

	CHECK_STR(help_of(&cmd, text, sizeof(text)), "usage: callprof test [options] DUMP...\n"
						     "\n"
						     "About it.\n"
						     "\n"
						     "  -o, --output DIR   where it goes;\n"
						     "                     second line\n"
						     "  --title T          the title\n"
						     "  --base DUMP        repeatable\n"
						     "  -n N               rows\n"
						     "  --fail-above PCT   gate\n"
						     "  --min-time T       noise\n"
						     "  -q, --quiet        say less\n"
						     "\n"
						     "Footer.\n");
	/* Few options are listed on the usage lines themselves. */
	CHECK_STR(help_of(&run_cmd, text, sizeof(text)),
		  "usage: callprof run [-o DIR] [--] PROGRAM [ARGS...]\n"
		  "       callprof run [-o DIR] --other\n"
		  "\n"
		  "  -o, --output DIR   where it goes;\n"
		  "                     second line\n");
}

void test_opts_help_returns(void)
{
	struct opts_list args;
	char path[64], text[2048], help[2048];
	int saved = redirect(STDOUT_FILENO, scratch_path(path, sizeof(path), "help"));
	int rc_long = parse(&cmd, &args, "a.json", "--help", "--bogus", NULL);

	restore(STDOUT_FILENO, saved);
	CHECK(rc_long == OPTS_HELP);
	CHECK_EQ_U64(args.n, 0); /* released */
	CHECK_STR(slurp(path, text, sizeof(text)), help_of(&cmd, help, sizeof(help)));
	saved = redirect(STDOUT_FILENO, path);
	CHECK(parse(&cmd, &args, "-h", NULL) == OPTS_HELP);
	restore(STDOUT_FILENO, saved);
	CHECK_STR(slurp(path, text, sizeof(text)), help);
	unlink(path);
}
