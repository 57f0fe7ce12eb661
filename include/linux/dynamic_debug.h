/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic debug: pr_debug(), dev_dbg() and friends, switchable at run time.
 *
 * Every call site gets a descriptor in the "__dyndbg" linker section.  The
 * core (lib/dynamic_debug/) keeps a registry of those descriptors, lets user
 * space select them by file, function, line, module, format or class through
 * <debugfs>/dynamic_debug/control, and flips each site's static key.  The
 * layout of the descriptor belongs to the core: callers only pass its address
 * back to the __dynamic_*() functions.
 */
#ifndef _DYNAMIC_DEBUG_H
#define _DYNAMIC_DEBUG_H

#if defined(CONFIG_JUMP_LABEL)
#include <linux/jump_label.h>
#endif

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stringify.h>
#include <linux/types.h>

/*
 * Flag bits of a call site.  The letters, names and printing order live in
 * the core's flag table (lib/dynamic_debug/ddebug.h); the header needs only
 * the bits that decide whether a call site calls out of line: printing to
 * the log ('p') and recording a trace event ('T').
 */
#define _DPRINTK_FLAGS_NONE	0
#define _DPRINTK_FLAGS_PRINT	BIT(0)
#define _DPRINTK_FLAGS_TRACE	BIT(7)
#define _DPRINTK_FLAGS_ENABLED	(_DPRINTK_FLAGS_PRINT | _DPRINTK_FLAGS_TRACE)

#if defined DEBUG
#define _DPRINTK_FLAGS_DEFAULT	_DPRINTK_FLAGS_PRINT
#else
#define _DPRINTK_FLAGS_DEFAULT	_DPRINTK_FLAGS_NONE
#endif

/*
 * Class ids 0..62 belong to the classes a module declares with
 * DECLARE_DYNDBG_CLASSMAP(); a site without a class carries the default id.
 */
#define _DPRINTK_CLASS_BITS	6
#define _DPRINTK_CLASS_DFLT	((1 << _DPRINTK_CLASS_BITS) - 1)

/*
 * A site's flags, class and line number share one word, the @bits of its
 * descriptor: the flags in the low bits (the print flag is bit 0, which
 * call sites test when jump labels are off), then the class id, then the
 * line number.
 */
#define _DPRINTK_FLAGS_BITS	9
#define _DPRINTK_LINE_SHIFT	(_DPRINTK_FLAGS_BITS + _DPRINTK_CLASS_BITS)
#define _DPRINTK_LINE_MAX	((1U << (32 - _DPRINTK_LINE_SHIFT)) - 1)
#define _DPRINTK_BITS_INIT(cls, line, flags)				\
	((flags) | ((unsigned int)(cls) << _DPRINTK_FLAGS_BITS) |	\
	 ((unsigned int)(line) << _DPRINTK_LINE_SHIFT))

/**
 * struct _ddebug - descriptor of one dynamic debug call site
 * @key: static key that guards the call when jump labels are available;
 *	which member the call site uses depends on _DPRINTK_FLAGS_DEFAULT
 * @modfile: offset from the descriptor to its module name, which a NUL and
 *	its source file name follow; 0 until the core registers the site
 * @function: offset from the descriptor to its function name, or 0
 * @format: offset from the descriptor to its format string, or 0
 * @bits: flags, class and line number, as _DPRINTK_BITS_INIT() packs them;
 *	the core writes the flags under its lock, the printing path reads
 *	them without
 *
 * The names live in struct _ddebug_names until the core registers the
 * site; it then keeps 32-bit offsets to them here instead of pointers.
 * The linker collects descriptors into an array: the size is a multiple
 * of the alignment.
 */
struct _ddebug {
#ifdef CONFIG_JUMP_LABEL
	union {
		struct static_key_true dflt_on;
		struct static_key_false dflt_off;
	} key;
#endif
	s32 modfile;
	s32 function;
	s32 format;
	u32 bits;
};

/**
 * struct _ddebug_names - the names of a call site, until it is registered
 * @desc: the site's descriptor
 * @modfile: KBUILD_MODNAME, a NUL, then the source file name
 * @function: the enclosing function's name
 * @format: the format string (or a description, for hex dumps)
 *
 * Kept in the ".init.dyndbg" section, which is freed once the kernel (or
 * the module) has started: registering the site turns these pointers into
 * the descriptor's offsets.
 */
struct _ddebug_names {
	struct _ddebug *desc;
	const char *modfile;
	const char *function;
	const char *format;
};

/*
 * Where the records are written.  Their fields are addresses, which an
 * asm statement takes as "i" operands wherever the compiler calls an
 * address a constant.  GCC does not for i386, arm and arm64 code compiled
 * -fPIC or -fPIE, nor clang for i386: Kconfig tests the compiler both
 * ways (CC_HAS_ASM_DDEBUG_NAMES{,_PIC}), and where it fails the records
 * are C objects instead.  A file may also ask for C objects by defining
 * DYNAMIC_DEBUG_NAMES_IN_DATA before the first include, as the selftests
 * do to test that way.
 */
#if defined(CONFIG_CC_HAS_ASM_DDEBUG_NAMES) &&			\
	(!defined(__PIC__) || defined(CONFIG_CC_HAS_ASM_DDEBUG_NAMES_PIC)) && \
	!defined(DYNAMIC_DEBUG_NAMES_IN_DATA)
#define _DPRINTK_NAMES_IN_ASM	1
#else
#define _DPRINTK_NAMES_IN_ASM	0
#endif

#if __SIZEOF_POINTER__ == 8
#define _DPRINTK_ASM_PTR	".quad"
#else
#define _DPRINTK_ASM_PTR	".long"
#endif
/*
 * An address operand printed bare, as the assembler takes it in data:
 * with the generic "%c" modifier, except on RISC-V, whose GCC (12) rejects
 * "%c" and prints a symbol bare without it.
 */
#ifdef __riscv
#define _DPRINTK_ASM_SYMS	" %0, %1, %2, %3"
#else
#define _DPRINTK_ASM_SYMS	" %c0, %c1, %c2, %c3"
#endif
static_assert(sizeof(struct _ddebug_names) == 4 * __SIZEOF_POINTER__);

/**
 * enum class_map_type - how a class parameter maps its value onto classes
 * @DD_CLASS_TYPE_DISJOINT_BITS: a number; bit N switches class N alone
 * @DD_CLASS_TYPE_LEVEL_NUM: a number N; classes below N are on, the rest off
 * @DD_CLASS_TYPE_DISJOINT_NAMES: a comma list of [+-]NAME, each switched alone
 * @DD_CLASS_TYPE_LEVEL_NAMES: a comma list of [+-]NAME setting a level, as
 *	for DD_CLASS_TYPE_LEVEL_NUM
 */
enum class_map_type {
	DD_CLASS_TYPE_DISJOINT_BITS,
	DD_CLASS_TYPE_LEVEL_NUM,
	DD_CLASS_TYPE_DISJOINT_NAMES,
	DD_CLASS_TYPE_LEVEL_NAMES,
};

struct module;

/**
 * struct ddebug_class_map - the class names a module declares
 * @mod: owning module, NULL when built in
 * @mod_name: KBUILD_MODNAME of the owner; ties built-in maps to their sites
 * @class_names: the names, in class id order starting at @base
 * @length: number of names
 * @base: class id of the first name
 * @map_type: how a class parameter interprets its value
 */
struct ddebug_class_map {
	struct module *mod;
	const char *mod_name;
	const char * const *class_names;
	const int length;
	const int base;
	enum class_map_type map_type;
} __aligned(8);

#define NUM_TYPE_ARGS(eltype, ...)					\
	(sizeof((eltype[]) {__VA_ARGS__}) / sizeof(eltype))

/**
 * DECLARE_DYNDBG_CLASSMAP - declare the debug classes of a module
 * @_var: name of the struct ddebug_class_map to define
 * @_maptype: an enum class_map_type
 * @_base: class id of the first name
 * @...: class names; a site of class @_base + i is selected by the i-th name
 *
 * The map goes into the "__dyndbg_classes" section, where the core finds it
 * when the module's sites are registered.
 */
#define DECLARE_DYNDBG_CLASSMAP(_var, _maptype, _base, ...)		\
	static const char * const _var##_classnames[] = { __VA_ARGS__ };	\
	static struct ddebug_class_map __aligned(8) __used		\
		__section("__dyndbg_classes") _var = {			\
		.mod_name = KBUILD_MODNAME,				\
		.mod = THIS_MODULE,					\
		.map_type = _maptype,					\
		.class_names = _var##_classnames,			\
		.length = NUM_TYPE_ARGS(char *, __VA_ARGS__),		\
		.base = _base,						\
	}

/**
 * struct _ddebug_info - the dynamic debug sections of vmlinux or a module
 * @descs: first call site descriptor (section __dyndbg)
 * @num_descs: how many descriptors follow @descs
 * @classes: first class map (section __dyndbg_classes)
 * @num_classes: how many class maps follow @classes
 * @names: first site names record (section .init.dyndbg, gone after init)
 * @num_names: how many records follow @names
 *
 * The module loader fills it in by field name; each array sits with its
 * length here.
 */
struct _ddebug_info {
	struct _ddebug *descs;
	unsigned int num_descs;
	struct ddebug_class_map *classes;
	unsigned int num_classes;
	struct _ddebug_names *names;
	unsigned int num_names;
};

/**
 * struct ddebug_class_param - state behind a class module parameter
 * @map: the class map the parameter controls
 * @flags: flag letters that the parameter switches (e.g. "p")
 * @bits: current bits, for the DISJOINT map types
 * @lvl: current level, for the LEVEL map types
 *
 * Used as the argument of a module_param_cb() with
 * &param_ops_dyndbg_classes. Users initialise it by field name.
 */
struct ddebug_class_param {
	const struct ddebug_class_map *map;
	char flags[8];
	union {
		unsigned long *bits;	/* DISJOINT_* maps */
		unsigned int *lvl;	/* LEVEL_* maps */
	};
};

#if defined(CONFIG_DYNAMIC_DEBUG) || \
	(defined(CONFIG_DYNAMIC_DEBUG_CORE) && defined(DYNAMIC_DEBUG_MODULE))

struct device;
struct net_device;
struct ib_device;

/*
 * The out-of-line printers an enabled site calls: each prints the
 * decorations its descriptor's flags ask for, then the message, with the
 * prefix of its subsystem (none, dev_printk(), netdev_printk(), ibdev).
 */
__printf(2, 3) void __dynamic_pr_debug(struct _ddebug *descriptor,
				       const char *fmt, ...);
__printf(3, 4) void __dynamic_dev_dbg(struct _ddebug *descriptor,
				      const struct device *dev,
				      const char *fmt, ...);
__printf(3, 4) void __dynamic_netdev_dbg(struct _ddebug *descriptor,
					 const struct net_device *dev,
					 const char *fmt, ...);
__printf(3, 4) void __dynamic_ibdev_dbg(struct _ddebug *descriptor,
					const struct ib_device *ibdev,
					const char *fmt, ...);

/*
 * An enabled site whose function does not get its descriptor (the
 * "_no_desc" builders, print_hex_dump_debug()) asks the core first: the
 * call is counted, and the function runs only if the site prints to the
 * log and its rate limit, if any, allows.
 */
bool __dynamic_func_call_allowed(struct _ddebug *descriptor);

/*
 * _DPRINTK_SITE_ON() is true while a site prints to the log or records a
 * trace event: the sites whose printer gets the descriptor (pr_debug(),
 * dev_dbg() and the like) call it then, and it does what the flags say.
 * DYNAMIC_DEBUG_BRANCH() is true only while the site prints to the log:
 * callers that test it do their own printing (dump_page(), the
 * *_ratelimited() helpers, the callees of _dynamic_func_call()), which
 * must stay quiet for a site that only traces.  The flags are written by
 * the core under its lock while call sites read them.
 */
#define _DPRINTK_SITE_PRINTS(descriptor)				\
	(READ_ONCE((descriptor).bits) & _DPRINTK_FLAGS_PRINT)

#ifdef CONFIG_JUMP_LABEL
#ifdef DEBUG
#define _DPRINTK_KEY_INIT	.key.dflt_on = (STATIC_KEY_TRUE_INIT)
#define _DPRINTK_SITE_ON(descriptor)					\
	static_branch_likely(&(descriptor).key.dflt_on)
#else
#define _DPRINTK_KEY_INIT	.key.dflt_off = (STATIC_KEY_FALSE_INIT)
#define _DPRINTK_SITE_ON(descriptor)					\
	static_branch_unlikely(&(descriptor).key.dflt_off)
#endif
#define DYNAMIC_DEBUG_BRANCH(descriptor)				\
	(_DPRINTK_SITE_ON(descriptor) && _DPRINTK_SITE_PRINTS(descriptor))
#else /* !CONFIG_JUMP_LABEL: one load and test of the flags */
#define _DPRINTK_KEY_INIT
#ifdef DEBUG
#define _DPRINTK_SITE_ON(descriptor)					\
	likely(READ_ONCE((descriptor).bits) & _DPRINTK_FLAGS_ENABLED)
#define DYNAMIC_DEBUG_BRANCH(descriptor)				\
	likely(_DPRINTK_SITE_PRINTS(descriptor))
#else
#define _DPRINTK_SITE_ON(descriptor)					\
	unlikely(READ_ONCE((descriptor).bits) & _DPRINTK_FLAGS_ENABLED)
#define DYNAMIC_DEBUG_BRANCH(descriptor)				\
	unlikely(_DPRINTK_SITE_PRINTS(descriptor))
#endif
#endif /* CONFIG_JUMP_LABEL */

/*
 * The assembler name of a descriptor: a ".L" label, which the assembler
 * keeps out of the object's symbol table, made unique within the file by
 * __COUNTER__ (callers may reuse a descriptor name in one file).  Clang's
 * LTO may rename a file-local variable when it moves code between
 * objects, which a fixed assembler name would forbid: there the compiler
 * names the descriptor itself.
 */
#ifdef CONFIG_LTO_CLANG
#define _DPRINTK_ASM_NAME(...)
#else
#define _DPRINTK_ASM_NAME(name)						\
	__asm__(".L" __stringify(name) "_" __stringify(__COUNTER__))
#endif

/*
 * _DPRINTK_NAMES() writes the names record of descriptor @name.  In asm,
 * the record sits with the site's code: the compiler emits it exactly
 * when it keeps that code (each inlined copy writes one, all naming the
 * same descriptor), and it has no symbol.  As a C object, it is kept
 * whether or not the code is, and so is the descriptor it names.
 */
#if _DPRINTK_NAMES_IN_ASM
#define _DPRINTK_NAMES(name, fmt) do {					\
	asm volatile(".pushsection .init.dyndbg, \"a\"\n\t"		\
		     ".balign " __stringify(__SIZEOF_POINTER__) "\n\t"	\
		     _DPRINTK_ASM_PTR _DPRINTK_ASM_SYMS "\n\t"		\
		     ".popsection"					\
		     : : "i" (&(name)), "i" (KBUILD_MODNAME "\0" __FILE__), \
			 "i" (__func__), "i" (fmt));			\
} while (0)
#else
#define _DPRINTK_NAMES(name, fmt)					\
	static struct _ddebug_names __used __section(".init.dyndbg")	\
		__UNIQUE_ID(ddebug_names) = {				\
		.desc = &(name),					\
		.modfile = KBUILD_MODNAME "\0" __FILE__,		\
		.function = __func__,					\
		.format = (fmt),					\
	}
#endif

/**
 * DEFINE_DYNAMIC_DEBUG_METADATA_CLS - define a call site descriptor
 * @name: variable name of the descriptor
 * @cls: class id, a constant below _DPRINTK_CLASS_DFLT, or the default
 * @fmt: format string shown in the control file and matched by "format"
 *
 * The descriptor keeps its natural alignment: left to itself, the compiler
 * may align a 32-byte object to 32 bytes, and the linker would then leave
 * gaps in the array of descriptors, or between its start symbol and its
 * first entry.  Besides the descriptor, a struct _ddebug_names in an init
 * section holds the site's names (see _DPRINTK_NAMES()).  The descriptor
 * has no symbol: its assembler name is a local label (see
 * _DPRINTK_ASM_NAME()), so that a module with many sites gets no symbol
 * table entries per site to load.
 */
#define DEFINE_DYNAMIC_DEBUG_METADATA_CLS(name, cls, fmt)		\
	static struct _ddebug __aligned(__alignof__(struct _ddebug))	\
		name _DPRINTK_ASM_NAME(name) __section("__dyndbg") = {	\
		.bits = _DPRINTK_BITS_INIT(cls, __LINE__,		\
					   _DPRINTK_FLAGS_DEFAULT),	\
		_DPRINTK_KEY_INIT					\
	};								\
	_DPRINTK_NAMES(name, fmt);					\
	BUILD_BUG_ON_MSG((cls) > _DPRINTK_CLASS_DFLT,			\
			 "dynamic debug class id out of range");	\
	BUILD_BUG_ON_MSG(__LINE__ > _DPRINTK_LINE_MAX,			\
			 "dynamic debug site beyond the last line it can record")

#define DEFINE_DYNAMIC_DEBUG_METADATA(name, fmt)			\
	DEFINE_DYNAMIC_DEBUG_METADATA_CLS(name, _DPRINTK_CLASS_DFLT, fmt)

/*
 * Call-site builders.  The double-underscore forms take the descriptor's
 * name so that it can be used twice; the single-underscore forms make up
 * a unique one.  "_cls" variants give the site a class; "_no_desc"
 * variants call @func without the descriptor as first argument.  @func
 * does its own printing, so it runs only while the site prints to the
 * log (DYNAMIC_DEBUG_BRANCH()), and a "_no_desc" one only if the core
 * also allows it (hit count, rate limit).
 */
#define __ddebug_site(id, cls, fmt, on, call) do {			\
	DEFINE_DYNAMIC_DEBUG_METADATA_CLS(id, cls, fmt);		\
	if (on)								\
		call;							\
} while (0)

#define __dynamic_func_call_cls(id, cls, fmt, func, ...)		\
	__ddebug_site(id, cls, fmt, DYNAMIC_DEBUG_BRANCH(id),		\
		      func(&id, ##__VA_ARGS__))
#define __dynamic_func_call(id, fmt, func, ...)				\
	__dynamic_func_call_cls(id, _DPRINTK_CLASS_DFLT, fmt, func,	\
				##__VA_ARGS__)
#define __dynamic_func_call_cls_no_desc(id, cls, fmt, func, ...)	\
	__ddebug_site(id, cls, fmt, DYNAMIC_DEBUG_BRANCH(id) &&		\
		      __dynamic_func_call_allowed(&id), func(__VA_ARGS__))
#define __dynamic_func_call_no_desc(id, fmt, func, ...)			\
	__dynamic_func_call_cls_no_desc(id, _DPRINTK_CLASS_DFLT, fmt,	\
					func, ##__VA_ARGS__)

/* Each single-underscore form names a new descriptor for its double. */
#define _dynamic_func_call(fmt, func, ...)				\
	__dynamic_func_call(__UNIQUE_ID(ddebug), fmt, func, ##__VA_ARGS__)
#define _dynamic_func_call_cls(cls, fmt, func, ...)			\
	__dynamic_func_call_cls(__UNIQUE_ID(ddebug), cls, fmt, func,	\
				##__VA_ARGS__)
#define _dynamic_func_call_no_desc(fmt, func, ...)			\
	__dynamic_func_call_no_desc(__UNIQUE_ID(ddebug), fmt, func,	\
				    ##__VA_ARGS__)
#define _dynamic_func_call_cls_no_desc(cls, fmt, func, ...)		\
	__dynamic_func_call_cls_no_desc(__UNIQUE_ID(ddebug), cls, fmt,	\
					func, ##__VA_ARGS__)

/*
 * The core's own printers get the descriptor and print or trace as its
 * flags say: they are called while the site does either.
 */
#define __ddebug_printer_call(cls, fmt, printer, ...)			\
	__ddebug_printer_site(__UNIQUE_ID(ddebug), cls, fmt, printer,	\
			      ##__VA_ARGS__)
#define __ddebug_printer_site(id, cls, fmt, printer, ...)		\
	__ddebug_site(id, cls, fmt, _DPRINTK_SITE_ON(id),		\
		      printer(&id, ##__VA_ARGS__))

/* pr_debug(): the descriptor keeps the bare format, the call gets pr_fmt(). */
#define dynamic_pr_debug_cls(cls, fmt, ...)				\
	__ddebug_printer_call(cls, fmt, __dynamic_pr_debug, pr_fmt(fmt), \
			      ##__VA_ARGS__)
#define dynamic_pr_debug(fmt, ...)					\
	dynamic_pr_debug_cls(_DPRINTK_CLASS_DFLT, fmt, ##__VA_ARGS__)

/* The device variants pass their device ahead of the format. */
#define __ddebug_dev_call(printer, dev, fmt, ...)			\
	__ddebug_printer_call(_DPRINTK_CLASS_DFLT, fmt, printer, dev, fmt, \
			      ##__VA_ARGS__)
#define dynamic_dev_dbg(dev, fmt, ...)					\
	__ddebug_dev_call(__dynamic_dev_dbg, dev, fmt, ##__VA_ARGS__)
#define dynamic_netdev_dbg(dev, fmt, ...)				\
	__ddebug_dev_call(__dynamic_netdev_dbg, dev, fmt, ##__VA_ARGS__)
#define dynamic_ibdev_dbg(dev, fmt, ...)				\
	__ddebug_dev_call(__dynamic_ibdev_dbg, dev, fmt, ##__VA_ARGS__)

#define dynamic_hex_dump(prefix_str, prefix_type, rowsize,		\
			 groupsize, buf, len, ascii)			\
	_dynamic_func_call_no_desc(__builtin_constant_p(prefix_str) ?	\
				   prefix_str : "hexdump",		\
				   print_hex_dump, KERN_DEBUG,		\
				   prefix_str, prefix_type, rowsize,	\
				   groupsize, buf, len, ascii)

/* A pr_debug() of a given class; real users wrap it (see drm_print.h). */
#define __pr_debug_cls(cls, fmt, ...) do {				\
	BUILD_BUG_ON_MSG(!__builtin_constant_p(cls),			\
			 "expecting constant class int/enum");		\
	dynamic_pr_debug_cls(cls, fmt, ##__VA_ARGS__);			\
} while (0)

#else /* no call sites in this compilation unit */

#include <linux/string.h>
#include <linux/errno.h>
#include <linux/printk.h>

/* No descriptor, and a branch that is never taken. */
#define DEFINE_DYNAMIC_DEBUG_METADATA(name, fmt)			\
	static_assert(sizeof(#name) && sizeof(fmt))
#define DYNAMIC_DEBUG_BRANCH(descriptor) (false && sizeof(#descriptor))

/* Checked like a printk() format, never printed, an expression of 0. */
#define dynamic_pr_debug(fmt, ...)	no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define dynamic_dev_dbg(dev, fmt, ...)	dev_no_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#define dynamic_hex_dump(prefix_str, prefix_type, rowsize,		\
			 groupsize, buf, len, ascii)			\
	do {								\
		if (0)							\
			print_hex_dump(KERN_DEBUG, prefix_str,		\
				       prefix_type, rowsize, groupsize,	\
				       buf, len, ascii);		\
	} while (0)

#endif

struct kernel_param;

#ifdef CONFIG_DYNAMIC_DEBUG_CORE

int ddebug_dyndbg_module_param_cb(char *param, char *val, const char *modname);
int param_set_dyndbg_classes(const char *instr, const struct kernel_param *kp);
int param_get_dyndbg_classes(char *buffer, const struct kernel_param *kp);

#else

static inline int ddebug_dyndbg_module_param_cb(char *param, char *val,
						const char *modname)
{
	if (strcmp(param, "dyndbg"))
		return -EINVAL;
	pr_warn("%s: dyndbg parameter ignored: kernel built without dynamic debug\n",
		modname);
	return 0;
}

static inline int param_set_dyndbg_classes(const char *instr,
					   const struct kernel_param *kp)
{
	return 0;
}

static inline int param_get_dyndbg_classes(char *buffer,
					   const struct kernel_param *kp)
{
	return 0;
}

#endif

extern const struct kernel_param_ops param_ops_dyndbg_classes;

#endif /* _DYNAMIC_DEBUG_H */
