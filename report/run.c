/* run.c: the names of the threads' counters, and freeing what a run holds. */
#include <stdlib.h>
#include <string.h>

#include "run.h"

const char *const run_counter_keys[RUN_COUNTERS] = {
	"dropped_calls", "resynced_frames", "unmatched_exits", "closed_at_thread_exit",
	"open_frames", "folded_calls", "dropped_in_signal", "dropped_no_room", "tree_nodes", "max_nodes",
	"dropped_at_end",
};

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
	}
	free(r->modules);
	memset(r, 0, sizeof(*r));
}
