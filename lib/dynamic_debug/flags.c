// SPDX-License-Identifier: GPL-2.0
/*
 * The flag table of dynamic debug, and the conversions between flag bits
 * and their letters.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/build_bug.h>
#include <linux/kernel.h>

#include <kunit/visibility.h>

#include "ddebug.h"

/*
 * The flag table: letters, what they do and what they need, indexed by
 * bit.
 */
const struct ddebug_flag_info ddebug_flag_info[DDEBUG_NR_FLAGS] = {
	[DDEBUG_BIT_PRINT]	= { 'p', "print the message" },
	[DDEBUG_BIT_MODNAME]	= { 'm', "prefix the module name" },
	[DDEBUG_BIT_FUNCNAME]	= { 'f', "prefix the function name" },
	[DDEBUG_BIT_SOURCE]	= { 's', "prefix the source file name" },
	[DDEBUG_BIT_LINENO]	= { 'l', "prefix the line number" },
	[DDEBUG_BIT_TID]	= { 't', "prefix the thread id" },
	[DDEBUG_BIT_STACK]	= { 'd', "dump the stack after the message" },
	[DDEBUG_BIT_TRACE]	= { 'T', "record the message as a trace event",
				    IS_ENABLED(CONFIG_TRACING) ? NULL :
				    "CONFIG_TRACING" },
	[DDEBUG_BIT_RATELIMIT]	= { 'r', "limit the messages to a burst per interval" },
};
EXPORT_SYMBOL_IF_KUNIT(ddebug_flag_info);

/* Call sites test these bits by their public names; they must agree. */
static_assert(DDEBUG_FLAG(PRINT) == _DPRINTK_FLAGS_PRINT);
static_assert(DDEBUG_FLAG(TRACE) == _DPRINTK_FLAGS_TRACE);
/* The descriptor keeps room for this many flags. */
static_assert(DDEBUG_NR_FLAGS <= _DPRINTK_FLAGS_BITS);

/**
 * ddebug_flag_from_letter - look up a flag letter
 * @letter: a letter from a query
 *
 * Return: the flag's bit number, or -EINVAL if @letter names no flag.
 * The "no flags" letter '_' is not a flag; callers handle it.
 */
int ddebug_flag_from_letter(char letter)
{
	int bit;

	for (bit = 0; bit < DDEBUG_NR_FLAGS; bit++)
		if (ddebug_flag_info[bit].letter == letter)
			return bit;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_flag_from_letter);

/**
 * ddebug_flags_describe - spell flags as the control file shows them
 * @flags: flag bits
 * @buf: output buffer
 * @size: size of @buf; DDEBUG_FLAGS_BUFSZ is always enough
 *
 * Writes the letters of the set flags in table order, or "_" when none is
 * set, without the leading '='.
 *
 * Return: @buf.
 */
char *ddebug_flags_describe(unsigned int flags, char *buf, size_t size)
{
	size_t n = 0;
	int bit;

	for (bit = 0; bit < DDEBUG_NR_FLAGS && n + 1 < size; bit++)
		if (flags & (1U << bit))
			buf[n++] = ddebug_flag_info[bit].letter;
	if (!n && size > 1)
		buf[n++] = DDEBUG_NO_FLAGS_LETTER;
	if (size)
		buf[n] = '\0';
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_flags_describe);

/**
 * ddebug_flag_letters - the letters a flags word may hold
 * @buf: output buffer
 * @size: size of @buf; DDEBUG_FLAGS_BUFSZ is always enough
 *
 * Writes every flag letter in table order, then the "no flags" letter.
 */
void ddebug_flag_letters(char *buf, size_t size)
{
	size_t n = 0;
	int bit;

	for (bit = 0; bit < DDEBUG_NR_FLAGS && n + 2 < size; bit++)
		buf[n++] = ddebug_flag_info[bit].letter;
	buf[n++] = DDEBUG_NO_FLAGS_LETTER;
	buf[n] = '\0';
}

/**
 * ddebug_flag_missing - the first flag of a flags word that this kernel lacks
 * @word: a flags word
 *
 * Return: the flag's table row, or NULL if this kernel has every flag
 * that @word names.
 */
const struct ddebug_flag_info *ddebug_flag_missing(const char *word)
{
	int bit;

	for (; *word; word++) {
		bit = ddebug_flag_from_letter(*word);
		if (bit >= 0 && ddebug_flag_info[bit].missing)
			return &ddebug_flag_info[bit];
	}
	return NULL;
}

/**
 * ddebug_parse_flags - parse a flags word such as "+pmf", "-p" or "=_"
 * @word: the word
 * @mask: set to the bits a matching site keeps
 * @set: set to the bits then added
 *
 * '+' adds the letters' flags, '-' removes them, '=' sets exactly them.
 * '_' stands for no flag.  An operator alone is valid: "=" clears every
 * flag, "+" and "-" change nothing.  A flag this kernel lacks (see
 * &ddebug_flag_info.missing) may be removed, not set.
 *
 * Return: 0, -EINVAL if @word does not start with an operator or holds
 * a letter that names no flag, or -EOPNOTSUPP if it sets a flag that this
 * kernel lacks.
 */
int ddebug_parse_flags(const char *word, unsigned int *mask, unsigned int *set)
{
	unsigned int bits = 0;
	const char *c;
	int bit;

	if (!ddebug_is_flag_op(word[0]))
		return -EINVAL;
	for (c = word + 1; *c; c++) {
		if (*c == DDEBUG_NO_FLAGS_LETTER)
			continue;
		bit = ddebug_flag_from_letter(*c);
		if (bit < 0)
			return -EINVAL;
		bits |= 1U << bit;
	}
	if (word[0] != '-' && ddebug_flag_missing(word + 1))
		return -EOPNOTSUPP;

	switch (word[0]) {
	case '+':
		*mask = ~0U;
		*set = bits;
		break;
	case '-':
		*mask = ~bits;
		*set = 0;
		break;
	default:
		*mask = 0;
		*set = bits;
		break;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ddebug_parse_flags);
