// SPDX-License-Identifier: GPL-2.0
/* run and trace: change sites for a while, then put back what was there. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dyndbg.h"

static atomic_int stop_signal;
static pid_t child;

static void on_signal(int sig)
{
	stop_signal = sig;
	if (child > 0)
		kill(child, sig);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The listing lines that put the sites of @query back as they are now. */
static int remember(const char *query, struct text *undo)
{
	struct text t = {};
	struct site *s = NULL;
	int i, n, ret = 0;

	n = query_sites(query, "+_", &t, &s);
	if (n < 0)
		return n;
	for (i = 0; i < n && !ret; i++)
		ret = site_line(undo, &s[i], s[i].flags);
	free(s);
	text_free(&t);
	return ret;
}

/* Apply "@query @flags", keeping in @undo how to undo it. */
static int switch_on(const char *query, const char *flags, struct text *undo)
{
	char *q;
	int ret;

	ret = remember(query, undo);
	if (ret)
		return kernel_error("query", ret);
	q = malloc(strlen(query) + strlen(flags) + 2);
	if (!q)
		return 1;
	sprintf(q, "%s %s", query, flags);
	ret = ddebug_write("control", q);
	free(q);
	return ret ? kernel_error("control", ret) : 0;
}

static int put_back(struct text *undo)
{
	int ret = undo->buf ? write_lines(undo->buf) : 0;

	if (ret)
		return kernel_error("restoring the flags", ret);
	return 0;
}

int do_run(int argc, char **argv)
{
	struct text undo = {};
	char *query;
	int sep, status, ret;

	for (sep = 0; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	if (sep < 2 || sep + 1 >= argc)
		return usage_error("run: QUERY FLAGS -- COMMAND [ARGS] is needed");
	query = join_args(sep - 1, argv);
	if (!query)
		return 1;
	catch_signals();
	ret = switch_on(query, argv[sep - 1], &undo);
	free(query);
	if (ret)
		return ret;
	child = fork();
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[sep + 1], argv + sep + 1);
		fprintf(stderr, "dyndbg: %s: %s\n", argv[sep + 1], strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		ret = 1;
	} else {
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
		ret = WIFEXITED(status) ? WEXITSTATUS(status) :
		      128 + WTERMSIG(status);
	}
	if (put_back(&undo))
		ret = ret ? ret : 1;
	text_free(&undo);
	return ret;
}

static const char *const tracefs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static const char *tracing_dir(void)
{
	char path[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs); i++) {
		snprintf(path, sizeof(path), "%s/events/dyndbg/enable", tracefs[i]);
		if (access(path, F_OK) == 0)
			return tracefs[i];
	}
	return NULL;
}

/* The event switch's state: "0", "1" or "X" (mixed); returns 0 or -errno. */
static int events_get(const char *dir, char *state, size_t size)
{
	struct text t = {};
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/events/dyndbg/enable", dir);
	ret = read_file(path, &t);
	if (!ret)
		snprintf(state, size, "%c", t.buf && *t.buf ? *t.buf : '0');
	text_free(&t);
	return ret;
}

/* Switch every dyndbg event to @value ("0" or "1"). */
static int events_set(const char *dir, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/events/dyndbg/enable", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int do_trace(int argc, char **argv)
{
	struct text undo = {};
	char state[4], path[256], buf[4096];
	const char *dir = tracing_dir();
	char *query;
	ssize_t n;
	int fd, ret;

	if (!dir) {
		fprintf(stderr, "%s\n",
			"dyndbg: trace: no dyndbg events (tracefs mounted? CONFIG_TRACING?)");
		return 1;
	}
	query = join_args(argc, argv);
	if (!query)
		return 1;
	ret = events_get(dir, state, sizeof(state));
	if (ret) {
		free(query);
		return kernel_error("trace events", ret);
	}
	catch_signals();
	ret = switch_on(*query ? query : "module *", "+T", &undo);
	free(query);
	if (ret)
		return ret;
	ret = events_set(dir, "1");
	snprintf(path, sizeof(path), "%s/trace_pipe", dir);
	fd = ret ? -1 : open(path, O_RDONLY);
	if (fd >= 0) {
		while (!stop_signal && (n = read(fd, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, n, stdout) != (size_t)n ||
			    fflush(stdout))
				break;
		close(fd);
	} else {
		ret = kernel_error("trace_pipe", ret ? ret : -errno);
	}
	/* A mixed state cannot be written back; leave it to the user. */
	if (*state != 'X')
		events_set(dir, state);
	if (put_back(&undo))
		ret = 1;
	text_free(&undo);
	return ret;
}
