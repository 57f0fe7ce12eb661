/* SPDX-License-Identifier: GPL-2.0 */
/* Shared declarations of the dyndbg command-line front-end. */
#ifndef DYNDBG_H
#define DYNDBG_H

#include <stdbool.h>
#include <stddef.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A growable text buffer. */
struct text {
	char *buf;
	size_t len;
	size_t size;
};

/* One site line of a control listing, split in place. */
struct site {
	char *where;	/* file:lineno, with module and func the identity */
	char *module;
	char *func;
	char *flags;	/* letters after '=' */
	char *format;	/* the quoted format and what follows */
	unsigned long hits;
};

extern bool json_output;
extern bool dry_run;

/* control.c: the kernel's files */
const char *ddebug_dir(void);
int ddebug_read(const char *name, struct text *t);
int ddebug_write(const char *name, const char *query);
int ddebug_preview(const char *query, struct text *t);
int sites_split(struct text *t, struct site **sites, bool hits);
void text_free(struct text *t);
int text_append(struct text *t, const char *s, size_t n);
int read_file(const char *path, struct text *t);

/* list.c */
int kernel_error(const char *what, int err);
int query_sites(const char *query, const char *flags, struct text *t,
		struct site **sites);

/* state.c */
int write_lines(const char *text);
int site_line(struct text *t, const struct site *s, const char *flags);

/* json.c */
void json_string(const char *s, size_t n);
void json_sites(const struct site *s, int n);

/* commands */
int do_list(int argc, char **argv);
int do_set(int argc, char **argv, const char *flags);
int do_save(int argc, char **argv);
int do_restore(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_top(int argc, char **argv);
int do_trace(int argc, char **argv);
int do_run(int argc, char **argv);
int do_persist(int argc, char **argv);
int do_doctor(int argc, char **argv);

char *join_args(int argc, char **argv);
int usage_error(const char *fmt, ...);

#endif
