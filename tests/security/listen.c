/*
 * listen.c: a TCP listener on loopback that counts who connects, for the tests
 * that a program never reaches a debuginfod server.
 *   listen COUNTFILE   binds 127.0.0.1 on a free port, prints "PORT PID" and goes
 *                      to the background; each connection is counted and closed
 *   listen --stop PORT connects and says STOP: the listener writes its count to
 *                      COUNTFILE and exits
 * The count is exact without any waiting: connections are accepted in the order
 * they were made, so every connection made before the STOP is counted.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int stop(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
	int s = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0 || write(s, "STOP", 4) != 4) {
		perror("listen --stop");
		return 1;
	}
	close(s);
	return 0;
}

static void serve(int s, const char *countfile)
{
	long count = 0;
	FILE *f;

	for (;;) {
		char buf[4] = { 0 };
		int c = accept(s, NULL, NULL);
		ssize_t n;
		if (c < 0)
			continue;
		n = recv(c, buf, sizeof(buf), MSG_WAITALL);
		close(c);
		if (n == 4 && !memcmp(buf, "STOP", 4))
			break;
		count++;
	}
	if ((f = fopen(countfile, "w"))) {
		fprintf(f, "%ld\n", count);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	pid_t pid;
	int s;

	if (argc == 3 && !strcmp(argv[1], "--stop"))
		return stop(atoi(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: listen COUNTFILE | listen --stop PORT\n");
		return 2;
	}
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(s, 128) != 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) != 0) {
		perror("listen");
		return 1;
	}
	fflush(stdout);
	if ((pid = fork()) < 0) {
		perror("fork");
		return 1;
	}
	if (pid > 0) {
		printf("%d %d\n", ntohs(a.sin_port), (int)pid);
		return 0;
	}
	/* The child: let $(...) in the test return, and never outlive a forgotten test by long. */
	freopen("/dev/null", "w", stdout);
	alarm(900);
	serve(s, argv[1]);
	return 0;
}
