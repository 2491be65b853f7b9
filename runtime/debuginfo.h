/* debuginfo.h: where libdw finds modules' separate debug files: on this machine only, unless asked. */
#ifndef CALLPROF_DEBUGINFO_H
#define CALLPROF_DEBUGINFO_H

#include <stdint.h>

#include <elfutils/libdwfl.h>

/*
 * libdwfl's find_debuginfo callback.  With CALLPROF_DEBUGINFOD=1 it is
 * dwfl_standard_find_debuginfo, which asks the debuginfod servers of
 * DEBUGINFOD_URLS for modules without local debug information.  Otherwise it
 * never reaches the network, and libdw's debuginfod client (libdebuginfod,
 * libcurl) is not even loaded: elfutils 0.188 loads and starts it for every
 * module without local debug information, whatever DEBUGINFOD_URLS says, and a
 * server that never answers would hold the program's exit.  The local search:
 * - by build-id under /usr/lib/debug/.build-id (dwfl_build_id_find_debuginfo),
 *   which also finds dwz files that way;
 * - by .gnu_debuglink name (or FILE.debug) as GDB and libdw look: beside the
 *   module, in its .debug/ directory, and under /usr/lib/debug/ plus the
 *   module's directory (again through the module's real path when it was
 *   reached through a symbolic link), a candidate being taken only if its
 *   build-id matches the module's or, without a build-id, its CRC32 matches
 *   the debuglink's.
 * Returns an open file descriptor and sets *debuginfo_file_name (malloc'd,
 * libdw frees it), or -1.
 */
int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name);

/*
 * libdwfl's find_elf callback for modules reported with dwfl_report_elf, whose
 * ELF file libdw opens itself: with CALLPROF_DEBUGINFOD=1 it is
 * dwfl_build_id_find_elf (a local build-id lookup, then debuginfod), else it
 * finds nothing (the lookup by build-id would start the debuginfod client).
 */
int debuginfo_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       char **file_name, Elf **elfp);

/*
 * A libdw session on one module file on its own, loaded at `base` (its separate
 * debug file found as above): the module, with the session in *dwfl for
 * dwfl_end; NULL when the file cannot be read.  Cold: for the functions of a
 * module as it is loaded.
 */
Dwfl_Module *debuginfo_module(const char *path, uintptr_t base, Dwfl **dwfl);

#endif
