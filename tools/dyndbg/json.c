// SPDX-License-Identifier: GPL-2.0
/* JSON output of listings. */
#include <stdio.h>
#include <string.h>

#include "dyndbg.h"

void json_string(const char *s, size_t n)
{
	size_t i;

	putchar('"');
	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_field(const char *name, const char *value, bool comma)
{
	printf("\"%s\":", name);
	json_string(value, strlen(value));
	if (comma)
		putchar(',');
}

/* The sites as an array of objects, one per line. */
void json_sites(const struct site *s, int n)
{
	const char *colon;
	int i;

	printf("[");
	for (i = 0; i < n; i++) {
		colon = strrchr(s[i].where, ':');
		printf("%s\n{\"file\":", i ? "," : "");
		json_string(s[i].where, colon ? (size_t)(colon - s[i].where) :
			    strlen(s[i].where));
		printf(",\"line\":%s,", colon ? colon + 1 : "0");
		json_field("module", s[i].module, true);
		json_field("function", s[i].func, true);
		json_field("flags", s[i].flags, true);
		if (s[i].hits)
			printf("\"hits\":%lu,", s[i].hits);
		json_field("format", s[i].format, false);
		putchar('}');
	}
	printf("\n]\n");
}
