#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Memory: a long write never asks for a large contiguous allocation, and
# when an allocation of the core fails while a module loads with dyndbg=,
# the failure is reported, never dropped in silence.
#
# The first check reads the kmem trace events of this shell's own writes
# (CONFIG_TRACING). The second fails each allocation the core makes during
# "modprobe MODULE dyndbg=+p" in turn: /proc/self/fail-nth counts only the
# allocations failslab lets through its stack filter, which is set to the
# core's code (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_STACKTRACE_FILTER: the
# debug kernel of the build matrix has them).

DIR=$(dirname "$0")
. "$DIR/functions.sh"

dd_begin 4 "$SITES_MOD"

M=$SITES_MOD
FS=/sys/kernel/debug/failslab
TRACE=
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d $t/events/kmem ] && TRACE=$t && break
done
if [ -z "$TRACE" ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	[ -d /sys/kernel/tracing/events/kmem ] && TRACE=/sys/kernel/tracing
fi

# ------------------------------------------ no large allocation per write --
# As many queries as fit in one 4,095-byte write: "-t;" (every site,
# a decoration off), 1,365 of them. A core that kept the parsed queries of
# a write in one array asked for tens of KiB here. The kmalloc event names
# the bytes asked; mm_page_alloc the order of pages taken directly. A slab
# cache that grows takes pages of order up to 3 for small objects (more
# under slub_debug): those events, allocate_slab() in their stack, are not
# ours and are dropped.

# large_allocs: the kmalloc and mm_page_alloc events of the trace, each
# with its stack, but those of a slab growing.
large_allocs()
{
	awk '
	function flush() { if (ev != "" && !slab) print ev; ev = ""; slab = 0 }
	/ (kmalloc|mm_page_alloc): / { flush(); ev = $0; next }
	/=> (allocate_slab|new_slab|___slab_alloc)/ { slab = 1 }
	END { flush() }' "$TRACE/trace"
}
if [ -n "$TRACE" ]; then
	modprobe "$M"
	q='-t;'
	n=$((4095 / ${#q}))
	: >"$TRACE/trace"
	echo 0 >"$TRACE/tracing_on"
	echo 'bytes_req > 8192' >"$TRACE/events/kmem/kmalloc/filter"
	echo 'order > 1' >"$TRACE/events/kmem/mm_page_alloc/filter"
	echo 1 >"$TRACE/options/stacktrace"
	echo 1 >"$TRACE/events/kmem/kmalloc/enable"
	echo 1 >"$TRACE/events/kmem/mm_page_alloc/enable"
	i=0
	while [ $i -lt $n ]; do printf '%s' "$q"; i=$((i + 1)); done >/tmp/dd-memory.q
	# The events of the dd that writes, only: it is started first (its
	# fork allocates a stack), then fed the queries through a FIFO in one
	# write of less than PIPE_BUF, which it reads whole.
	rm -f /tmp/dd-memory.fifo
	mkfifo /tmp/dd-memory.fifo
	dd if=/tmp/dd-memory.fifo of="$DD_CONTROL" bs=4096 2>/dev/null &
	writer=$!
	echo $writer >"$TRACE/set_event_pid"
	echo 1 >"$TRACE/tracing_on"
	cat /tmp/dd-memory.q >/tmp/dd-memory.fifo
	wait $writer
	rc=$?
	echo 0 >"$TRACE/tracing_on"
	echo 0 >"$TRACE/options/stacktrace"
	rm -f /tmp/dd-memory.fifo
	echo 0 >"$TRACE/events/kmem/kmalloc/enable"
	echo 0 >"$TRACE/events/kmem/mm_page_alloc/enable"
	echo 0 >"$TRACE/events/kmem/kmalloc/filter"
	echo 0 >"$TRACE/events/kmem/mm_page_alloc/filter"
	: >"$TRACE/set_event_pid"
	big=$(large_allocs)
	echo 1 >"$TRACE/tracing_on"
	rm -f /tmp/dd-memory.q
	ktap_check "a write of $n queries ($((n * ${#q})) bytes) is applied" test $rc = 0
	WHY="allocations over 8 KiB or of order 2 or more: $big"
	ktap_check "it makes no allocation over 8 KiB or 2 pages" test -z "$big"
	rmmod "$M"
else
	why="no kmem trace events (CONFIG_TRACING)"
	ktap_skip "a write of many queries is applied" "$why"
	ktap_skip "it makes no allocation over 8 KiB or 2 pages" "$why"
fi

# ------------------------------------ allocation failures are reported --

# core_text: "START END" of the core's code. Its functions are linked
# together; take the symbols only the core defines and drop any far from
# the others (kernel/module/main.c has static dynamic_debug_* helpers).
core_text()
{
	grep -E ' [tT] (ddebug_|__dynamic_|dynamic_debug_)' /proc/kallsyms |
		awk '{ print $1 }' | sort | awk '
		# Kernel text is within one 4 GiB window: hex of the low half.
		function low(s,   i, v) {
			v = 0
			for (i = 9; i <= 16; i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		function hex(v,   s, i) {
			for (i = 0; i < 8; i++) {
				s = substr("0123456789abcdef", v % 16 + 1, 1) s
				v = int(v / 16)
			}
			return s
		}
		{ hi32 = substr($1, 1, 8); a[NR] = low($1) }
		END {
			if (!NR) exit 1
			m = a[int((NR + 1) / 2)]; lo = hi = m
			for (i = 1; i <= NR; i++)
				if (a[i] > m - 131072 && a[i] < m + 131072) {
					if (a[i] < lo) lo = a[i]
					if (a[i] > hi) hi = a[i]
				}
			print "0x" hi32 hex(lo), "0x" hi32 hex(hi + 4096)
		}'
}

# fail_load N: load the module with dyndbg=+p, failing the core's Nth
# allocation. Prints "failed" if the module did not load.
fail_load()
{
	log_clear
	(echo "$1" >/proc/self/fail-nth && exec modprobe "$M" dyndbg=+p) 2>/dev/null ||
		echo failed
}

if [ -d "$FS" ] && [ -w /proc/self/fail-nth ] && [ -f "$FS/require-start" ] &&
   range=$(core_text) && [ -n "$range" ]; then
	set -- $range
	echo "$1" >"$FS/require-start"
	echo "$2" >"$FS/require-end"
	echo 32 >"$FS/stacktrace-depth"
	echo N >"$FS/ignore-gfp-wait"
	echo 1 >"$FS/verbose"
	n=0
	failed=0
	quiet=0
	silent=
	# A failure of an allocation made with __GFP_NOWARN is not logged
	# (kvmalloc()'s first try, which falls back): go on until three in a
	# row logged none.
	while [ $n -lt 40 ] && [ $quiet -lt 3 ]; do
		n=$((n + 1))
		res=$(fail_load $n)
		log=$(log_text)
		mod_unload "$M"
		if ! printf '%s\n' "$log" | grep -q 'FAULT_INJECTION: forcing a failure'; then
			quiet=$((quiet + 1))
			continue
		fi
		quiet=0
		failed=$((failed + 1))
		# Reported: the load failed (modprobe says why) or the core logged
		# what it could not do.
		said=$(printf '%s\n' "$log" | grep -v FAULT_INJECTION | grep -i 'memory')
		if [ -z "$res" ] && [ -z "$said" ]; then
			silent="$silent $n"
			printf '%s\n' "$log" | grep -v '^ ' | sed 's/^/# /' | head -n 20
		fi
	done
	echo 0 >"$FS/verbose"
	echo 0 >"$FS/require-start"
	echo 0xffffffffffffffff >"$FS/require-end"
	ktap_diag "$failed of the core's allocations failed in turn while $M loaded with dyndbg=+p"
	WHY="failed in silence: allocations$silent"
	ktap_check "failing each of them fails the load or is reported" \
		test "$failed" -gt 0 -a -z "$silent"
	ktap_check "the module loads normally afterwards" \
		sh -c "modprobe $M dyndbg=+p && rmmod $M"
else
	ktap_skip "failing each allocation is reported" "no failslab stack filter or fail-nth"
	ktap_skip "the module loads normally afterwards" "no failslab stack filter or fail-nth"
fi

ktap_finish
