/* test_fnid.c: when functions of several dumps are one function (report/fnid.c). */
#include <stdlib.h>

#include "check.h"
#include "dump.h"
#include "fnid.h"

/* A dump of prog (build-id ab12): main, then three copies of dup.h's helper, first called in order. */
static void twin_dump(struct dump *d, const uint64_t offsets[3], int with_offsets)
{
	static char path[] = "/opt/prog", id[] = "ab12", mainc[] = "main.c", duph[] = "dup.h";
	static char main_name[] = "main", helper[] = "helper";

	memset(d, 0, sizeof(*d));
	d->run.nmodules = 1;
	d->run.modules = calloc(1, sizeof(*d->run.modules));
	d->run.modules[0].path = path;
	d->run.modules[0].build_id = id;
	d->nfunctions = 4;
	d->functions = calloc(4, sizeof(*d->functions));
	d->functions[0] =
		(struct dump_function){ .name = main_name, .module = 0, .file = mainc, .line = 5 };
	for (int i = 0; i < 3; i++) {
		d->functions[1 + i] = (struct dump_function){
			.name = helper, .module = 0, .file = duph, .line = 4, .offset = offsets[i]
		};
		if (with_offsets)
			d->functions[1 + i].has_offset = 1;
	}
}

static void twin_free(struct dump *d)
{
	free(d->run.modules);
	free(d->functions);
}

void test_fnid_twins_by_code(void)
{
	const uint64_t abc[3] = { 0x1220, 0x12d0, 0x1380 }, cba[3] = { 0x1380, 0x12d0, 0x1220 };
	struct dump a, b;
	char **ka, **kb;

	twin_dump(&a, abc, 1);
	twin_dump(&b, cba, 1);
	ka = fnid_keys(&a);
	kb = fnid_keys(&b);
	CHECK_STR(ka[0], "prog\x1fmain\x1fmain.c"); /* a name of its own: its source is enough */
	CHECK_STR(ka[1], "prog\x1fhelper\x1f"
			 "dup.h\x1fL4\x1f@ab12+0x1220");
	/* Whatever order the copies were first called in, a copy has one key in every run. */
	CHECK_STR(ka[1], kb[3]);
	CHECK_STR(ka[2], kb[2]);
	CHECK_STR(ka[3], kb[1]);
	fnid_keys_free(ka, 4);
	fnid_keys_free(kb, 4);
	twin_free(&a);
	twin_free(&b);
}

void test_fnid_merged_dump(void)
{
	const uint64_t abc[3] = { 0x1220, 0x12d0, 0x1380 };
	static char helper[] = "helper", duph[] = "dup.h", at1220[] = "0x1220", at12d0[] = "0x12d0";
	struct run_uncalled uncalled[2] = {
		{ .name = helper, .file = duph, .line = 4, .offset = at1220 },
		{ .name = helper, .file = duph, .line = 4, .offset = at1220 }
	};
	struct dump a;
	char **k;

	/*
	 * A merged dump lists a function another input did not call among the
	 * uncalled too: the helper at 0x1220, called here and listed uncalled
	 * twice, is one function, a name of its own.
	 */
	twin_dump(&a, abc, 1);
	a.nfunctions = 2;
	a.run.modules[0].nuncalled = 2;
	a.run.modules[0].uncalled = uncalled;
	k = fnid_keys(&a);
	CHECK_STR(k[1], "prog\x1fhelper\x1f"
			"dup.h");
	fnid_keys_free(k, 2);
	/* Another offset listed uncalled is another copy: then the called one says which it is. */
	uncalled[1].offset = at12d0;
	k = fnid_keys(&a);
	CHECK_STR(k[1], "prog\x1fhelper\x1f"
			"dup.h\x1fL4\x1f@ab12+0x1220");
	fnid_keys_free(k, 2);
	twin_free(&a);
}

void test_fnid_escaped_names(void)
{
	const uint64_t abc[3] = { 0x1220, 0x12d0, 0x1380 };
	static char escaped[] = "dup\\0one";
	struct dump a;
	char **k;

	/* helper "dup\0one" read from a name with a NUL and one written with a backslash are two functions. */
	twin_dump(&a, abc, 1);
	a.functions[1].name = escaped;
	a.functions[1].name_nul = 1;
	a.functions[2].name = escaped;
	a.nfunctions = 3;
	k = fnid_keys(&a);
	CHECK_STR(k[1], "prog\x1f"
			"dup\\0one\x1f"
			"dup.h\x1f\\01");
	CHECK_STR(k[2], "prog\x1f"
			"dup\\0one\x1f"
			"dup.h");
	fnid_keys_free(k, 3);
	twin_free(&a);
}

void test_fnid_twins_without_offsets(void)
{
	const uint64_t none[3] = { 0, 0, 0 };
	struct dump a;
	char **k;

	twin_dump(&a, none, 0);
	k = fnid_keys(&a);
	/* No code to tell them by: the order of first calls, the old rule, and every key still unique. */
	CHECK_STR(k[1], "prog\x1fhelper\x1f"
			"dup.h\x1fL4\x1f#0");
	CHECK_STR(k[2], "prog\x1fhelper\x1f"
			"dup.h\x1fL4\x1f#1");
	CHECK_STR(k[3], "prog\x1fhelper\x1f"
			"dup.h\x1fL4\x1f#2");
	fnid_keys_free(k, 4);
	twin_free(&a);
}

void test_fnid_same_levels(void)
{
	const struct fnid_show v[] = {
		{ "main", "main.c", 5 },      /* 0: its own name */
		{ "helper", "/x/util.c", 3 }, /* 1, 2: same base name, other folders */
		{ "helper", "/y/util.c", 3 }, { "init", "a.c", 1 },  /* 3, 4: other files */
		{ "init", "b.c", 1 },         { "dup", "dup.h", 4 }, /* 5, 6: one file, two lines */
		{ "dup", "dup.h", 9 },        { "copy", "dup.h", 4 }, /* 7, 8: one line: copies */
		{ "copy", "dup.h", 4 },
	};
	int level[9];
	struct buf b = BUF_INIT;

	fnid_same_levels(v, 9, level);
	CHECK_EQ_U64(level[0], FNID_SHOW_NONE);
	CHECK_EQ_U64(level[1], FNID_SHOW_PATH);
	CHECK_EQ_U64(level[2], FNID_SHOW_PATH);
	CHECK_EQ_U64(level[3], FNID_SHOW_FILE);
	CHECK_EQ_U64(level[5], FNID_SHOW_LINE);
	CHECK_EQ_U64(level[7], FNID_SHOW_CODE);
	fnid_tell(&b, level[1], "prog", v[1].file, v[1].line, 1, 0x10);
	CHECK_STR(b.data, "/x/util.c");
	buf_reset(&b);
	fnid_tell(&b, level[3], "prog", v[3].file, v[3].line, 1, 0x10);
	CHECK_STR(b.data, "a.c");
	buf_reset(&b);
	fnid_tell(&b, level[6], "prog", v[6].file, v[6].line, 1, 0x10);
	CHECK_STR(b.data, "dup.h:9");
	buf_reset(&b);
	fnid_tell(&b, level[8], "prog", v[8].file, v[8].line, 1, 0x1380);
	CHECK_STR(b.data, "dup.h:4 @0x1380");
	buf_reset(&b);
	fnid_tell(&b, FNID_SHOW_CODE, "libx.so", NULL, 0, 1,
		  0x1380); /* no source: module and offset */
	CHECK_STR(b.data, "libx.so @0x1380");
	buf_release(&b);
}
