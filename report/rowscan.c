/* rowscan.c: finds threads[i].tree.rows in the JSON text and reads them without json-c (see rowscan.h). */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rowscan.h"

#define SCAN_DEPTH 64 /* deeper documents are left to json-c */

/* The keys the scanner follows: root.threads[i].tree.rows. */
enum key { K_OTHER, K_THREADS, K_TREE, K_ROWS };

/* One open container: an object (with the key of the value being read) or an array. */
struct level {
	int is_array;
	enum key key;       /* objects: the key whose value comes next */
	size_t index;       /* arrays: elements begun so far */
	unsigned seen;      /* objects: bit per key seen, to notice a key given twice */
};

/* The scanner: text, position, open containers. */
struct scan {
	const char *s;
	size_t len, pos;
	struct level stack[SCAN_DEPTH];
	int depth;          /* open containers; -1 before the document */
	int dup;            /* a followed key appeared twice (json-c keeps the last) or a key
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
	return K_OTHER;
}

/* at_rows: the value about to be read is root.threads[i].tree.rows; *thread gets i. */
static int at_rows(const struct scan *sc, size_t *thread)
{
	const struct level *l = sc->stack;

	if (sc->depth != 3 || l[0].is_array || l[0].key != K_THREADS || !l[1].is_array ||
	    l[2].is_array || l[2].key != K_TREE || l[3].is_array || l[3].key != K_ROWS)
		return 0;
	*thread = l[1].index - 1;
	return 1;
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

		/* Past INT64_MAX json-c reads it (and load.c refuses it with the row's path). */
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
				cells = xreallocarray(cells, cap = cap ? 2 * cap : 4096, sizeof(*cells));
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
		if (ch == '[' && at_rows(sc, &thread)) {
			struct rowscan_table t = { .thread = thread };

			if (read_rows(sc, &t) == 0) {
				if (rs->n == cap)
					rs->tables = xreallocarray(rs->tables, cap = cap ? 2 * cap : 8, sizeof(*rs->tables));
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
			if (ch == '{' && sc->pos < sc->len && sc->s[sc->pos] != '}' && scan_key(sc) < 0)
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

void rowscan_extract(struct rowscan *rs, char *text, size_t len)
{
	struct scan sc = { .s = text, .len = len };

	rs->n = 0;
	rs->tables = NULL;
	scan(&sc, rs);
	/* json-c keeps the last of two equal keys; which rows that means is its business. */
	for (size_t i = 0; i < rs->n && !sc.dup; i++)
		for (size_t k = 0; k < i; k++)
			if (rs->tables[k].thread == rs->tables[i].thread)
				sc.dup = 1;
	if (sc.dup) {
		rowscan_release(rs);
		return;
	}
	for (size_t i = 0; i < rs->n; i++)
		memset(text + rs->tables[i].start, ' ', rs->tables[i].end - rs->tables[i].start);
}

const struct rowscan_table *rowscan_find(const struct rowscan *rs, size_t thread)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->tables[i].thread == thread)
			return &rs->tables[i];
	return NULL;
}

void rowscan_release(struct rowscan *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->tables[i].cells);
	free(rs->tables);
	rs->n = 0;
	rs->tables = NULL;
}
