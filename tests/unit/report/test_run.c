/* test_run.c: a dump's arguments as pages show them, cut (report/run.c). */
#include "buf.h"
#include "check.h"
#include "run.h"

void test_run_args_cut(void)
{
	char a0[] = "prog", a1[] = "--in", a2[] = "x\xc3\xa9y";
	char *argv[] = { a0, a1, a2 };
	struct run r = { .argc = 3, .argv = argv };
	struct buf b = BUF_INIT;

	run_args(&b, &r, 1, 100);
	CHECK_STR(b.data, "--in x\xc3\xa9y");
	buf_reset(&b);
	run_args(&b, &r, 1, 7); /* "--in x" and the first byte of é: cut before it */
	CHECK_STR(b.data, "--in x\xe2\x80\xa6 (3 bytes more)");
	buf_reset(&b);
	run_args(&b, &r, 3, 7);
	CHECK_STR(b.data, "");
	buf_release(&b);
	CHECK_STR(run_program_base(&r), "prog");
}
