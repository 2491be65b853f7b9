/* debuginfo.c: finding modules' separate debug files locally, so libdw never reaches the network unasked. */
#include "debuginfo.h"

#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

#include "options.h"

/* Where distributions install debug files, mirroring the modules' directories. */
#define DEBUGINFO_GLOBAL_DIR "/usr/lib/debug"

/* The CRC32 of .gnu_debuglink (zlib's polynomial), of a whole file; false when unreadable. */
static bool file_crc32(int fd, uint32_t *out)
{
	uint32_t table[256], crc = 0xffffffffu;
	unsigned char buf[8192];
	off_t at = 0;
	ssize_t n;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
		at += n;
	}
	*out = crc ^ 0xffffffffu;
	return n == 0;
}

/* Whether the ELF file open on fd carries this build-id. */
static bool has_build_id(int fd, const void *id, int id_len)
{
	Elf *elf;
	const void *found;
	ssize_t len;
	bool same;

	elf_version(EV_CURRENT);
	if (!(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)))
		return false;
	len = dwelf_elf_gnu_build_id(elf, &found);
	same = len > 0 && len == id_len && memcmp(found, id, (size_t)len) == 0;
	elf_end(elf);
	return same;
}

/* The search's fixed inputs: what the debug file must match. */
struct wanted {
	Dwfl_Module *mod;
	struct stat main_st; /* the module's own file, never taken for its debug file */
	GElf_Word crc;       /* the debuglink's CRC32, 0 if none */
};

/* Opens path if it is the module's debug file, else -1. */
static int try_candidate(const struct wanted *w, const char *path)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int id_len = dwfl_module_build_id(w->mod, &id, &vaddr);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint32_t crc;
	bool valid;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_dev == w->main_st.st_dev && st.st_ino == w->main_st.st_ino))
		valid = false;
	else if (id_len > 0)
		valid = has_build_id(fd, id, id_len);
	else
		valid = w->crc != 0 && file_crc32(fd, &crc) && crc == w->crc;
	if (!valid) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Tries name in the three places for a module in directory dir (no trailing slash). */
static int search_dir(const struct wanted *w, const char *dir, const char *name, char **found)
{
	const char *prefixes[][2] = { { "", "/" },
				      { "", "/.debug/" },
				      { DEBUGINFO_GLOBAL_DIR, "/" } };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		int fd, len = snprintf(path, sizeof(path), "%s%s%s%s", prefixes[i][0], dir,
				       prefixes[i][1], name);
		if (len < 0 || (size_t)len >= sizeof(path))
			continue;
		if ((fd = try_candidate(w, path)) >= 0) {
			if (!(*found = strdup(path))) {
				close(fd);
				return -1;
			}
			return fd;
		}
	}
	return -1;
}

/* The search by debuglink name for the module file `file` (an absolute path). */
static int search_file(const struct wanted *w, const char *file, const char *debuglink,
		       char **found)
{
	char dir[PATH_MAX], name[NAME_MAX + 1];
	const char *slash = strrchr(file, '/');
	size_t dir_len = slash ? (size_t)(slash - file) : 0;
	int len;

	if (!slash || dir_len >= sizeof(dir))
		return -1;
	memcpy(dir, file, dir_len);
	dir[dir_len] = '\0';
	if (debuglink)
		len = snprintf(name, sizeof(name), "%s", debuglink);
	else
		len = snprintf(name, sizeof(name), "%s.debug", slash + 1);
	if (len < 0 || (size_t)len >= sizeof(name) || strchr(name, '/'))
		return -1;
	return search_dir(w, dir, name, found);
}

/* The local search by name: the module's path as reported, then its real path. */
static int search_by_name(Dwfl_Module *mod, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **found)
{
	struct wanted w = { .mod = mod, .crc = debuglink_crc };
	char *real;
	int fd;

	/* A dwz file asked for by name (no CRC): only the build-id search
	 * above can tell it is the right one. */
	if (!file_name || file_name[0] != '/' || (debuglink_file && !debuglink_crc))
		return -1;
	if (stat(file_name, &w.main_st) != 0)
		memset(&w.main_st, 0, sizeof(w.main_st));
	fd = search_file(&w, file_name, debuglink_file, found);
	if (fd < 0 && (real = realpath(file_name, NULL))) {
		if (strcmp(real, file_name) != 0)
			fd = search_file(&w, real, debuglink_file, found);
		free(real);
	}
	return fd;
}

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name)
{
	int fd;

	if (options.debuginfod)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd < 0)
		fd = search_by_name(mod, file_name, debuglink_file, debuglink_crc,
				    debuginfo_file_name);
	if (fd < 0)
		errno = 0; /* nothing found is no error: libdw goes on without debug information */
	return fd;
}

int debuginfo_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       char **file_name, Elf **elfp)
{
	if (options.debuginfod)
		return dwfl_build_id_find_elf(mod, userdata, modname, base, file_name, elfp);
	errno = 0;
	return -1;
}

/* Where libdw looks for a module file's separate debug information. */
static char *module_debuginfo_path;
static const Dwfl_Callbacks module_callbacks = {
	.find_elf = debuginfo_find_elf,
	.find_debuginfo = debuginfo_find,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &module_debuginfo_path,
};

Dwfl_Module *debuginfo_module(const char *path, uintptr_t base, Dwfl **dwfl)
{
	Dwfl_Module *mod;

	if (!(*dwfl = dwfl_begin(&module_callbacks)))
		return NULL;
	dwfl_report_begin(*dwfl);
	mod = dwfl_report_elf(*dwfl, path, path, -1, base, false);
	dwfl_report_end(*dwfl, NULL, NULL);
	if (!mod) {
		dwfl_end(*dwfl);
		*dwfl = NULL;
	}
	return mod;
}
