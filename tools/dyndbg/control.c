// SPDX-License-Identifier: GPL-2.0
/* Access to the kernel's dynamic debug files: control, enabled, hits, preview. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dyndbg.h"

#define CHUNK	(1024 * 1024)

static const char *const dirs[] = {
	"/sys/kernel/debug/dynamic_debug",
	"/proc/dynamic_debug",
};

/* The directory holding control; $DYNDBG_DIR overrides it. */
const char *ddebug_dir(void)
{
	const char *env = getenv("DYNDBG_DIR");
	char path[256];
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/control", dirs[i]);
		if (access(path, F_OK) == 0)
			return dirs[i];
	}
	return dirs[1];
}

/* Make room for @n more bytes and a NUL. */
static int text_reserve(struct text *t, size_t n)
{
	char *buf;

	if (t->len + n + 1 > t->size) {
		size_t size = t->size ? t->size : CHUNK;

		while (size < t->len + n + 1)
			size *= 2;
		buf = realloc(t->buf, size);
		if (!buf)
			return -ENOMEM;
		t->buf = buf;
		t->size = size;
	}
	return 0;
}

int text_append(struct text *t, const char *s, size_t n)
{
	if (text_reserve(t, n))
		return -ENOMEM;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
	return 0;
}

void text_free(struct text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* Read all of @fd into @t, a megabyte per read(). */
static int read_fd(int fd, struct text *t)
{
	ssize_t n;

	for (;;) {
		if (text_reserve(t, CHUNK))
			return -ENOMEM;
		n = read(fd, t->buf + t->len, t->size - t->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		t->len += n;
	}
	t->buf[t->len] = '\0';
	return 0;
}

int read_file(const char *path, struct text *t)
{
	int fd = open(path, O_RDONLY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = read_fd(fd, t);
	close(fd);
	return ret;
}

int ddebug_read(const char *name, struct text *t)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", ddebug_dir(), name);
	return read_file(path, t);
}

static int write_all(int fd, const char *s, size_t len)
{
	ssize_t n = write(fd, s, len);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int ddebug_write(const char *name, const char *query)
{
	char path[512];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", ddebug_dir(), name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, query, strlen(query));
	close(fd);
	return ret;
}

/* The sites @query selects, with the flags they would get. */
int ddebug_preview(const char *query, struct text *t)
{
	char path[512];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/preview", ddebug_dir());
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, query, strlen(query));
	if (!ret)
		ret = read_fd(fd, t);
	close(fd);
	return ret;
}

/* End @str at the first @sep; what follows @sep, or NULL without one. */
static char *cut(char *str, const char *sep)
{
	char *p = str ? strstr(str, sep) : NULL;

	if (!p)
		return NULL;
	*p = '\0';
	return p + strlen(sep);
}

/*
 * Split "file:line [mod]func =flags \"format\"..." in place.  With @hits,
 * each line starts with its count.
 */
static int site_parse(char *line, struct site *s, bool hits)
{
	char *p;

	memset(s, 0, sizeof(*s));
	if (hits) {
		s->hits = strtoul(line, &p, 10);
		if (*p != ' ')
			return -1;
		line = p + 1;
	}
	s->where = line;
	s->module = cut(line, " [");
	s->func = cut(s->module, "]");
	s->flags = cut(s->func, " =");
	s->format = cut(s->flags, " ");
	return s->format ? 0 : -1;
}

/* Split @t into sites; comment lines are skipped.  Returns the count. */
int sites_split(struct text *t, struct site **sites, bool hits)
{
	size_t cap = 1024;
	int n = 0;
	char *line, *next;
	struct site *s = malloc(cap * sizeof(*s));

	if (!s || !t->buf)
		return s ? 0 : -ENOMEM;
	for (line = t->buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || !*line)
			continue;
		if ((size_t)n == cap) {
			struct site *bigger = realloc(s, 2 * cap * sizeof(*s));

			if (!bigger) {
				free(s);
				return -ENOMEM;
			}
			s = bigger;
			cap *= 2;
		}
		if (site_parse(line, &s[n], hits) == 0)
			n++;
	}
	*sites = s;
	return n;
}
