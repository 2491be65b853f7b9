/* schedstat.c: a thread's wait for a CPU, read from /proc/self/task/TID/schedstat. */
#include "schedstat.h"

#include <fcntl.h>
#include <unistd.h>

/* put_uint writes v in decimal at the end of a buffer ending at end; returns where it begins. */
static char *put_uint(char *end, unsigned v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

int schedstat_wait_ns(int tid, uint64_t *wait_ns)
{
	static const char head[] = "/proc/self/task/", tail[] = "/schedstat";
	char path[sizeof(head) + 12 + sizeof(tail)], num[12], text[96], *p = path, *digits;
	ssize_t n;
	int fd, field = 0;
	uint64_t v = 0;

	if (tid <= 0)
		return -1;
	digits = put_uint(num + sizeof(num), (unsigned)tid);
	for (const char *s = head; *s; s++)
		*p++ = *s;
	while (digits < num + sizeof(num))
		*p++ = *digits++;
	for (const char *s = tail; *s; s++)
		*p++ = *s;
	*p = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	/* "ON_CPU_NS WAIT_NS TIMESLICES\n": the second field. */
	for (p = text; p < text + n && field < 2; p++) {
		if (*p >= '0' && *p <= '9') {
			if (field == 1)
				v = v * 10 + (uint64_t)(*p - '0');
		} else if (*p == ' ') {
			field++;
		} else {
			return -1;
		}
	}
	if (field != 2)
		return -1;
	*wait_ns = v;
	return 0;
}
