// SPDX-License-Identifier: GPL-2.0
/*
 * ddbench: the in-guest timer of "make bench". Built static on the host
 * (gcc -static -O2) and run from the bench initramfs. Every figure is
 * clock_gettime(CLOCK_MONOTONIC) around the system calls being measured,
 * printed in nanoseconds, one line per metric:
 *
 *   sample NAME NS NS ...	one value per repetition (warm-up dropped)
 *   value NAME N		a single count (bytes, interrupts)
 *
 * The host computes medians and spreads. Any failing system call ends the
 * program with a message on stderr and exit status 1. DDBENCH_WARMUP=0 in
 * the environment drops the warm-up round (for work the caller has just
 * warmed up itself).
 *
 * Usage:
 *   ddbench query CTL REPS NAME QUERY [NAME2 QUERY2]
 *	write QUERY (then QUERY2) to CTL, REPS times after one warm-up round
 *   ddbench read FILE REPS NAME
 *	read all of FILE, REPS times after one warm-up read; also prints
 *	"value NAME_bytes N"
 *   ddbench ipi CTL NAME QUERY
 *	write QUERY once; "value NAME N" is the change of the CAL (function
 *	call interrupts) line of /proc/interrupts summed over the CPUs
 *   ddbench load KO MODNAME REPS
 *	finit_module() then delete_module(), REPS times after one warm-up
 *   ddbench lockwait CTL KO MODNAME REPS DELAY_MS QUERY [BYTES]
 *	per repetition: load KO; one child writes QUERY repeated up to BYTES
 *	(default and at most 4095) in one write() to CTL; DELAY_MS later a
 *	second child opens CTL and reads one byte and a third unloads
 *	MODNAME; prints the latency of each
 *   ddbench firstlookup CTL KO MODNAME REPS QUERY
 *	per repetition: load KO; a child opens CTL and reads one byte in a
 *	loop while QUERY (the module's first lookup of a literal name) is
 *	written once; prints the write's time ("first_writer") and the
 *	longest open+read of the reader that ended after the write began
 *	("first_reader"); then unload MODNAME
 *   ddbench exec NAME REPS COMMAND [ARG...]
 *	run COMMAND with its standard output on /dev/null and wait for it,
 *	REPS times after one warm-up run; a run that fails ends the bench
 *   ddbench spin NAME REPS
 *	a fixed loop of user-space arithmetic, REPS times after one warm-up:
 *	no system call, so it measures how fast the host ran the guest
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "ddbench: %s %s: %s\n", what, arg ? arg : "",
		strerror(errno));
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void print_samples(const char *name, const int64_t *v, int n)
{
	int i;

	printf("sample %s", name);
	for (i = 0; i < n; i++)
		printf(" %lld", (long long)v[i]);
	printf("\n");
	fflush(stdout);
}

/* Write one query with one write(); return how long the write took. */
static int64_t timed_write(const char *ctl, const char *q)
{
	size_t len = strlen(q);
	int64_t t0, t1;
	ssize_t n;
	int fd;

	fd = open(ctl, O_WRONLY);
	if (fd < 0)
		die("open", ctl);
	t0 = now_ns();
	n = write(fd, q, len);
	t1 = now_ns();
	if (n != (ssize_t)len)
		die("write", q);
	close(fd);
	return t1 - t0;
}

/* The first round to keep: -1 runs one warm-up round first. */
static int first_round(void)
{
	const char *w = getenv("DDBENCH_WARMUP");

	return w && !atoi(w) ? 0 : -1;
}

static int cmd_query(int argc, char **argv)
{
	const char *ctl = argv[0];
	int reps = atoi(argv[1]), pairs = argc >= 6 ? 2 : 1, r, p;
	int64_t *v[2];

	for (p = 0; p < pairs; p++)
		v[p] = calloc(reps, sizeof(int64_t));
	for (r = first_round(); r < reps; r++) {
		for (p = 0; p < pairs; p++) {
			int64_t t = timed_write(ctl, argv[3 + 2 * p]);

			if (r >= 0)
				v[p][r] = t;
		}
	}
	for (p = 0; p < pairs; p++)
		print_samples(argv[2 + 2 * p], v[p], reps);
	return 0;
}

static int cmd_read(int argc, char **argv)
{
	const char *file = argv[0];
	int reps = atoi(argv[1]), r;
	static char buf[1 << 16];
	long long bytes = 0;
	int64_t *v = calloc(reps, sizeof(int64_t));

	for (r = first_round(); r < reps; r++) {
		int64_t t0 = now_ns();
		long long total = 0;
		ssize_t n;
		int fd = open(file, O_RDONLY);

		if (fd < 0)
			die("open", file);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		if (n < 0)
			die("read", file);
		close(fd);
		if (r >= 0)
			v[r] = now_ns() - t0;
		bytes = total;
	}
	print_samples(argv[2], v, reps);
	printf("value %s_bytes %lld\n", argv[2], bytes);
	return 0;
}

/* The CAL line of /proc/interrupts, summed over the CPUs. */
static long long cal_count(void)
{
	static char buf[1 << 16];
	long long sum = 0;
	char *line, *p, *end;
	ssize_t n;
	int fd;

	fd = open("/proc/interrupts", O_RDONLY);
	if (fd < 0)
		die("open", "/proc/interrupts");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read", "/proc/interrupts");
	buf[n] = 0;
	line = strstr(buf, "CAL:");
	if (!line) {
		errno = ENOENT;
		die("no CAL line in", "/proc/interrupts");
	}
	p = line + 4;
	for (;;) {
		long long x = strtoll(p, &end, 10);

		if (end == p)
			break;
		sum += x;
		p = end;
	}
	return sum;
}

static int cmd_ipi(int argc, char **argv)
{
	long long before, after;
	int64_t t;

	before = cal_count();
	t = timed_write(argv[0], argv[2]);
	after = cal_count();
	printf("value %s %lld\n", argv[1], after - before);
	printf("value %s_ns %lld\n", argv[1], (long long)t);
	return 0;
}

static void load(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open", ko);
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		die("finit_module", ko);
	close(fd);
}

static void unload(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		die("delete_module", name);
}

static int cmd_load(int argc, char **argv)
{
	int reps = atoi(argv[2]), r;
	int64_t *in = calloc(reps, sizeof(int64_t));
	int64_t *out = calloc(reps, sizeof(int64_t));

	for (r = first_round(); r < reps; r++) {
		int64_t t0 = now_ns(), t1, t2;

		load(argv[0]);
		t1 = now_ns();
		unload(argv[1]);
		t2 = now_ns();
		if (r >= 0) {
			in[r] = t1 - t0;
			out[r] = t2 - t1;
		}
	}
	print_samples("insmod", in, reps);
	print_samples("rmmod", out, reps);
	return 0;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void child_done(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "ddbench: the %s child failed\n", what);
		exit(1);
	}
}

static int cmd_lockwait(int argc, char **argv)
{
	const char *ctl = argv[0], *ko = argv[1], *name = argv[2];
	int reps = atoi(argv[3]), delay_ms = atoi(argv[4]), r;
	char batch[4096];
	int64_t *w = calloc(reps, sizeof(int64_t));
	int64_t *rd = calloc(reps, sizeof(int64_t));
	int64_t *rm = calloc(reps, sizeof(int64_t));
	int64_t *shared;
	size_t len = 0, qlen = strlen(argv[5]), max = sizeof(batch) - 1;
	int queries = 0;

	if (argc > 6 && (size_t)atoi(argv[6]) < max)
		max = atoi(argv[6]);
	while (len + qlen <= max) {
		memcpy(batch + len, argv[5], qlen);
		len += qlen;
		queries++;
	}
	batch[len] = 0;
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap", NULL);

	for (r = 0; r < reps; r++) {
		pid_t writer, reader, remover;
		int64_t start;

		load(ko);
		start = now_ns();
		writer = fork();
		if (writer == 0) {
			shared[0] = timed_write(ctl, batch);
			_exit(0);
		}
		sleep_until(start + (int64_t)delay_ms * 1000000);
		reader = fork();
		if (reader == 0) {
			int64_t t0 = now_ns();
			char c;
			int fd = open(ctl, O_RDONLY);

			if (fd < 0 || read(fd, &c, 1) != 1)
				die("read one byte of", ctl);
			close(fd);
			shared[1] = now_ns() - t0;
			_exit(0);
		}
		remover = fork();
		if (remover == 0) {
			int64_t t0 = now_ns();

			unload(name);
			shared[2] = now_ns() - t0;
			_exit(0);
		}
		child_done(writer, "writer");
		child_done(reader, "reader");
		child_done(remover, "rmmod");
		w[r] = shared[0];
		rd[r] = shared[1];
		rm[r] = shared[2];
	}
	printf("value lock_batch_bytes %zu\n", len);
	printf("value lock_batch_queries %d\n", queries);
	print_samples("lock_writer", w, reps);
	print_samples("lock_reader", rd, reps);
	print_samples("lock_rmmod", rm, reps);
	return 0;
}

static int cmd_firstlookup(int argc, char **argv)
{
	const char *ctl = argv[0], *ko = argv[1], *name = argv[2];
	int reps = atoi(argv[3]), r;
	int64_t *w = calloc(reps, sizeof(int64_t));
	int64_t *rd = calloc(reps, sizeof(int64_t));
	int64_t *shared;

	/* shared[0]: reader running, [1]: write begun, [2]: write done, [3]: wait */
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || !w || !rd)
		die("allocate", NULL);

	for (r = 0; r < reps; r++) {
		pid_t reader;

		load(ko);
		memset(shared, 0, 4 * sizeof(*shared));
		reader = fork();
		if (reader == 0) {
			int64_t worst = 0, t0, d;
			char c;
			int fd;

			__atomic_store_n(&shared[0], 1, __ATOMIC_SEQ_CST);
			while (!__atomic_load_n(&shared[2], __ATOMIC_SEQ_CST)) {
				t0 = now_ns();
				fd = open(ctl, O_RDONLY);
				if (fd < 0 || read(fd, &c, 1) != 1)
					die("read one byte of", ctl);
				close(fd);
				d = now_ns() - t0;
				if (__atomic_load_n(&shared[1], __ATOMIC_SEQ_CST) &&
				    d > worst)
					worst = d;
			}
			shared[3] = worst;
			_exit(0);
		}
		while (!__atomic_load_n(&shared[0], __ATOMIC_SEQ_CST))
			sched_yield();
		__atomic_store_n(&shared[1], 1, __ATOMIC_SEQ_CST);
		w[r] = timed_write(ctl, argv[4]);
		__atomic_store_n(&shared[2], 1, __ATOMIC_SEQ_CST);
		child_done(reader, "reader");
		rd[r] = shared[3];
		unload(name);
	}
	print_samples("first_writer", w, reps);
	print_samples("first_reader", rd, reps);
	return 0;
}

/* Run @argv to its end, its output thrown away; return how long it took. */
static int64_t timed_run(char **argv)
{
	int64_t t0 = now_ns();
	pid_t pid = fork();
	int st, fd;

	if (pid < 0)
		die("fork", argv[0]);
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "ddbench: %s failed\n", argv[0]);
		exit(1);
	}
	return now_ns() - t0;
}

static int cmd_exec(int argc, char **argv)
{
	int reps = atoi(argv[1]), r;
	int64_t *v = calloc(reps, sizeof(int64_t));

	for (r = first_round(); r < reps; r++) {
		int64_t t = timed_run(argv + 2);

		if (r >= 0)
			v[r] = t;
	}
	print_samples(argv[0], v, reps);
	return 0;
}

/* A fixed amount of guest work with no system call in it. */
static int cmd_spin(int argc, char **argv)
{
	int reps = atoi(argv[1]), r;
	int64_t *v = calloc(reps, sizeof(int64_t)), t0;
	volatile uint32_t sink;
	uint32_t x, i;

	for (r = first_round(); r < reps; r++) {
		t0 = now_ns();
		for (x = 1, i = 0; i < 20000000; i++)
			x = x * 1664525 + 1013904223;
		sink = x;
		if (r >= 0)
			v[r] = now_ns() - t0;
	}
	(void)sink;
	print_samples(argv[0], v, reps);
	return 0;
}

static const struct {
	const char *name;
	int args;	/* at least */
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "query", 4, cmd_query },
	{ "read", 3, cmd_read },
	{ "ipi", 3, cmd_ipi },
	{ "load", 3, cmd_load },
	{ "lockwait", 6, cmd_lockwait },
	{ "firstlookup", 5, cmd_firstlookup },
	{ "spin", 2, cmd_spin },
	{ "exec", 3, cmd_exec },
};

int main(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name) && argc - 2 >= cmds[i].args)
			return cmds[i].fn(argc - 2, argv + 2);
	fprintf(stderr, "usage: ddbench %s\n",
		"query|read|ipi|load|lockwait|firstlookup|spin|exec ... (see its source)");
	return 2;
}
