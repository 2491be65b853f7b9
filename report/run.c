/* run.c: the names of the threads' counters, and freeing what a run holds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fmt.h"
#include "run.h"

const char *const run_counter_keys[RUN_COUNTERS] = {
	"dropped_calls", "resynced_frames", "unmatched_exits",   "closed_at_thread_exit",
	"open_frames",   "folded_calls",    "dropped_in_signal", "dropped_no_room",
	"tree_nodes",    "max_nodes",       "dropped_at_end",    "undecided_calls",
};

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void run_args(struct buf *out, const struct run *r, size_t first, size_t max_bytes)
{
	size_t start = out->len, total = 0, cut;
	char more[FMT_SIZE];

	for (size_t i = first; i < r->argc; i++)
		total += strlen(r->argv[i]) + (i > first);
	for (size_t i = first; i < r->argc && out->len - start < max_bytes + 1; i++) {
		if (i > first)
			buf_putc(out, ' ');
		buf_puts(out, r->argv[i]);
	}
	if (total <= max_bytes)
		return;
	cut = max_bytes;
	while (cut && ((unsigned char)out->data[start + cut] & 0xc0) == 0x80)
		cut--;
	out->len = start + cut;
	out->data[out->len] = '\0';
	buf_printf(out, "\xe2\x80\xa6 (%s bytes more)", fmt_count(more, total - cut));
}

const char *run_program_base(const struct run *r)
{
	const char *prog = r->program ? r->program : r->argc ? r->argv[0] : NULL;
	const char *slash = prog ? strrchr(prog, '/') : NULL;

	return slash ? slash + 1 : prog;
}

void run_release(struct run *r)
{
	free(r->path);
	free(r->date);
	free(r->program);
	free_strings(r->argv, r->argc);
	free(r->clock_source);
	free_strings(r->warnings, r->nwarnings);
	free(r->cut_short);
	free(r->clock_note);
	for (size_t i = 0; i < r->nmodules; i++) {
		free(r->modules[i].path);
		free(r->modules[i].build_id);
		for (size_t k = 0; k < r->modules[i].nuncalled; k++) {
			free(r->modules[i].uncalled[k].name);
			free(r->modules[i].uncalled[k].file);
			free(r->modules[i].uncalled[k].offset);
		}
		free(r->modules[i].uncalled);
		free_strings(r->modules[i].libcalls.lazy, r->modules[i].libcalls.nlazy);
		free_strings(r->modules[i].libcalls.through_got, r->modules[i].libcalls.nthrough);
	}
	free(r->library_probes);
	free(r->modules);
	memset(r, 0, sizeof(*r));
}

int run_parse_offset(const char *s, uint64_t *out)
{
	char *end;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return 0;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return !*end && !errno;
}
