/*
 * xray_profiling.c: turns on XRay's profiling mode (an in-memory function-call
 * trie, XRay's closest analogue to callprof) before main.  Clang 14's runtime
 * cannot do it from XRAY_OPTIONS alone: its initializer selects the mode as
 * "xray_profiling" while it registered "xray-profiling", and never initializes
 * it.  Built without XRay instrumentation and linked only into the XRay build.
 * The profile is flushed to xray-log.* (XRAY_OPTIONS=xray_logfile_base=...) at exit.
 */
#include <stdio.h>

/* From <xray/xray_log_interface.h> and <xray/xray_interface.h>, which are C++ only. */
int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_patch(void);

enum { XRAY_REGISTRATION_OK = 0, XRAY_LOG_INITIALIZED = 2, XRAY_PATCHING_SUCCESS = 1 };

__attribute__((constructor)) static void xray_profiling_start(void)
{
	if (__xray_log_select_mode("xray-profiling") != XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-profiling", "") != XRAY_LOG_INITIALIZED ||
	    __xray_patch() != XRAY_PATCHING_SUCCESS)
		fprintf(stderr, "xray_profiling: could not start XRay's profiling mode\n");
}
