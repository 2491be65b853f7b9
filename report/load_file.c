/* load_file.c: reading a dump: the file, json-c's parse of it (the huge arrays read ahead by
 * rowscan), the document section by section, and several dumps at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "load_json.h"
#include "progress.h"

#define LOAD_DEPTH 64 /* nesting json-c accepts: a dump needs 5 levels */

static int read_whole(struct load_ctx *c, int fd, struct buf *text)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return load_fail(c, "cannot stat the file (%s)", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return load_fail(c, "not a dump (a directory)");
	if (S_ISREG(st.st_mode))
		buf_grow(text, (size_t)st.st_size);
	for (;;) {
		ssize_t n;

		buf_grow(text, 1 << 20);
		n = read(fd, text->data + text->len, text->alloc - text->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return load_fail(c, "cannot read the file (%s)", strerror(errno));
		if (n == 0)
			break;
		text->len += (size_t)n;
	}
	text->data[text->len] = '\0';
	return 0;
}

/* parse_json: the document in text, or NULL after load_fail(). */
static struct json_object *parse_json(struct load_ctx *c, const struct buf *text)
{
	struct json_tokener *tok = json_tokener_new_ex(LOAD_DEPTH);
	struct json_object *root = NULL;
	enum json_tokener_error jerr = json_tokener_continue;
	size_t off = 0, end = 0;

	if (!tok)
		return load_fail(c, "out of memory"), NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* json-c takes an int length: feed a huge file in slices. */
	while (off < text->len && jerr == json_tokener_continue) {
		size_t n = text->len - off > INT_MAX / 2 ? INT_MAX / 2 : text->len - off;

		root = json_tokener_parse_ex(tok, text->data + off, (int)n);
		jerr = json_tokener_get_error(tok);
		end = off + json_tokener_get_parse_end(tok);
		off += n;
	}
	if (jerr == json_tokener_continue) {
		load_fail(c, text->len ? "truncated JSON (the document ends early)"
				       : "not a dump (the file is empty)");
	} else if (jerr != json_tokener_success) {
		load_fail(c, "not valid JSON (%s at byte %zu)", json_tokener_error_desc(jerr), end);
	} else {
		while (end < text->len && text->data[end] && strchr(" \t\r\n", text->data[end]))
			end++;
		if (end < text->len)
			load_fail(c,
				  "not valid JSON (unexpected data after the document at byte %zu)",
				  end);
		else if (!root) /* "null" is a whole document to json-c */
			load_fail(c, "not a callprof dump (the document is null, not an object)");
	}
	json_tokener_free(tok);
	if (jerr == json_tokener_success && end == text->len && root)
		return root;
	json_object_put(root);
	return NULL;
}

static void set_date_from_mtime(struct dump *d, int fd)
{
	struct stat st;
	struct tm tm;
	char when[64];

	if (fstat(fd, &st) < 0 || !localtime_r(&st.st_mtime, &tm))
		return;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	d->run.date = xstrdup(when);
}

/* load_document: the sections in order, module and function ids mapped for those that refer to them. */
static int load_document(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	struct keymap modules, fns;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return load_fail(c, "not a callprof dump (the document is %s, not an object)",
				 load_type_name(root));
	if (load_header(c, d, root) < 0)
		return -1;
	rc = load_modules(c, d, root, &modules);
	if (rc == 0)
		rc = load_functions(c, d, root, &modules, &fns);
	else
		keymap_init(&fns, 0);
	if (rc == 0)
		rc = load_threads(c, d, root, &fns);
	keymap_release(&fns);
	keymap_release(&modules);
	return rc;
}

/*
 * parse_text: the document in text (len bytes, NUL-terminated, modified) into
 * d; 0, or -1 after load_fail().  owner, when not NULL, holds the text and is
 * released once json-c has read it, before the structs are built.
 */
static int parse_text(struct load_ctx *c, struct dump *d, char *text, size_t len, struct buf *owner)
{
	struct rowscan rows;
	struct buf view = { text, len, len + 1 };
	struct json_object *root;
	const char *fn_names[LOAD_MAX_FIELDS], *edge_names[LOAD_MAX_FIELDS];
	struct rowscan_keys fn_keys, edge_keys;
	int rc = -1;

	load_record_keys(&load_fstat_kind, fn_names, &fn_keys);
	load_record_keys(&load_edge_kind, edge_names, &edge_keys);
	c->rows = &rows;
	rowscan_extract(&rows, text, len, &fn_keys, &edge_keys);
	root = parse_json(c, &view);
	if (owner)
		buf_release(owner);
	if (root) {
		rc = load_document(c, d, root);
		json_object_put(root);
	}
	rowscan_release(&rows);
	c->rows = NULL;
	return rc;
}

int dump_parse(struct dump *d, const char *path, char *text, size_t len, struct buf *err)
{
	struct load_ctx c = { path, err, NULL };
	int rc;

	memset(d, 0, sizeof(*d));
	d->run.path = xstrdup(path);
	rc = parse_text(&c, d, text, len, NULL);
	if (rc < 0)
		dump_release(d);
	return rc;
}

int dump_load(struct dump *d, const char *path, struct buf *err)
{
	struct load_ctx c = { path, err, NULL };
	struct buf text = BUF_INIT;
	int fd, rc = -1;

	memset(d, 0, sizeof(*d));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		buf_reset(err);
		buf_puts(err, "cannot open ");
		load_quote_path(err, path);
		buf_printf(err, ": %s", strerror(e));
		return -1;
	}
	progress_note("reading '%s'", path);
	if (read_whole(&c, fd, &text) < 0)
		goto out_close;
	d->run.path = xstrdup(path);
	rc = parse_text(&c, d, text.data, text.len, &text);
	if (rc == 0 && !d->run.date)
		set_date_from_mtime(d, fd);
out_close:
	buf_release(&text);
	close(fd);
	if (rc < 0)
		dump_release(d);
	return rc;
}

int dumps_load(struct dump **out, char *const *paths, size_t n)
{
	struct dump *d = xcalloc(n, sizeof(*d));
	struct buf err = BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (dump_load(&d[i], paths[i], &err) < 0) {
			progress_end();
			fprintf(stderr, "callprof: %s\n", err.data);
			buf_release(&err);
			dumps_free(d, i);
			*out = NULL;
			return -1;
		}
	}
	buf_release(&err);
	progress_end();
	*out = d;
	return 0;
}

void dumps_free(struct dump *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dump_release(&d[i]);
	free(d);
}
