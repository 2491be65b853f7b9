/*
 * timeit.c: the benchmarks' process timer.  Runs a list of commands in
 * interleaved rounds (each round runs every command once, in a fresh shuffled
 * order), so slow drifts of a shared 2-core machine hit every variant alike,
 * and prints each command's median wall time.
 *
 * usage: timeit [-w WARMUP_ROUNDS] [-r ROUNDS] [-o RAW.tsv] CMDFILE > SUMMARY.tsv
 *
 * CMDFILE: one command a line, "NAME<TAB>WORD WORD ...": words are split on
 * blanks (no shell, no quoting); leading NAME=VALUE words set environment
 * variables, as env(1) does, and a word <FILE anywhere makes FILE the command's
 * standard input.  Blank lines and lines starting with # are skipped.
 * Each run gets TIMEIT_MAIN_NS_FILE=PATH in its environment: a program linked
 * with bench/mainwrap.c writes there how long its main() took, and that time
 * is kept beside the process's wall time (0 when nothing was written).
 * SUMMARY.tsv: "name  median_ns  min_ns  max_ns  runs  failures  median_main_ns  median_cpu_ns"
 * per command (cpu: user + system time of the process and the children it waited for).
 * RAW.tsv: "name  round  wall_ns  user_ns  sys_ns  status  main_ns" per run.
 * A command's stdout and stderr go to /dev/null; a non-zero exit is counted
 * as a failure (its time is still kept) and named on stderr.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CMDS 64
#define MAX_WORDS 64
#define MAX_ROUNDS 1000

struct cmd {
	char *name;
	char *words[MAX_WORDS + 1]; /* env assignments first, then argv; NULL-terminated */
	int nenv;                   /* how many leading words are NAME=VALUE */
	char *stdin_path;           /* from a word <FILE, or NULL: stdin is inherited */
	uint64_t wall_ns[MAX_ROUNDS];
	uint64_t cpu_ns[MAX_ROUNDS]; /* user + system time */
	uint64_t main_ns[MAX_ROUNDS]; /* what the program reported for main(), or 0 */
	int runs;
	int failures;
};

/* Every command read from CMDFILE. */
static struct cmd cmds[MAX_CMDS];
static int ncmds;
/* Where a run reports its main() time: "TIMEIT_MAIN_NS_FILE=path", for putenv. */
static char main_ns_env[4200];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static int parse_line(char *line, struct cmd *c)
{
	char *tab = strchr(line, '\t');
	char *save, *w;
	int n = 0;

	if (!tab)
		return -1;
	*tab = '\0';
	c->name = strdup(line);
	for (w = strtok_r(tab + 1, " \t\n", &save); w && n < MAX_WORDS; w = strtok_r(NULL, " \t\n", &save)) {
		if (w[0] == '<' && w[1]) {
			c->stdin_path = strdup(w + 1);
			continue;
		}
		c->words[n] = strdup(w);
		if (n == c->nenv && strchr(w, '=') && w[0] != '=' && w[0] != '/' && w[0] != '.')
			c->nenv++;
		n++;
	}
	c->words[n] = NULL;
	return n > c->nenv ? 0 : -1;
}

static int read_cmds(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[8192];

	if (!f) {
		fprintf(stderr, "timeit: cannot open '%s'\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (ncmds == MAX_CMDS || parse_line(line, &cmds[ncmds]) < 0) {
			fprintf(stderr, "timeit: bad or too many commands in '%s'\n", path);
			fclose(f);
			return -1;
		}
		ncmds++;
	}
	fclose(f);
	return ncmds > 0 ? 0 : -1;
}

/* The main() time the last run wrote to TIMEIT_MAIN_NS_FILE (removing the file), or 0. */
static uint64_t take_main_ns(void)
{
	const char *path = strchr(main_ns_env, '=') + 1;
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	unlink(path);
	return v;
}

/* Runs `c` once; returns its wall time and fills user/sys time and exit status. */
static uint64_t run_once(const struct cmd *c, uint64_t *user_ns, uint64_t *sys_ns, int *status)
{
	struct rusage ru;
	uint64_t t0 = now_ns(), t1;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		if (c->stdin_path) {
			int in = open(c->stdin_path, O_RDONLY);

			if (in < 0)
				_exit(126);
			dup2(in, 0);
		}
		putenv(main_ns_env);
		for (int i = 0; i < c->nenv; i++)
			putenv(c->words[i]);
		execvp(c->words[c->nenv], c->words + c->nenv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, status, 0, &ru) < 0) {
		*status = -1;
		return 0;
	}
	t1 = now_ns();
	*user_ns = tv_ns(ru.ru_utime);
	*sys_ns = tv_ns(ru.ru_stime);
	return t1 - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void shuffle(int *order, int n, unsigned *seed)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rand_r(seed) % (unsigned)(i + 1)), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

static void run_round(int round, int keep, FILE *raw, unsigned *seed)
{
	int order[MAX_CMDS];

	for (int i = 0; i < ncmds; i++)
		order[i] = i;
	shuffle(order, ncmds, seed);
	for (int k = 0; k < ncmds; k++) {
		struct cmd *c = &cmds[order[k]];
		uint64_t user_ns = 0, sys_ns = 0;
		int status;
		uint64_t wall_ns = run_once(c, &user_ns, &sys_ns, &status);
		uint64_t main_ns = take_main_ns();
		int bad = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);

		if (bad)
			fprintf(stderr, "timeit: '%s' failed (status %d)\n", c->name, status);
		if (!keep)
			continue;
		c->failures += bad;
		c->main_ns[c->runs] = main_ns;
		c->cpu_ns[c->runs] = user_ns + sys_ns;
		c->wall_ns[c->runs++] = wall_ns;
		if (raw)
			fprintf(raw, "%s\t%d\t%llu\t%llu\t%llu\t%d\t%llu\n", c->name, round,
				(unsigned long long)wall_ns, (unsigned long long)user_ns,
				(unsigned long long)sys_ns, status, (unsigned long long)main_ns);
	}
}

/* Sorts v[0..n) and returns its median. */
static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void print_summary(void)
{
	for (int i = 0; i < ncmds; i++) {
		struct cmd *c = &cmds[i];
		int n = c->runs;
		uint64_t med = median(c->wall_ns, n), med_main = median(c->main_ns, n);
		uint64_t med_cpu = median(c->cpu_ns, n);

		printf("%s\t%llu\t%llu\t%llu\t%d\t%d\t%llu\t%llu\n", c->name, (unsigned long long)med,
		       (unsigned long long)c->wall_ns[0], (unsigned long long)c->wall_ns[n - 1], n,
		       c->failures, (unsigned long long)med_main, (unsigned long long)med_cpu);
	}
}

int main(int argc, char **argv)
{
	int warmup = 1, rounds = 5, opt;
	const char *raw_path = NULL;
	unsigned seed = 12345;
	FILE *raw = NULL;

	while ((opt = getopt(argc, argv, "w:r:o:")) != -1) {
		switch (opt) {
		case 'w': warmup = atoi(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'o': raw_path = optarg; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || rounds < 1 || rounds > MAX_ROUNDS || warmup < 0)
		goto usage;
	if (read_cmds(argv[optind]) < 0)
		return 2;
	snprintf(main_ns_env, sizeof(main_ns_env), "TIMEIT_MAIN_NS_FILE=%s/timeit-main-ns.%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	if (raw_path && !(raw = fopen(raw_path, "w"))) {
		fprintf(stderr, "timeit: cannot write '%s'\n", raw_path);
		return 2;
	}
	for (int r = 0; r < warmup + rounds; r++)
		run_round(r - warmup, r >= warmup, raw, &seed);
	if (raw)
		fclose(raw);
	print_summary();
	return 0;
usage:
	fprintf(stderr, "usage: timeit [-w WARMUP] [-r ROUNDS] [-o RAW.tsv] CMDFILE\n");
	return 1;
}
