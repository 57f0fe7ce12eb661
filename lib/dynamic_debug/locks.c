// SPDX-License-Identifier: GPL-2.0
/*
 * The locks that every file of the dynamic debug core shares, and how much
 * it logs: the bottom of the core, calling no other file.
 */

#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "ddebug.h"

/* Protects the registry and all site flags; see ddebug.h. */
DEFINE_MUTEX(ddebug_lock);
/* Serialises writers of site flags; see ddebug.h. */
DEFINE_MUTEX(ddebug_write_lock);

/* Read without a lock: a message more or less while it changes is fine. */
int ddebug_verbose;
module_param_named(verbose, ddebug_verbose, int, 0644);
MODULE_PARM_DESC(verbose,
		 "log level: 0 quiet, 1 modules, 2 query summaries, 3 parsing, 4 every changed site");
