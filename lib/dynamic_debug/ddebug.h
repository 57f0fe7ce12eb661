/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the dynamic debug core share: the flag table, the site
 * registry, parsed queries and their errors.
 */
#ifndef _LIB_DYNAMIC_DEBUG_DDEBUG_H
#define _LIB_DYNAMIC_DEBUG_DDEBUG_H

#include <linux/bits.h>
#include <linux/dynamic_debug.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/types.h>

/* The flag table: flags.c */

/*
 * Flag bits, numbered in the order their letters are printed.  Their
 * letters and descriptions are in ddebug_flag_info[] (flags.c), the one
 * table that parsing, printing and messages derive from.  The print flag
 * must be bit 0 and the trace flag bit 7: call sites test them as
 * _DPRINTK_FLAGS_ENABLED.  The letters pmfsltd come first, in the order
 * scripts that read the control file have always seen them; T and r follow.
 */
enum ddebug_flag_bit {
	DDEBUG_BIT_PRINT,
	DDEBUG_BIT_MODNAME,
	DDEBUG_BIT_FUNCNAME,
	DDEBUG_BIT_SOURCE,
	DDEBUG_BIT_LINENO,
	DDEBUG_BIT_TID,
	DDEBUG_BIT_STACK,
	DDEBUG_BIT_TRACE,
	DDEBUG_BIT_RATELIMIT,
	DDEBUG_NR_FLAGS
};

#define DDEBUG_FLAG(name)	BIT(DDEBUG_BIT_##name)

/* Flags that add text in front of the message. */
#define DDEBUG_DECORATIONS	(DDEBUG_FLAG(MODNAME) | DDEBUG_FLAG(FUNCNAME) | \
				 DDEBUG_FLAG(SOURCE) | DDEBUG_FLAG(LINENO) | \
				 DDEBUG_FLAG(TID))

/* The letter a user may give to mean "no flags". */
#define DDEBUG_NO_FLAGS_LETTER	'_'

/* Room for "=" plus every letter plus NUL. */
#define DDEBUG_FLAGS_BUFSZ	(DDEBUG_NR_FLAGS + 2)

/**
 * struct ddebug_flag_info - one row of the flag table
 * @letter: the letter used in queries and in the control file
 * @desc: what the flag does, for messages
 * @missing: the kernel option this kernel lacks for the flag, or NULL
 *	when the flag is available
 */
struct ddebug_flag_info {
	char letter;
	const char *desc;
	const char *missing;
};

extern const struct ddebug_flag_info ddebug_flag_info[DDEBUG_NR_FLAGS];

/* Whether @c starts a flags word: '+', '-' or '='. */
static __always_inline bool ddebug_is_flag_op(char c)
{
	return c == '+' || c == '-' || c == '=';
}

int ddebug_flag_from_letter(char letter);
char *ddebug_flags_describe(unsigned int flags, char *buf, size_t size);
void ddebug_flag_letters(char *buf, size_t size);
const struct ddebug_flag_info *ddebug_flag_missing(const char *word);
int ddebug_parse_flags(const char *word, unsigned int *mask,
		       unsigned int *set);

/* The locks and the verbose level: locks.c */

/*
 * ddebug_lock protects ddebug_tables (the registry list and every table on
 * it, including their class maps and indexes) and serialises all changes
 * of site flags and static keys.  Readers of the control file hold it
 * between seq_file start and stop, so module unloading waits for them.
 * Writers hold it for bounded work at a time (see apply.c).
 */
extern struct mutex ddebug_lock;
/*
 * ddebug_write_lock makes each writer's change whole: a text of queries
 * (control, boot and module parameters) or a class parameter's update is
 * applied under it, so that writers that run at once end as if one ran
 * after the other.  Taken before ddebug_lock; readers never take it.
 */
extern struct mutex ddebug_write_lock;

extern int ddebug_verbose;

/* Levels of dynamic_debug.verbose. */
#define DDEBUG_V_MODULES	1	/* module registration */
#define DDEBUG_V_SUMMARY	2	/* query summaries */
#define DDEBUG_V_PARSE		3	/* parsing */
#define DDEBUG_V_SITES		4	/* every changed site */

#define ddebug_vlog(level, fmt, ...)					\
do {									\
	if (ddebug_verbose >= (level))					\
		pr_info(fmt, ##__VA_ARGS__);				\
} while (0)

/* The registry of sites: sites.c */

/**
 * struct ddebug_run - consecutive sites of a table in one file and function
 * @first: index of the first site in the table
 * @count: number of sites
 */
struct ddebug_run {
	u32 first;
	u32 count;
};

/* A run in an order of the index, with the hash that order sorts by. */
struct ddebug_run_key {
	u32 hash;
	u32 run;
};

/**
 * struct ddebug_index - what finds a table's sites by function or file
 * @runs: the table's sites cut into runs, in site order
 * @by_function: the runs ordered by the hash of their function name;
 *	NULL until a query first looks a name up, one allocation with @by_file
 * @by_file: the runs ordered by the hash of their file base name
 * @nr_runs: number of runs
 * @module_hash: hash of the table's module name, which a query naming one
 *	module compares first
 *
 * The runs are cut when the table is added, the orders sorted under
 * ddebug_lock by the first lookup; neither changes afterwards.
 */
struct ddebug_index {
	struct ddebug_run *runs;
	struct ddebug_run_key *by_function;
	struct ddebug_run_key *by_file;
	u32 nr_runs;
	u32 module_hash;
};

/**
 * struct ddebug_table - the call sites of one module (or built-in module)
 * @link: entry in the registry list (or in a test's private list)
 * @mod_name: module name; for loadable modules the module's own name[]
 * @sites: first descriptor
 * @num_sites: number of descriptors
 * @maps: class maps declared by this module, or NULL
 * @num_maps: number of entries in @maps
 * @id: registration number, unique and increasing along the registry list
 * @index: runs of @sites by function and file
 * @keyless: sites are not patched through static keys (test tables);
 *	only their flags change, and no state is kept for them (stats.c)
 * @counts: hit counters of the sites, or NULL while none was enabled
 */
struct ddebug_table {
	struct list_head link;
	const char *mod_name;
	struct _ddebug *sites;
	unsigned int num_sites;
	const struct ddebug_class_map **maps;
	unsigned int num_maps;
	u64 id;
	struct ddebug_index index;
	bool keyless;
	struct ddebug_counts *counts;
};

extern struct list_head ddebug_tables;
/* Bumped under ddebug_lock whenever a table is added or removed. */
extern unsigned long ddebug_tables_gen;

/* The linker's bounds of the built-in sections. */
extern struct _ddebug __start___dyndbg[];
extern struct _ddebug __stop___dyndbg[];
extern struct ddebug_class_map __start___dyndbg_classes[];
extern struct ddebug_class_map __stop___dyndbg_classes[];
extern struct _ddebug_names __start___dyndbg_names[];
extern struct _ddebug_names __stop___dyndbg_names[];

/* Descriptor accessors: the only code that knows the descriptor layout. */
#define DDEBUG_FLAGS_MASK	((1U << _DPRINTK_FLAGS_BITS) - 1)

static inline unsigned int site_flags(const struct _ddebug *dp)
{
	return READ_ONCE(dp->bits) & DDEBUG_FLAGS_MASK;
}

/* Context: ddebug_lock held, for sites on the registry. */
static inline void site_flags_set(struct _ddebug *dp, unsigned int flags)
{
	WRITE_ONCE(dp->bits, (dp->bits & ~DDEBUG_FLAGS_MASK) | flags);
}

/* Class and line never change, but share the word the flags are in. */
static inline int site_class(const struct _ddebug *dp)
{
	return (READ_ONCE(dp->bits) >> _DPRINTK_FLAGS_BITS) &
	       _DPRINTK_CLASS_DFLT;
}

static inline bool site_has_class(const struct _ddebug *dp)
{
	return site_class(dp) != _DPRINTK_CLASS_DFLT;
}

static inline unsigned int site_lineno(const struct _ddebug *dp)
{
	return READ_ONCE(dp->bits) >> _DPRINTK_LINE_SHIFT;
}

/* A name at offset @off from the descriptor; "" before registration. */
static inline const char *site_name(const struct _ddebug *dp, s32 off)
{
	return off ? (const char *)dp + off : "";
}

static inline const char *site_modname(const struct _ddebug *dp)
{
	return site_name(dp, dp->modfile);
}

/* The source file as the compiler was given it; ddebug_site_file() trims it. */
static inline const char *site_raw_file(const struct _ddebug *dp)
{
	const char *modname = site_modname(dp);

	return dp->modfile ? modname + strlen(modname) + 1 : "";
}

static inline const char *site_function(const struct _ddebug *dp)
{
	return site_name(dp, dp->function);
}

static inline const char *site_format(const struct _ddebug *dp)
{
	return site_name(dp, dp->format);
}

/**
 * struct ddebug_iter - position of a walk over every registered site
 * @table: table of the current site, NULL at the end
 * @left: index of the current site in @table (the walk goes downwards)
 * @gen: ddebug_tables_gen when the walk started; a walk may resume after
 *	ddebug_lock was dropped only if the registry did not change
 */
struct ddebug_iter {
	struct ddebug_table *table;
	unsigned int left;
	unsigned long gen;
};

struct _ddebug *ddebug_iter_first(struct ddebug_iter *it);
struct _ddebug *ddebug_iter_next(struct ddebug_iter *it);

void ddebug_names_resolve(const struct _ddebug_names *names, unsigned int n);
const char *ddebug_site_file(const struct _ddebug *dp);
const char *ddebug_class_name(const struct ddebug_table *dt,
			      const struct _ddebug *dp);
int ddebug_class_id(const struct ddebug_table *dt, const char *name);
struct ddebug_table *ddebug_table_next(struct list_head *tables, u64 id);
bool ddebug_module_listed(struct list_head *tables, const char *pattern);
bool ddebug_core_ready(void);

int ddebug_tables_add_builtin(void);
void ddebug_tables_remove_all(void);
int ddebug_table_add(const char *mod_name, struct _ddebug *sites,
		     unsigned int n, struct ddebug_class_map *maps,
		     unsigned int num_maps);
void ddebug_table_remove(const char *mod_name);

/* State kept beside the sites: stats.c */

struct ddebug_counts;

bool ddebug_site_fire(const struct _ddebug *dp, unsigned int flags,
		      unsigned int *missed);
unsigned long ddebug_site_hits(const struct ddebug_table *dt,
			       const struct _ddebug *dp);
void ddebug_hits_reset(struct ddebug_table *dt);
/*
 * The flags a site keeps state for (its table's counters while it is
 * enabled, its rate limit with 'r'), and whose code changes with them: a
 * change of the others alone needs neither ddebug_state_prepare() nor
 * ddebug_state_release().
 */
#define DDEBUG_STATE_FLAGS	(_DPRINTK_FLAGS_ENABLED | DDEBUG_FLAG(RATELIMIT))
unsigned int ddebug_state_prepare(struct ddebug_table *dt,
				  const struct _ddebug *dp,
				  unsigned int newflags);
void ddebug_state_release(struct ddebug_table *dt, const struct _ddebug *dp,
			  unsigned int oldflags);
int ddebug_state_table_init(struct ddebug_table *dt);
void ddebug_state_table_free(struct ddebug_table *dt);

/* The index of a table: index.c */

/**
 * struct ddebug_runs - the runs of a table that a query visits
 * @order: the runs to visit at positions @pos..@end-1, or NULL to visit
 *	runs @pos..@end-1 themselves
 * @pos: next position
 * @end: end position
 * @name: the literal name the query looks up in each table's index, NULL
 *	to visit every run
 * @hash: the hash of @name
 * @by_file: @name is a file's base name, not a function's
 * @chosen: @name, @hash and @by_file are set; zero before the first table
 *	of a walk, so that a walk over many tables reads its query once
 */
struct ddebug_runs {
	const struct ddebug_run_key *order;
	u32 pos;
	u32 end;
	const char *name;
	u32 hash;
	bool by_file;
	bool chosen;
};

/* The run at position @pos of @runs. */
static inline u32 ddebug_runs_at(const struct ddebug_runs *runs, u32 pos)
{
	return runs->order ? runs->order[pos].run : pos;
}

int ddebug_index_build(struct ddebug_table *dt);
void ddebug_index_free(struct ddebug_table *dt);
size_t ddebug_index_bytes(const struct ddebug_table *dt);
u32 ddebug_name_hash(const char *name);
bool ddebug_name_is_literal(const char *pattern);
struct ddebug_query;
unsigned int ddebug_index_candidates(struct ddebug_table *dt,
				     const struct ddebug_query *q,
				     struct ddebug_runs *out);

/* Queries and their errors: query.c */

/**
 * struct ddebug_query - one parsed query
 * @file: file pattern, or NULL
 * @func: function pattern, or NULL
 * @module: module pattern, or NULL
 * @format: format substring (unescaped, may start with '^'), or NULL
 * @listed_format: the whole format as a listing line shows it (tab, CR
 *	and newline escaped, nothing else), or NULL
 * @class_name: class name, or NULL for "sites without a class"
 * @first_line: lowest line, 0 for no lower bound
 * @last_line: highest line, 0 for no upper bound
 * @mask: flag bits kept on a matching site
 * @set: flag bits then added to it
 * @class_id: class id to select, when @has_class_id
 * @has_class_id: select sites by @class_id rather than by @class_name
 * @replay: the query is a line of the control listing; its site must
 *	exist for the text to apply
 *
 * The strings point into the buffer that was parsed.
 */
struct ddebug_query {
	const char *file;
	const char *func;
	const char *module;
	const char *format;
	const char *listed_format;
	const char *class_name;
	unsigned int first_line;
	unsigned int last_line;
	unsigned int mask;
	unsigned int set;
	int class_id;
	bool has_class_id;
	bool replay;
};

/**
 * struct ddebug_parser - position in a text of queries
 * @p: first character not yet read
 * @pending_end: the last word was ended by ';' or a newline
 * @count: valid queries read so far
 * @line: line of the text that @p is on, from 1
 * @query_line: line on which the last query read starts
 */
struct ddebug_parser {
	char *p;
	bool pending_end;
	unsigned int count;
	unsigned int line;
	unsigned int query_line;
};

/* Why a query was rejected; ddebug_parse_reason_text() explains each. */
enum ddebug_parse_reason {
	DDEBUG_OK = 0,
	DDEBUG_ERR_UNKNOWN_KEYWORD,
	DDEBUG_ERR_MISSING_VALUE,
	DDEBUG_ERR_DUPLICATE_KEYWORD,
	DDEBUG_ERR_BAD_LINE,
	DDEBUG_ERR_LINE_ORDER,
	DDEBUG_ERR_UNCLOSED_QUOTE,
	DDEBUG_ERR_MISSING_FLAGS,
	DDEBUG_ERR_UNKNOWN_FLAG,
	DDEBUG_ERR_TOO_MANY_WORDS,
	DDEBUG_ERR_EMPTY_FORMAT,
	DDEBUG_ERR_NUL_IN_FORMAT,
	DDEBUG_ERR_FLAG_MISSING,
	DDEBUG_ERR_BAD_LISTING,
	DDEBUG_ERR_NO_MODULE,
	DDEBUG_ERR_NO_SITE,
};

/**
 * struct ddebug_parse_error - where and why parsing stopped
 * @query: 1-based number of the offending query among the non-blank ones
 * @word: the offending word (points into the parsed buffer), or NULL;
 *	for a missing site, its file
 * @reason: what was wrong
 * @line: line of the text on which the query starts, from 1
 * @module: for a missing site, its module
 * @func: for a missing site, its function
 * @site_line: for a missing site, its line number
 */
struct ddebug_parse_error {
	unsigned int query;
	const char *word;
	enum ddebug_parse_reason reason;
	unsigned int line;
	const char *module;
	const char *func;
	unsigned int site_line;
};

/* Longest write to the control file, and longest boot or module query. */
#define DDEBUG_QUERY_MAX	4095

/**
 * ddebug_parser_init - start reading the queries of a text
 * @ps: the parser
 * @text: NUL-terminated, writable text; parsed queries point into it
 */
static inline void ddebug_parser_init(struct ddebug_parser *ps, char *text)
{
	*ps = (struct ddebug_parser){ .p = text, .line = 1 };
}

int ddebug_parse_next(struct ddebug_parser *ps, struct ddebug_query *q,
		      struct ddebug_parse_error *err);
void ddebug_module_name_normalize(char *name);
const char *ddebug_parse_reason_text(enum ddebug_parse_reason reason);
__printf(2, 3)
void ddebug_source_err(const char *source, const char *fmt, ...);
void ddebug_report_error(const char *source,
			 const struct ddebug_parse_error *err);

/* Running queries: apply.c */

unsigned int ddebug_apply_query(struct list_head *tables,
				const struct ddebug_query *q);
int ddebug_run(struct list_head *tables, char *buf, const char *modname,
	       struct ddebug_parse_error *err);
int ddebug_exec(const char *text, const char *modname, const char *source);
int ddebug_exec_buf(char *buf, const char *modname, const char *source);
#if IS_ENABLED(CONFIG_KUNIT)
void ddebug_walk_pause(void);
#endif

/* Called for each site a previewed query selects, with its would-be flags. */
typedef void (*ddebug_visit_fn)(void *arg, const struct ddebug_table *dt,
				const struct _ddebug *dp, unsigned int flags);
int ddebug_preview(struct list_head *tables, char *buf,
		   ddebug_visit_fn visit, void *arg,
		   struct ddebug_parse_error *err);

/* Parameters: params.c */

void ddebug_params_boot(void);
void ddebug_params_module_coming(const char *mod_name, const char *args);
void ddebug_class_params_replay(void);

#endif /* _LIB_DYNAMIC_DEBUG_DDEBUG_H */
