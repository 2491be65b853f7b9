/* rowscan.c: finds each thread's tree rows, functions and edges in the JSON text and reads them
 * without json-c (see rowscan.h). */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rowscan.h"

#define SCAN_DEPTH 64 /* deeper documents are left to json-c */

/* The keys the scanner follows: root.threads[i].tree.rows, .functions and .edges. */
enum key { K_OTHER, K_THREADS, K_TREE, K_ROWS, K_FUNCTIONS, K_EDGES };

/* One open container: an object (with the key of the value being read) or an array. */
struct level {
	int is_array;
	enum key key;  /* objects: the key whose value comes next */
	size_t index;  /* arrays: elements begun so far */
	unsigned seen; /* objects: bit per key seen, to notice a key given twice */
};

/* The scanner: text, position, open containers. */
struct scan {
	const char *s;
	size_t len, pos;
	const struct rowscan_keys *fn_keys, *edge_keys; /* the cells of objects */
	struct level stack[SCAN_DEPTH];
	int depth; /* open containers; -1 before the document */
	int dup;   /* a followed key appeared twice (json-c keeps the last) or a key
			       was escaped: the tables may not be json-c's, so give up */
};

static void skip_ws(struct scan *sc)
{
	while (sc->pos < sc->len && (sc->s[sc->pos] == ' ' || sc->s[sc->pos] == '\n' ||
				     sc->s[sc->pos] == '\r' || sc->s[sc->pos] == '\t'))
		sc->pos++;
}

/* skip_string: past the string starting at pos ('"'); its body is [*b, *e). 0, or -1 if unterminated. */
static int skip_string(struct scan *sc, size_t *b, size_t *e)
{
	size_t i = sc->pos + 1;

	*b = i;
	while (i < sc->len) {
		const char *q = memchr(sc->s + i, '"', sc->len - i);
		size_t bs = 0;

		if (!q)
			return -1;
		i = (size_t)(q - sc->s);
		while (bs < i - *b && sc->s[i - 1 - bs] == '\\')
			bs++;
		if (bs % 2 == 0) {
			*e = i;
			sc->pos = i + 1;
			return 0;
		}
		i++;
	}
	return -1;
}

/* is_delim: ch ends a number or literal (a NUL does not: strchr would match its terminator). */
static int is_delim(char ch)
{
	return ch && strchr(",]} \t\r\n", ch);
}

static enum key key_of(const char *s, size_t n)
{
	if (n == 7 && !memcmp(s, "threads", 7))
		return K_THREADS;
	if (n == 4 && !memcmp(s, "tree", 4))
		return K_TREE;
	if (n == 4 && !memcmp(s, "rows", 4))
		return K_ROWS;
	if (n == 9 && !memcmp(s, "functions", 9))
		return K_FUNCTIONS;
	if (n == 5 && !memcmp(s, "edges", 5))
		return K_EDGES;
	return K_OTHER;
}

/*
 * at_table: the value about to be read is root.threads[i].tree.rows (*what
 * RS_TREE_ROWS), .functions or .edges; *thread gets i.
 */
static int at_table(const struct scan *sc, enum rowscan_what *what, size_t *thread)
{
	const struct level *l = sc->stack;

	if (sc->depth < 2 || l[0].is_array || l[0].key != K_THREADS || !l[1].is_array ||
	    l[2].is_array)
		return 0;
	*thread = l[1].index - 1;
	if (sc->depth == 2 && (l[2].key == K_FUNCTIONS || l[2].key == K_EDGES)) {
		*what = l[2].key == K_FUNCTIONS ? RS_FUNCTIONS : RS_EDGES;
		return 1;
	}
	if (sc->depth == 3 && l[2].key == K_TREE && !l[3].is_array && l[3].key == K_ROWS) {
		*what = RS_TREE_ROWS;
		return 1;
	}
	return 0;
}

/* read_int: an integer or null at pos into *v; 0, or -1 for anything else (left to json-c). */
static int read_int(struct scan *sc, int64_t *v)
{
	const char *s = sc->s;
	size_t i = sc->pos, start;
	int neg = 0;
	uint64_t x = 0;

	if (sc->len - i >= 4 && !memcmp(s + i, "null", 4)) {
		*v = ROWSCAN_NULL;
		sc->pos = i + 4;
		return 0;
	}
	if (i < sc->len && s[i] == '-')
		neg = 1, i++;
	start = i;
	while (i < sc->len && s[i] >= '0' && s[i] <= '9') {
		uint64_t digit = (uint64_t)(s[i++] - '0');

		/* Past INT64_MAX json-c reads it (and the loader refuses it with the row's path). */
		if (x > ((uint64_t)INT64_MAX - digit) / 10)
			return -1;
		x = x * 10 + digit;
	}
	if (i == start || (s[start] == '0' && i - start > 1))
		return -1;
	if (i < sc->len && (s[i] == '.' || s[i] == 'e' || s[i] == 'E'))
		return -1;
	*v = neg ? -(int64_t)x : (int64_t)x;
	sc->pos = i;
	return 0;
}

/* read_rows: the rows array at pos ('[') into t; 0 with pos past its ']', or -1 (pos unchanged). */
static int read_rows(struct scan *sc, struct rowscan_table *t)
{
	size_t save = sc->pos, cap = 0, n = 0;
	int64_t *cells = NULL;

	t->ncols = 0;
	t->nrows = 0;
	sc->pos++;
	skip_ws(sc);
	if (sc->pos < sc->len && sc->s[sc->pos] == ']')
		goto done;
	for (;;) {
		size_t cols = 0;

		skip_ws(sc);
		if (sc->pos >= sc->len || sc->s[sc->pos] != '[')
			goto fail;
		sc->pos++;
		for (;;) {
			skip_ws(sc);
			if (n == cap)
				cells = xreallocarray(cells, cap = cap ? 2 * cap : 4096,
						      sizeof(*cells));
			if (read_int(sc, &cells[n]) < 0)
				goto fail;
			n++, cols++;
			skip_ws(sc);
			if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
				sc->pos++;
				continue;
			}
			if (sc->pos < sc->len && sc->s[sc->pos] == ']')
				break;
			goto fail;
		}
		sc->pos++;
		if (t->nrows == 0)
			t->ncols = cols;
		else if (cols != t->ncols)
			goto fail;
		t->nrows++;
		skip_ws(sc);
		if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
			sc->pos++;
			continue;
		}
		if (sc->pos < sc->len && sc->s[sc->pos] == ']')
			break;
		goto fail;
	}
done:
	sc->pos++;
	t->cells = cells;
	t->start = save + 1;
	t->end = sc->pos - 1;
	return 0;
fail:
	free(cells);
	sc->pos = save;
	return -1;
}

/* plain_string: the string at pos ('"') if it has no escape and no control character; 0 or -1. */
static int plain_string(struct scan *sc, size_t *b, size_t *e)
{
	size_t i = sc->pos + 1;

	for (; i < sc->len && sc->s[i] != '"'; i++)
		if (sc->s[i] == '\\' || (unsigned char)sc->s[i] < 0x20)
			return -1;
	if (i >= sc->len)
		return -1;
	*b = sc->pos + 1;
	*e = i;
	sc->pos = i + 1;
	return 0;
}

/* read_member: one "key": value of an object into row (ncols cells); *seen marks the keys read. */
static int read_member(struct scan *sc, const struct rowscan_keys *k, int64_t *row, uint64_t *seen,
		       struct buf *pool)
{
	size_t b, e, vb, ve;
	int64_t idx = -1;

	if (sc->pos >= sc->len || sc->s[sc->pos] != '"' || plain_string(sc, &b, &e) < 0)
		return -1;
	for (size_t i = 0; i < k->n && idx < 0; i++)
		if (strlen(k->names[i]) == e - b && !memcmp(sc->s + b, k->names[i], e - b))
			idx = (int64_t)i;
	skip_ws(sc);
	if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
		return -1;
	sc->pos++;
	skip_ws(sc);
	if (idx >= 0) {
		if (*seen &
		    (UINT64_C(1) << idx)) /* json-c would keep the last: leave it to json-c */
			return -1;
		*seen |= UINT64_C(1) << idx;
	}
	if (sc->pos < sc->len && sc->s[sc->pos] == '"') {
		/* A string: for a string key kept in the pool, for an unknown key skipped. */
		if (plain_string(sc, &vb, &ve) < 0 ||
		    (idx >= 0 && !(k->strings & (UINT64_C(1) << idx))))
			return -1;
		if (idx >= 0) {
			row[idx] = (int64_t)pool->len;
			buf_add(pool, sc->s + vb, ve - vb);
			buf_putc(pool, '\0');
		}
		return 0;
	}
	/* An integer or null; a string key may be null only. */
	{
		int64_t v;

		if (read_int(sc, &v) < 0 ||
		    (idx >= 0 && (k->strings & (UINT64_C(1) << idx)) && v != ROWSCAN_NULL))
			return -1;
		if (idx >= 0)
			row[idx] = v;
	}
	return 0;
}

/* read_object: one object of the table at pos ('{') into row. */
static int read_object(struct scan *sc, const struct rowscan_keys *k, int64_t *row,
		       struct buf *pool)
{
	uint64_t seen = 0;

	for (size_t i = 0; i < k->n; i++)
		row[i] = ROWSCAN_NULL;
	if (sc->pos >= sc->len || sc->s[sc->pos] != '{')
		return -1;
	sc->pos++;
	skip_ws(sc);
	if (sc->pos < sc->len && sc->s[sc->pos] == '}') {
		sc->pos++;
		return 0;
	}
	for (;;) {
		if (read_member(sc, k, row, &seen, pool) < 0)
			return -1;
		skip_ws(sc);
		if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
			sc->pos++;
			skip_ws(sc);
			continue;
		}
		if (sc->pos < sc->len && sc->s[sc->pos] == '}') {
			sc->pos++;
			return 0;
		}
		return -1;
	}
}

/* read_objects: the array of objects at pos ('[') into t; 0 with pos past its ']', or -1 (pos unchanged). */
static int read_objects(struct scan *sc, struct rowscan_table *t, const struct rowscan_keys *k)
{
	size_t save = sc->pos, cap = 0;
	int64_t *cells = NULL;
	struct buf pool = BUF_INIT;

	t->ncols = k->n;
	t->nrows = 0;
	sc->pos++;
	skip_ws(sc);
	if (sc->pos < sc->len && sc->s[sc->pos] == ']')
		goto done;
	for (;;) {
		if (t->nrows == cap)
			cells = xreallocarray(cells, (cap = cap ? 2 * cap : 1024) * t->ncols,
					      sizeof(*cells));
		if (read_object(sc, k, cells + t->nrows * t->ncols, &pool) < 0)
			goto fail;
		t->nrows++;
		skip_ws(sc);
		if (sc->pos < sc->len && sc->s[sc->pos] == ',') {
			sc->pos++;
			skip_ws(sc);
			continue;
		}
		if (sc->pos < sc->len && sc->s[sc->pos] == ']')
			break;
		goto fail;
	}
done:
	sc->pos++;
	t->cells = cells;
	t->strings = pool.len ? buf_detach(&pool, NULL) : NULL;
	t->start = save + 1;
	t->end = sc->pos - 1;
	return 0;
fail:
	free(cells);
	buf_release(&pool);
	sc->pos = save;
	return -1;
}

/* read_table: the array at pos, of the kind what, into t. */
static int read_table(struct scan *sc, struct rowscan_table *t)
{
	if (t->what == RS_TREE_ROWS)
		return read_rows(sc, t);
	return read_objects(sc, t, t->what == RS_FUNCTIONS ? sc->fn_keys : sc->edge_keys);
}

/* open_level: a '{' or '[' begins a container. */
static void open_level(struct scan *sc, int is_array)
{
	struct level *l = &sc->stack[++sc->depth];

	l->is_array = is_array;
	l->key = K_OTHER;
	l->index = 0;
	l->seen = 0;
}

/* begin_value: a value begins: count it when it is an array element. */
static void begin_value(struct scan *sc)
{
	if (sc->depth >= 0 && sc->stack[sc->depth].is_array)
		sc->stack[sc->depth].index++;
}

/* scan_key: the key string at pos, then ':'; 0, or -1 if malformed. */
static int scan_key(struct scan *sc)
{
	struct level *l = &sc->stack[sc->depth];
	size_t b, e;

	if (sc->pos >= sc->len || sc->s[sc->pos] != '"' || skip_string(sc, &b, &e) < 0)
		return -1;
	l->key = key_of(sc->s + b, e - b);
	/* An escaped key may spell a followed one ("tr\u0065e"): json-c would see it, not us. */
	if (memchr(sc->s + b, '\\', e - b))
		sc->dup = 1;
	if (l->key != K_OTHER) {
		if (l->seen & (1u << l->key))
			sc->dup = 1;
		l->seen |= 1u << l->key;
	}
	skip_ws(sc);
	if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
		return -1;
	sc->pos++;
	return 0;
}

/* scan: walks the document, collecting tables; stops quietly at anything malformed. */
static void scan(struct scan *sc, struct rowscan *rs)
{
	size_t cap = 0, b, e, thread;
	enum rowscan_what what;

	sc->depth = -1;
	for (;;) {
		skip_ws(sc);
		if (sc->pos >= sc->len)
			return;
		char ch = sc->s[sc->pos];

		if (ch == ',') {
			sc->pos++;
			if (sc->depth >= 0 && !sc->stack[sc->depth].is_array) {
				skip_ws(sc);
				if (scan_key(sc) < 0)
					return;
			}
			continue;
		}
		if (ch == '}' || ch == ']') {
			if (sc->depth < 0 || sc->stack[sc->depth].is_array != (ch == ']'))
				return;
			sc->depth--;
			sc->pos++;
			if (sc->depth < 0)
				return;
			continue;
		}
		/* A value. */
		begin_value(sc);
		if (ch == '[' && at_table(sc, &what, &thread)) {
			struct rowscan_table t = { .what = what, .thread = thread };

			if (read_table(sc, &t) == 0) {
				if (rs->n == cap)
					rs->tables =
						xreallocarray(rs->tables, cap = cap ? 2 * cap : 8,
							      sizeof(*rs->tables));
				rs->tables[rs->n++] = t;
				continue;
			}
		}
		if (ch == '{' || ch == '[') {
			if (sc->depth + 1 >= SCAN_DEPTH)
				return;
			open_level(sc, ch == '[');
			sc->pos++;
			skip_ws(sc);
			if (ch == '{' && sc->pos < sc->len && sc->s[sc->pos] != '}' &&
			    scan_key(sc) < 0)
				return;
			continue;
		}
		if (ch == '"') {
			if (skip_string(sc, &b, &e) < 0)
				return;
			continue;
		}
		/* A number, true, false or null: up to the next delimiter (or give up on none). */
		size_t start = sc->pos;

		while (sc->pos < sc->len && !is_delim(sc->s[sc->pos]))
			sc->pos++;
		if (sc->pos == start)
			return;
	}
}

void rowscan_extract(struct rowscan *rs, char *text, size_t len, const struct rowscan_keys *fn_keys,
		     const struct rowscan_keys *edge_keys)
{
	struct scan sc = { .s = text, .len = len, .fn_keys = fn_keys, .edge_keys = edge_keys };

	rs->n = 0;
	rs->tables = NULL;
	scan(&sc, rs);
	/* json-c keeps the last of two equal keys; which rows that means is its business. */
	/* Tables come in thread order: a second table of one array is among those of its thread. */
	for (size_t i = 1; i < rs->n && !sc.dup; i++) {
		if (rs->tables[i - 1].thread > rs->tables[i].thread)
			sc.dup = 1;
		for (size_t k = i; k-- > 0 && rs->tables[k].thread == rs->tables[i].thread;)
			if (rs->tables[k].what == rs->tables[i].what)
				sc.dup = 1;
	}
	if (sc.dup) {
		rowscan_release(rs);
		return;
	}
	for (size_t i = 0; i < rs->n; i++)
		memset(text + rs->tables[i].start, ' ', rs->tables[i].end - rs->tables[i].start);
}

const struct rowscan_table *rowscan_find(const struct rowscan *rs, enum rowscan_what what,
					 size_t thread)
{
	size_t lo = 0, hi = rs->n;

	/* The tables are in thread order (rowscan_extract made sure): find the thread's first. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rs->tables[mid].thread < thread)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < rs->n && rs->tables[lo].thread == thread; lo++)
		if (rs->tables[lo].what == what)
			return &rs->tables[lo];
	return NULL;
}

void rowscan_release(struct rowscan *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->tables[i].cells);
		free(rs->tables[i].strings);
	}
	free(rs->tables);
	rs->n = 0;
	rs->tables = NULL;
}
