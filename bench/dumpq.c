/*
 * dumpq.c: reads one callprof dump and prints what the benchmarks need as
 * tab-separated lines, for awk:
 *   calib   o_in_ns  o_out_ns  per_call_ns
 *   thread  tid  tree_rows  wall_ns            (one per thread)
 *   fn      name  calls  inclusive_ns  self_ns  raw_inclusive_ns  raw_self_ns
 *                                              (the first thread's functions)
 *   total_calls  N                             (every thread, every function)
 * usage: dumpq DUMP.json   (exit 2 if the file cannot be read as a dump)
 */
#include <inttypes.h>
#include <stdio.h>

#include <json-c/json.h>

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int64_t get_int(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v ? json_object_get_int64(v) : -1;
}

static double get_double(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v ? json_object_get_double(v) : -1;
}

/* The names of the top-level functions[], indexed by id. */
static const char *fn_name(json_object *functions, int64_t id)
{
	size_t n = json_object_array_length(functions);

	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(functions, i);
		if (get_int(f, "id") == id)
			return json_object_get_string(get(f, "name"));
	}
	return "?";
}

static void print_thread_functions(json_object *thread, json_object *functions)
{
	json_object *fns = get(thread, "functions");
	size_t n = fns ? json_object_array_length(fns) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(fns, i);
		/* The last column: fenced calls (tsc-adaptive), -1 where the dump has none. */
		printf("fn\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n",
		       fn_name(functions, get_int(f, "fn")), get_int(f, "calls"), get_int(f, "inclusive_ns"),
		       get_int(f, "self_ns"), get_int(f, "raw_inclusive_ns"), get_int(f, "raw_self_ns"),
		       get_int(f, "fenced_calls"));
	}
}

static int64_t thread_calls(json_object *thread)
{
	json_object *fns = get(thread, "functions");
	size_t n = fns ? json_object_array_length(fns) : 0;
	int64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += get_int(json_object_array_get_idx(fns, i), "calls");
	return sum;
}

int main(int argc, char **argv)
{
	json_object *root, *cal, *threads, *functions, *tree, *rows;
	int64_t total = 0;
	size_t nthreads;

	if (argc != 2) {
		fprintf(stderr, "usage: dumpq DUMP.json\n");
		return 1;
	}
	root = json_object_from_file(argv[1]);
	if (!root || !(threads = get(root, "threads")) || !(functions = get(root, "functions"))) {
		fprintf(stderr, "dumpq: cannot read a callprof dump from '%s'\n", argv[1]);
		return 2;
	}
	cal = get(root, "calibration");
	printf("calib\t%.3f\t%.3f\t%.3f\n", cal ? get_double(cal, "o_in_ns") : -1,
	       cal ? get_double(cal, "o_out_ns") : -1, cal ? get_double(cal, "per_call_ns") : -1);
	nthreads = json_object_array_length(threads);
	for (size_t i = 0; i < nthreads; i++) {
		json_object *t = json_object_array_get_idx(threads, i);
		tree = get(t, "tree");
		rows = tree ? get(tree, "rows") : NULL;
		printf("thread\t%" PRId64 "\t%zu\t%" PRId64 "\n", get_int(t, "tid"),
		       rows ? json_object_array_length(rows) : 0, get_int(t, "wall_ns"));
		total += thread_calls(t);
	}
	if (nthreads > 0)
		print_thread_functions(json_object_array_get_idx(threads, 0), functions);
	printf("total_calls\t%" PRId64 "\n", total);
	json_object_put(root);
	return 0;
}
