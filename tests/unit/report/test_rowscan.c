/* test_rowscan.c: the fast reader of each thread's tree rows, functions and edges (report/rowscan.c). */
#include <stdlib.h>

#include "check.h"
#include "rowscan.h"

static const char *const fn_names[] = { "fn", "calls" };
static const struct rowscan_keys fn_keys = { fn_names, 2, 0 };
static const char *const edge_names[] = { "caller", "callee", "call_file" };
static const struct rowscan_keys edge_keys = { edge_names, 3, UINT64_C(1) << 2 };

/* A dump's shape, with two threads. */
static const char doc[] =
	"{\"format\":\"callprof\",\"threads\":["
	"{\"tid\":1,\"functions\":[{\"fn\":0,\"calls\":5},{\"calls\":7,\"other\":\"x\",\"fn\":1}],"
	"\"edges\":[{\"caller\":null,\"callee\":0,\"call_file\":\"a.c\"}],"
	"\"tree\":{\"columns\":[\"id\",\"parent\",\"fn\"],\"rows\":[[0,null,0],[1,0,-1]]}},"
	"{\"tid\":2,\"functions\":[],\"edges\":[{\"callee\":1}]}]}";

/* scan: rowscan_extract of text (a copy, kept in *copy for the caller to free). */
static void scan(struct rowscan *rs, const char *text, char **copy)
{
	*copy = strdup(text);
	CHECK_NOT_NULL(*copy);
	rowscan_extract(rs, *copy, strlen(text), &fn_keys, &edge_keys);
}

void test_rowscan_reads_tables(void)
{
	struct rowscan rs;
	const struct rowscan_table *t;
	char *text;

	scan(&rs, doc, &text);
	t = rowscan_find(&rs, RS_FUNCTIONS, 0);
	CHECK_NOT_NULL(t);
	CHECK_EQ_U64(t->nrows, 2);
	CHECK_EQ_U64(t->ncols, 2);
	CHECK(t->cells[0] == 0 && t->cells[1] == 5 && t->cells[2] == 1 && t->cells[3] == 7);
	t = rowscan_find(&rs, RS_TREE_ROWS, 0);
	CHECK_NOT_NULL(t);
	CHECK_EQ_U64(t->nrows, 2);
	CHECK_EQ_U64(t->ncols, 3);
	CHECK(t->cells[0] == 0 && t->cells[1] == ROWSCAN_NULL && t->cells[2] == 0);
	CHECK(t->cells[3] == 1 && t->cells[4] == 0 && t->cells[5] == -1);
	t = rowscan_find(&rs, RS_FUNCTIONS, 1);
	CHECK_NOT_NULL(t);
	CHECK_EQ_U64(t->nrows, 0);
	t = rowscan_find(&rs, RS_EDGES, 1);
	CHECK_NOT_NULL(t);
	CHECK(t->nrows == 1 && t->cells[0] == ROWSCAN_NULL && t->cells[1] == 1 &&
	      t->cells[2] == ROWSCAN_NULL);
	rowscan_release(&rs);
	free(text);
}

/* blanked: the array that begins after marker in text holds only spaces now (and some). */
static int blanked(const char *text, const char *marker)
{
	const char *p = strstr(text, marker);
	size_t n = 0;

	if (!p)
		return 0;
	for (p += strlen(marker); *p == ' '; p++)
		n++;
	return n > 0 && *p == ']';
}

void test_rowscan_blanks_same_length(void)
{
	struct rowscan rs;
	char *text;

	scan(&rs, doc, &text);
	/* What was read is spaces now, so json-c sees empty arrays at the same byte offsets. */
	CHECK_EQ_U64(strlen(text), strlen(doc));
	CHECK(blanked(text, "\"tid\":1,\"functions\":["));
	CHECK(blanked(text, "\"edges\":["));
	CHECK(blanked(text, "\"rows\":["));
	CHECK(strstr(text, "\"fn\":") == NULL && strstr(text, "call_file") == NULL);
	CHECK(strstr(text, "\"columns\":[\"id\",\"parent\",\"fn\"]") != NULL); /* the rest stays */
	CHECK(strstr(text, "{\"tid\":2,\"functions\":[],\"edges\":[") != NULL);
	rowscan_release(&rs);
	free(text);
}

void test_rowscan_strings(void)
{
	struct rowscan rs;
	const struct rowscan_table *t;
	char *text;

	scan(&rs, doc, &text);
	t = rowscan_find(&rs, RS_EDGES, 0);
	CHECK_NOT_NULL(t);
	CHECK_EQ_U64(t->nrows, 1);
	CHECK(t->cells[0] == ROWSCAN_NULL && t->cells[1] == 0);
	CHECK_NOT_NULL(t->strings);
	CHECK_STR(t->strings + t->cells[2], "a.c");
	rowscan_release(&rs);
	free(text);
}

void test_rowscan_leaves_odd_arrays(void)
{
	/* Each array here has something only json-c may judge; the plain one beside them is still read. */
	static const char *const odd[] = {
		"{\"threads\":[{\"functions\":[{\"fn\":0.5}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":\"0\"}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":9223372036854775808}],\"edges\":[{"
		"\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":0,\"fn\":1}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":true}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":01}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"calls\":{}}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[{\"fn\":\"a\\\"b\"}],\"edges\":[{\"callee\":1}]}]}",
		"{\"threads\":[{\"functions\":[[0]],\"edges\":[{\"callee\":1}]}]}",
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		struct rowscan rs;
		char *text;

		scan(&rs, odd[i], &text);
		if (rowscan_find(&rs, RS_FUNCTIONS, 0))
			unit_fail(__FILE__, __LINE__, "functions read from %s", odd[i]);
		if (!rowscan_find(&rs, RS_EDGES, 0))
			unit_fail(__FILE__, __LINE__, "edges not read from %s", odd[i]);
		CHECK(strstr(text, "\"functions\":[") && strstr(text, "\"functions\":[ ") == NULL);
		rowscan_release(&rs);
		free(text);
	}
	{
		struct rowscan rs;
		char *text;

		scan(&rs, "{\"threads\":[{\"tree\":{\"rows\":[[0,1],[2]]},\"edges\":[]}]}", &text);
		CHECK(rowscan_find(&rs, RS_TREE_ROWS, 0) == NULL); /* rows of different lengths */
		CHECK_NOT_NULL(rowscan_find(&rs, RS_EDGES, 0));
		rowscan_release(&rs);
		free(text);
	}
}

void test_rowscan_gives_up_on_dup_keys(void)
{
	/* json-c keeps the last of two equal keys: which array that is, is its business. */
	static const char twice[] =
		"{\"threads\":[{\"functions\":[{\"fn\":0}],\"functions\":[{\"fn\":1}]}]}";
	struct rowscan rs;
	char *text;

	scan(&rs, twice, &text);
	CHECK_EQ_U64(rs.n, 0);
	CHECK_STR(text, twice);
	rowscan_release(&rs);
	free(text);
}

void test_rowscan_gives_up_on_escaped_key(void)
{
	static const char escaped[] =
		"{\"threads\":[{\"tr\\u0065e\":{\"rows\":[[0]]},\"functions\":[{\"fn\":0}]}]}";
	struct rowscan rs;
	char *text;

	scan(&rs, escaped, &text);
	CHECK_EQ_U64(rs.n, 0);
	CHECK_STR(text, escaped);
	rowscan_release(&rs);
	free(text);
}

void test_rowscan_finds_by_thread(void)
{
	static const char three[] = "{\"threads\":[{\"edges\":[{\"callee\":10}]},{\"tid\":2},"
				    "{\"edges\":[{\"callee\":12}],\"functions\":[{\"fn\":2}]}]}";
	struct rowscan rs;
	const struct rowscan_table *t;
	char *text;

	scan(&rs, three, &text);
	CHECK_EQ_U64(rs.n, 3);
	t = rowscan_find(&rs, RS_EDGES, 2);
	CHECK(t && t->thread == 2 && t->cells[1] == 12);
	t = rowscan_find(&rs, RS_FUNCTIONS, 2);
	CHECK(t && t->cells[0] == 2);
	CHECK(rowscan_find(&rs, RS_EDGES, 1) == NULL);
	CHECK(rowscan_find(&rs, RS_EDGES, 3) == NULL);
	CHECK(rowscan_find(&rs, RS_TREE_ROWS, 0) == NULL);
	rowscan_release(&rs);
	free(text);
}
