// SPDX-License-Identifier: GPL-2.0
/*
 * The control files of dynamic debug: "control" (read the sites, write
 * queries), the read-only "enabled" (only sites with flags) and "hits"
 * (sites that fired, with their counts; writing 0 resets them), all in
 * <debugfs>/dynamic_debug/ and /proc/dynamic_debug/.  "preview" takes
 * queries like control and lists what they would select, changing nothing.
 */

#define pr_fmt(fmt) "dyndbg: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ddebug.h"

/* Only root may list the sites: they reveal the kernel's layout. */
#define CONTROL_MODE	0600
#define ENABLED_MODE	0400
#define HITS_MODE	0600
#define PREVIEW_MODE	CONTROL_MODE

/* Which sites a listing shows. */
enum listing {
	LIST_ALL,	/* control: every site, after a header */
	LIST_ENABLED,	/* enabled: sites with flags, after a header */
	LIST_HITS,	/* hits: sites that fired, count first, no header */
};

static const char control_header[] =
	"# filename:lineno [module]function flags format\n";

/**
 * struct control_reader - state of one open control or enabled file
 * @it: the walk; kept between read() calls to resume cheaply
 * @pos: seq_file position of the site @it points at (0 is the header)
 * @valid: @it and @pos describe a live walk
 * @listing: which sites are shown
 */
struct control_reader {
	struct ddebug_iter it;
	loff_t pos;
	bool valid;
	enum listing listing;
};

/* Reading */

static bool shown(const struct control_reader *r, const struct _ddebug *dp)
{
	switch (r->listing) {
	case LIST_ENABLED:
		return site_flags(dp);
	case LIST_HITS:
		return ddebug_site_hits(r->it.table, dp);
	default:
		return true;
	}
}

static struct _ddebug *reader_first(struct control_reader *r)
{
	struct _ddebug *dp = ddebug_iter_first(&r->it);

	while (dp && !shown(r, dp))
		dp = ddebug_iter_next(&r->it);
	return dp;
}

static struct _ddebug *reader_next(struct control_reader *r)
{
	struct _ddebug *dp = ddebug_iter_next(&r->it);

	while (dp && !shown(r, dp))
		dp = ddebug_iter_next(&r->it);
	return dp;
}

/* Current site of a still valid walk. */
static struct _ddebug *reader_current(struct control_reader *r)
{
	if (!r->it.table)
		return NULL;
	return &r->it.table->sites[r->it.left];
}

/* Takes ddebug_lock until control_stop(): the walk sees a stable registry. */
static void *control_start(struct seq_file *m, loff_t *pos)
{
	struct control_reader *r = m->private;
	struct _ddebug *dp;
	loff_t n;

	mutex_lock(&ddebug_lock);
	if (*pos == 0) {
		r->valid = false;
		return SEQ_START_TOKEN;
	}

	/*
	 * Resume where the last read() stopped if nothing was (un)loaded; the
	 * site it stopped at may have lost its flags since.
	 */
	if (r->valid && r->it.gen == ddebug_tables_gen && r->pos == *pos) {
		dp = reader_current(r);
		return dp && !shown(r, dp) ? reader_next(r) : dp;
	}

	dp = reader_first(r);
	for (n = 1; dp && n < *pos; n++)
		dp = reader_next(r);
	r->pos = *pos;
	r->valid = true;
	return dp;
}

static void *control_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct control_reader *r = m->private;
	struct _ddebug *dp = v == SEQ_START_TOKEN ? reader_first(r) :
						    reader_next(r);

	r->pos = ++*pos;
	r->valid = true;
	return dp;
}

static void control_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ddebug_lock);
}

/* The format in double quotes, with tab, CR and newline escaped. */
static void show_format(struct seq_file *m, const char *s)
{
	seq_putc(m, '"');
	for (; *s; s++) {
		switch (*s) {
		case '\t':
			seq_puts(m, "\\t");
			break;
		case '\r':
			seq_puts(m, "\\r");
			break;
		case '\n':
			seq_puts(m, "\\n");
			break;
		default:
			seq_putc(m, *s);
		}
	}
	seq_putc(m, '"');
}

/* One site as a listing shows it, with @flags for its flags. */
static void show_site(struct seq_file *m, const struct ddebug_table *dt,
		      const struct _ddebug *dp, unsigned int flags)
{
	char fl[DDEBUG_FLAGS_BUFSZ];
	const char *class;

	seq_printf(m, "%s:%u [%s]%s =%s ", ddebug_site_file(dp), site_lineno(dp),
		   dt->mod_name, site_function(dp),
		   ddebug_flags_describe(flags, fl, sizeof(fl)));
	show_format(m, site_format(dp));
	/* A class the module did not declare is shown by its number. */
	class = site_has_class(dp) ? ddebug_class_name(dt, dp) : NULL;
	if (class)
		seq_printf(m, " class:%s\n", class);
	else if (site_has_class(dp))
		seq_printf(m, " class unknown, _id:%d\n", site_class(dp));
	else
		seq_putc(m, '\n');
}

static int control_show(struct seq_file *m, void *v)
{
	struct control_reader *r = m->private;
	const struct ddebug_table *dt = r->it.table;
	const struct _ddebug *dp = v;

	if (v == SEQ_START_TOKEN) {
		if (r->listing != LIST_HITS)
			seq_puts(m, control_header);
		return 0;
	}

	if (r->listing == LIST_HITS)
		seq_printf(m, "%lu ", ddebug_site_hits(dt, dp));
	show_site(m, dt, dp, site_flags(dp));
	return 0;
}

static const struct seq_operations control_seq_ops = {
	.start = control_start,
	.next = control_next,
	.stop = control_stop,
	.show = control_show,
};

static int reader_open(struct inode *inode, struct file *file,
		       enum listing listing)
{
	struct control_reader *r;

	r = __seq_open_private(file, &control_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->listing = listing;
	return 0;
}

static int control_open(struct inode *inode, struct file *file)
{
	return reader_open(inode, file, LIST_ALL);
}

static int enabled_open(struct inode *inode, struct file *file)
{
	return reader_open(inode, file, LIST_ENABLED);
}

static int hits_open(struct inode *inode, struct file *file)
{
	return reader_open(inode, file, LIST_HITS);
}

/* Writing */

/*
 * A written text of queries, NUL-terminated, or an ERR_PTR: too long, or
 * with a NUL byte, at which the parser would stop and ignore the rest.
 * strncpy_from_user() copies and finds a NUL in one pass.
 */
static __always_inline char *text_from_user(const char __user *ubuf, size_t len)
{
	long copied;
	char *text;

	if (len > DDEBUG_QUERY_MAX) {
		pr_err("write of %zu bytes refused: the limit is %d\n",
		       len, DDEBUG_QUERY_MAX);
		return ERR_PTR(-E2BIG);
	}
	text = kmalloc(len + 1, GFP_KERNEL);
	if (!text)
		return ERR_PTR(-ENOMEM);
	copied = strncpy_from_user(text, ubuf, len);
	if (copied >= 0 && (size_t)copied == len) {
		text[len] = '\0';
		return text;
	}
	kfree(text);
	if (copied < 0)
		return ERR_PTR(copied);
	pr_err("write refused: NUL byte at offset %ld\n", copied);
	return ERR_PTR(-EINVAL);
}

/*
 * Copy a write of @len bytes in and run it with @run; the write's length,
 * or the error of the copy or of @run.  Inlined, so that @run is called
 * directly.
 */
static __always_inline ssize_t write_text(const char __user *ubuf,
					  size_t len,
					  int (*run)(void *arg, char *text),
					  void *arg)
{
	char *text;
	int ret;

	if (!len)
		return 0;
	text = text_from_user(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = run(arg, text);
	kfree(text);
	return ret < 0 ? ret : len;
}

static int control_run(void *arg, char *text)
{
	ddebug_vlog(DDEBUG_V_SUMMARY, "%zu bytes written to control\n",
		    strlen(text));
	return ddebug_exec_buf(text, NULL, NULL);
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *offp)
{
	ssize_t ret = write_text(ubuf, len, control_run, NULL);

	if (ret > 0)
		*offp += ret;
	return ret;
}

static void hits_reset_all(void)
{
	struct ddebug_table *dt;

	mutex_lock(&ddebug_lock);
	list_for_each_entry(dt, &ddebug_tables, link)
		ddebug_hits_reset(dt);
	mutex_unlock(&ddebug_lock);
}

/* Only "0" (a newline may follow) is understood: it resets the counts. */
static ssize_t hits_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *offp)
{
	char buf[4] = {};

	if (!len)
		return 0;
	if (len >= sizeof(buf) ||
	    copy_from_user(buf, ubuf, len))
		goto bad;
	if (strcmp(strim(buf), "0"))
		goto bad;
	hits_reset_all();
	*offp += len;
	return len;
bad:
	pr_err("hits: write 0 to reset the counts\n");
	return -EINVAL;
}

/* Preview */

/* Longest preview kept: about 400 bytes for each of 100,000 sites. */
#define PREVIEW_MAX	(40 << 20)

/* Where one previewed site's line is in the listing, and where it goes. */
struct preview_line {
	u32 table;	/* id of its table: tables are listed in id order */
	u32 site;	/* its index in the table: listed from the last */
	u32 seq;	/* visits of one site by several queries keep their order */
	u32 off;	/* offset of the line in the listing */
	u32 len;	/* and its length */
};

/**
 * struct preview - what the last write to one open preview file selected
 * @out: the listing, written with the seq_file printers into a buffer of
 *	its own (only its buf, size and count are used), NULL buf if none
 * @lines: the lines of @out after its header, in the order visited
 * @nr_lines: used entries of @lines
 * @max_lines: allocated entries of @lines
 * @err: 0, or -ENOMEM / -E2BIG once the listing could not grow
 * @lock: serialises the writes and reads of this open file
 */
struct preview {
	struct seq_file out;
	struct preview_line *lines;
	u32 nr_lines;
	u32 max_lines;
	int err;
	struct mutex lock;	/* protects all of the above */
};

/* Double the listing's buffer; false (and @p->err set) if impossible. */
static bool preview_grow(struct preview *p)
{
	size_t size = p->out.size ? 2 * p->out.size : PAGE_SIZE;
	char *buf;

	if (size > PREVIEW_MAX) {
		p->err = -E2BIG;
		return false;
	}
	buf = kvrealloc(p->out.buf, size, GFP_KERNEL | __GFP_NOWARN);
	if (!buf) {
		p->err = -ENOMEM;
		return false;
	}
	p->out.buf = buf;
	p->out.size = size;
	return true;
}

/* Room for one more line entry; false (and @p->err set) if impossible. */
static bool preview_line_room(struct preview *p)
{
	u32 max = p->max_lines ? 2 * p->max_lines : 256;
	struct preview_line *lines;

	if (p->nr_lines < p->max_lines)
		return true;
	lines = kvrealloc(p->lines, array_size(max, sizeof(*lines)),
			  GFP_KERNEL | __GFP_NOWARN);
	if (!lines) {
		p->err = -ENOMEM;
		return false;
	}
	p->lines = lines;
	p->max_lines = max;
	return true;
}

/* Visitor of ddebug_preview(): one site, as control would show it. */
static void preview_site(void *arg, const struct ddebug_table *dt,
			 const struct _ddebug *dp, unsigned int flags)
{
	struct preview *p = arg;
	size_t start = p->out.count;

	if (p->err || !preview_line_room(p))
		return;
	while (!p->err) {
		show_site(&p->out, dt, dp, flags);
		if (!seq_has_overflowed(&p->out)) {
			p->lines[p->nr_lines] = (struct preview_line) {
				.table = dt->id, .site = dp - dt->sites,
				.seq = p->nr_lines, .off = start,
				.len = p->out.count - start,
			};
			p->nr_lines++;
			return;
		}
		p->out.count = start;
		preview_grow(p);
	}
}

static int preview_line_cmp(const void *a, const void *b)
{
	const struct preview_line *x = a, *y = b;

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	if (x->site != y->site)
		return x->site > y->site ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

/*
 * Put the listing's lines in the order control lists their sites, so that
 * a preview and a later read of control compare line for line.
 */
static void preview_order(struct preview *p)
{
	size_t pos;
	char *buf;
	u32 i;

	if (!p->nr_lines)
		return;
	buf = kvmalloc(p->out.size, GFP_KERNEL | __GFP_NOWARN);
	if (!buf) {
		p->err = -ENOMEM;
		return;
	}
	/* What comes before the first site visited stays first. */
	pos = p->lines[0].off;
	memcpy(buf, p->out.buf, pos);
	sort(p->lines, p->nr_lines, sizeof(*p->lines), preview_line_cmp, NULL);
	for (i = 0; i < p->nr_lines; i++) {
		memcpy(buf + pos, p->out.buf + p->lines[i].off, p->lines[i].len);
		pos += p->lines[i].len;
	}
	kvfree(p->out.buf);
	p->out.buf = buf;
}

static int preview_open(struct inode *inode, struct file *file)
{
	struct preview *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	mutex_init(&p->lock);
	file->private_data = p;
	return 0;
}

static int preview_release(struct inode *inode, struct file *file)
{
	struct preview *p = file->private_data;

	kvfree(p->out.buf);
	kvfree(p->lines);
	kfree(p);
	return 0;
}

/* Run the queries of @text as a preview into @p, replacing what it held. */
static int preview_run(struct preview *p, char *text)
{
	struct ddebug_parse_error err;
	int ret;

	p->out.count = 0;
	p->nr_lines = 0;
	p->err = 0;
	if (!p->out.buf && !preview_grow(p))
		return p->err;
	seq_puts(&p->out, control_header);
	ret = ddebug_preview(&ddebug_tables, text, preview_site, p, &err);
	if (ret == -EINVAL)
		ddebug_report_error(NULL, &err);
	if (ret >= 0 && !p->err)
		preview_order(p);
	if (ret >= 0 && p->err == -E2BIG)
		pr_err("preview: the listing is larger than %d bytes\n",
		       PREVIEW_MAX);
	if (ret >= 0 && p->err)
		ret = p->err;
	if (ret < 0)
		p->out.count = 0;
	return ret < 0 ? ret : 0;
}

static int preview_run_locked(void *arg, char *text)
{
	struct preview *p = arg;
	int ret;

	mutex_lock(&p->lock);
	ret = preview_run(p, text);
	mutex_unlock(&p->lock);
	return ret;
}

/*
 * The file position stays at 0 so that a read on the same open file
 * returns the listing from its start.
 */
static ssize_t preview_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *offp)
{
	*offp = 0;
	return write_text(ubuf, len, preview_run_locked, file->private_data);
}

static ssize_t preview_read(struct file *file, char __user *ubuf,
			    size_t len, loff_t *offp)
{
	struct preview *p = file->private_data;
	ssize_t ret;

	mutex_lock(&p->lock);
	ret = simple_read_from_buffer(ubuf, len, offp, p->out.buf,
				      p->out.count);
	mutex_unlock(&p->lock);
	return ret;
}

/* Files */

/*
 * The debugfs and procfs operations NAME_fops and NAME_proc_ops of one
 * control file, with the same functions (@wr NULL: read-only).
 */
#define DDEBUG_FILE(name, op, rd, wr, seek, rel)			\
static const struct file_operations name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = op,							\
	.read = rd,							\
	.write = wr,							\
	.llseek = seek,							\
	.release = rel,							\
};									\
static const struct proc_ops name##_proc_ops = {			\
	.proc_open = op, .proc_read = rd, .proc_write = wr,		\
	.proc_lseek = seek, .proc_release = rel,			\
}

/* A seq_file control file, opened by NAME_open(). */
#define DDEBUG_SEQ_FILE(name, wr)					\
	DDEBUG_FILE(name, name##_open, seq_read, wr, seq_lseek,		\
		    seq_release_private)

DDEBUG_SEQ_FILE(control, control_write);
DDEBUG_SEQ_FILE(enabled, NULL);
DDEBUG_SEQ_FILE(hits, hits_write);
DDEBUG_FILE(preview, preview_open, preview_read, preview_write,
	    default_llseek, preview_release);

/* Each file is in debugfs and in procfs, under dynamic_debug/. */
static const struct ddebug_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	const struct proc_ops *proc_ops;
} ddebug_files[] = {
	{ "control", CONTROL_MODE, &control_fops, &control_proc_ops },
	{ "enabled", ENABLED_MODE, &enabled_fops, &enabled_proc_ops },
	{ "hits", HITS_MODE, &hits_fops, &hits_proc_ops },
	{ "preview", PREVIEW_MODE, &preview_fops, &preview_proc_ops },
};

static int __init ddebug_control_init(void)
{
	const struct ddebug_file *f;
	struct proc_dir_entry *proc_dir;
	struct dentry *dir = NULL;

	if (!ddebug_core_ready())
		return -ENODEV;

	if (debugfs_initialized())
		dir = debugfs_create_dir("dynamic_debug", NULL);
	proc_dir = proc_mkdir("dynamic_debug", NULL);
	for (f = ddebug_files; f < ddebug_files + ARRAY_SIZE(ddebug_files); f++) {
		if (dir)
			debugfs_create_file(f->name, f->mode, dir, NULL, f->fops);
		if (proc_dir)
			proc_create(f->name, f->mode, proc_dir, f->proc_ops);
	}
	return 0;
}

/* debugfs and procfs are ready at fs_initcall time. */
fs_initcall(ddebug_control_init);
