/* liblcexit.c: preloaded for hazards.c _exit: writes the profile, then ends the process as _exit does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

void _exit(int status)
{
	int (*dump)(const char *);

	*(void **)&dump = dlsym(RTLD_DEFAULT, "callprof_dump");
	if (dump)
		dump(NULL);
	for (;;)
		syscall(SYS_exit_group, status);
}
