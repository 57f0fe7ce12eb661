// SPDX-License-Identifier: GPL-2.0
/* dyndbg: command-line front-end of the kernel's dynamic debug. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyndbg.h"

bool json_output;
bool dry_run;

struct command {
	const char *name;
	const char *usage;
	int (*fn)(int argc, char **argv);
};

static int do_on(int argc, char **argv)
{
	return do_set(argc, argv, "+p");
}

static int do_off(int argc, char **argv)
{
	return do_set(argc, argv, "-p");
}

static int do_set_cmd(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("set: QUERY and FLAGS are needed");
	return do_set(argc - 1, argv, argv[argc - 1]);
}

static int do_help(int argc, char **argv);

static const struct command commands[] = {
	{ "list", "list [--enabled] [QUERY]", do_list },
	{ "on", "on [--dry-run] QUERY", do_on },
	{ "off", "off [--dry-run] QUERY", do_off },
	{ "set", "set [--dry-run] QUERY FLAGS", do_set_cmd },
	{ "save", "save [FILE]", do_save },
	{ "restore", "restore [--dry-run] FILE", do_restore },
	{ "diff", "diff FILE", do_diff },
	{ "top", "top [-n N] [--interval S] [--once]", do_top },
	{ "trace", "trace [QUERY]", do_trace },
	{ "run", "run QUERY FLAGS -- COMMAND [ARGS]", do_run },
	{ "persist",
	  "persist QUERY FLAGS --module M [--boot] [--dir DIR] | --list | --remove M",
	  do_persist },
	{ "doctor", "doctor [QUERY]", do_doctor },
	{ "help", "help [COMMAND]", do_help },
};

#define NR_COMMANDS	ARRAY_SIZE(commands)

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: dyndbg [OPTIONS] COMMAND [ARGS]\n\n"
		"OPTIONS: -j|--json  -n|--dry-run  -h|--help  -V|--version\n\n"
		"COMMANDS:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  dyndbg %s\n", commands[i].usage);
	fprintf(f, "\nQUERY: a dynamic debug query without its flags, e.g.\n"
		"  'module usbcore func hub_*'\n"
		"FLAGS: [+-=] followed by letters pmfsltdTr or _.\n"
		"Environment: DYNDBG_DIR (the control directory), DYNDBG_MODPROBE_DIR.\n");
}

static int do_help(int argc, char **argv)
{
	size_t i;

	if (argc < 1) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[0], commands[i].name)) {
			printf("Usage: dyndbg %s\n", commands[i].usage);
			return 0;
		}
	}
	return usage_error("help: unknown command '%s'", argv[0]);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("dyndbg: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return 2;
}

/* The arguments as one space-separated string (caller frees). */
char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/*
 * Options may come before the command or among its arguments; after the
 * command top, -n is top's own (the number of sites shown).
 */
static int take_options(int *argc, char **argv)
{
	int i, j = 0;
	bool rest = false, top = false;

	for (i = 0; i < *argc; i++) {
		const char *a = argv[i];

		if (!rest && !strcmp(a, "--")) {
			rest = true;	/* left for run to find */
		} else if (!rest && (!strcmp(a, "-j") || !strcmp(a, "--json"))) {
			json_output = true;
			continue;
		} else if (!rest && ((!top && !strcmp(a, "-n")) ||
				     !strcmp(a, "--dry-run"))) {
			dry_run = true;
			continue;
		}
		if (!j)
			top = !strcmp(a, "top");
		argv[j++] = argv[i];
	}
	*argc = j;
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	argc--;
	argv++;
	take_options(&argc, argv);
	if (argc < 1) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "-V") || !strcmp(argv[0], "--version")) {
		printf("dyndbg 1.0\n");
		return 0;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[0], commands[i].name)) {
			if (argc > 1 && (!strcmp(argv[1], "help") ||
					 !strcmp(argv[1], "--help")))
				return do_help(1, argv);
			return commands[i].fn(argc - 1, argv + 1);
		}
	}
	return usage_error("unknown command '%s' (try 'dyndbg help')", argv[0]);
}
