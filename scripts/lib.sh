# SPDX-License-Identifier: GPL-2.0
#
# Shared functions of the dyndbg harness. Sourced by scripts/harness.sh and
# scripts/check.sh with the repository top as the current directory.

IMPL=${IMPL:-ours}
V=${V:-0}
VARIANT=${VARIANT:-}
SCRIPT=${SCRIPT:-}
APPEND=${APPEND:-}
ARCH=x86_64
export ARCH

case "$IMPL" in
ours|upstream) ;;
*) echo "IMPL must be 'ours' or 'upstream', not '$IMPL'" >&2; exit 2 ;;
esac

BUILD=$TOP/build
SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
PRISTINE=$BUILD/src/linux-source-6.12
OURS_TREE=$BUILD/src/ours
OUT=$BUILD/$IMPL${VARIANT:+-$VARIANT}
OBJ=$OUT/obj
JOBS=$(nproc)
QEMU_TIMEOUT=${QEMU_TIMEOUT:-600}
# Guests run their 2 CPUs on one host thread (round-robin TCG). Multi-
# threaded TCG loses cross-CPU code patching: a CPU keeps running a stale
# translation holding the int3 of a finished text_poke_bp(), and 6.12's
# own core oopses ("Oops: int3") within seconds when one CPU patches a
# function another CPU runs. QEMU_TCG_THREAD=multi brings it back.
QEMU_TCG_THREAD=${QEMU_TCG_THREAD:-single}

if [ "$IMPL" = ours ]; then
	TREE=$OURS_TREE
else
	TREE=$PRISTINE
fi

# Our files that are laid over the pristine tree at the same paths.
OVERLAY_DIRS="include lib tools Documentation"
SELFTEST_DIR=tools/testing/selftests/dynamic_debug

DEB_PACKAGES="linux-source-6.12 linux-config-6.12 qemu-system-x86 busybox-static bc bison flex \
libelf-dev libssl-dev cpio kmod ccache rsync xz-utils python3 sparse \
binutils gcc make perl"

msg()  { echo "  ${1}"; }
info() { [ "$V" = 1 ] && echo "  $*" >&2; return 0; }
die()  { echo "harness: error: $*" >&2; exit 1; }

# Run a command quietly; show its output only when it fails (or V=1).
quiet() {
	local log
	if [ "$V" = 1 ]; then
		"$@"
		return
	fi
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		tail -n 60 "$log" >&2
		rm -f "$log"
		die "failed: $*"
	fi
	rm -f "$log"
}

# CCACHE_BASEDIR makes cached objects reusable across checkouts (worktrees,
# clean clones): paths under $TOP are hashed relative to the build directory.
kmake() {
	local cc=gcc
	command -v ccache >/dev/null && cc="ccache gcc"
	export CCACHE_BASEDIR=$TOP
	make -C "$TREE" O="$OBJ" ARCH=$ARCH CC="$cc" -j"$JOBS" \
		KBUILD_BUILD_TIMESTAMP='2024-11-17 00:00 UTC' KBUILD_BUILD_USER=dyndbg \
		KBUILD_BUILD_HOST=harness ${MAKE_EXTRA:-} "$@"
}

# ---------------------------------------------------------------- deps --

do_deps() {
	local missing="" p stamp=$BUILD/.deps-ok
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$DEB_PACKAGES" ]; then
		return 0
	fi
	for p in $DEB_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		msg "APT    installing:$missing"
		[ "$(id -u)" = 0 ] || die "need root to install:$missing"
		export DEBIAN_FRONTEND=noninteractive
		quiet apt-get update -q
		quiet apt-get install -y -q --no-install-recommends $missing
	fi
	mkdir -p "$BUILD"
	echo "$DEB_PACKAGES" >"$stamp"
}

# ---------------------------------------------------------------- trees --

kernel_version_of() {
	make -s -C "$1" kernelversion 2>/dev/null
}

prepare_pristine() {
	if [ ! -f "$BUILD/src/.pristine-ok" ]; then
		[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL missing (linux-source-6.12)"
		msg "UNPACK $SRC_TARBALL"
		rm -rf "$PRISTINE"
		mkdir -p "$BUILD/src"
		tar -xJf "$SRC_TARBALL" -C "$BUILD/src"
		[ -f "$PRISTINE/Makefile" ] || die "unexpected tarball layout"
		touch "$BUILD/src/.pristine-ok"
	fi
	if [ ! -f "$BUILD/src/.version" ]; then
		kernel_version_of "$PRISTINE" >"$BUILD/src/.version"
	fi
	msg "KERNEL linux $(cat "$BUILD/src/.version") (pristine: ${PRISTINE#"$TOP"/})"
}

# List the files our repository lays over the pristine tree.
overlay_files() {
	find $OVERLAY_DIRS -type f \
		! -name '*.o' ! -name '*.ko' ! -name '*.mod' ! -name '*.mod.c' \
		! -name '.*.cmd' ! -name 'modules.order' ! -name 'Module.symvers' \
		! -name '*.orig' ! -name '*.rej' ! -name '*~' 2>/dev/null | sort || true
}

# Lay our files and patches over a hard-linked copy of the pristine tree.
# Only files whose content changed are rewritten, so make rebuilds only
# what depends on them. rsync and patch replace files by rename, which
# breaks the hard link instead of writing through to the pristine tree.
prepare_ours() {
	local stage=$BUILD/ours-stage manifest=$OURS_TREE/.dyndbg-manifest
	local f p

	if [ ! -f "$OURS_TREE/.dyndbg-tree" ]; then
		msg "COPY   pristine -> ${OURS_TREE#"$TOP"/}"
		rm -rf "$OURS_TREE"
		cp -al "$PRISTINE" "$OURS_TREE"
		: >"$manifest"
		touch "$OURS_TREE/.dyndbg-tree"
	fi

	rm -rf "$stage"
	mkdir -p "$stage"
	overlay_files | while read -r f; do
		mkdir -p "$stage/$(dirname "$f")"
		cp -p "$f" "$stage/$f"
	done
	for p in $(ls patches/*.patch 2>/dev/null | sort); do
		for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
			[ -e "$stage/$f" ] && continue
			mkdir -p "$stage/$(dirname "$f")"
			if [ -f "$PRISTINE/$f" ]; then
				cp -p "$PRISTINE/$f" "$stage/$f"
			fi
		done
		patch -s -p1 -d "$stage" --no-backup-if-mismatch <"$p" ||
			die "patch $p does not apply"
	done

	(cd "$stage" && find . -type f | sed 's|^\./||' | sort) >"$stage.list"

	# Files we laid over earlier but no longer provide go back to pristine.
	comm -23 "$manifest" "$stage.list" | while read -r f; do
		rm -f "$OURS_TREE/$f"
		if [ -f "$PRISTINE/$f" ]; then
			cp -p "$PRISTINE/$f" "$OURS_TREE/$f"
		fi
	done

	rsync -rc "$stage/" "$OURS_TREE/"
	cp "$stage.list" "$manifest"

	# Upstream's implementation must never reach our build.
	rm -f "$OURS_TREE/lib/dynamic_debug.c"
}

do_tree() {
	prepare_pristine
	if [ "$IMPL" = ours ]; then
		prepare_ours
	fi
}

# --------------------------------------------------------------- config --

config_fragments() {
	echo "$TOP/scripts/config.fragment"
	[ "$IMPL" = ours ] && echo "$TOP/scripts/config-ours.fragment"
	[ -f "$TOP/$SELFTEST_DIR/config" ] && echo "$TOP/$SELFTEST_DIR/config"
	if [ -n "$VARIANT" ]; then
		[ -f "$TOP/scripts/variants/$VARIANT.config" ] ||
			die "no scripts/variants/$VARIANT.config"
		echo "$TOP/scripts/variants/$VARIANT.config"
	fi
	return 0
}

# Every option the fragments set (the last fragment to name an option
# wins, as in merge_config.sh) must survive olddefconfig.
verify_config() {
	local cfg=$1 opt want got from bad=0
	while read -r opt want from; do
		got=$(grep -E "^$opt=" "$cfg" | head -n 1 | cut -d= -f2-)
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			echo "harness: config: $opt=$want dropped (got $got) [$from]" >&2
			bad=1
		fi
	done < <(for frag in $(config_fragments); do
			sed -n -e "s|^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)|\1 \2 ${frag#"$TOP"/}|p" \
			       -e "s|^# \(CONFIG_[A-Za-z0-9_]*\) is not set|\1 n ${frag#"$TOP"/}|p" "$frag"
		 done | awk '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
			     END { for (i = 0; i < n; i++) print last[order[i]] }')
	return $bad
}

# Generate the config in a scratch directory and install it only if it
# differs, so an unchanged config never triggers a rebuild.
# config_key FILE...: a digest of what decides a configuration: FILEs
# (fragments, a distribution's config), the tree, and our Kconfig files
# and patches. The pristine tree itself never changes.
config_key() {
	{
		echo "$ARCH $TREE $IMPL"
		cat "$@"
		if [ "$IMPL" = ours ]; then
			find "$TOP/patches" "$TOP/lib" -type f \
				\( -name '*.patch' -o -name 'Kconfig*' \) | sort | xargs cat
		fi
	} | sha256sum | cut -d' ' -f1
}

# config_is_current KEYFILE KEY: the .config of $OBJ was made from KEY.
config_is_current() {
	[ -f "$OBJ/.config" ] && [ "$(cat "$1" 2>/dev/null)" = "$2" ]
}

do_config() {
	local kc=$OUT/kconfig key
	key=$(config_key $(config_fragments) "$TOP/scripts/lib.sh")
	if config_is_current "$OUT/config.key" "$key"; then
		info "CONFIG ${OBJ#"$TOP"/}/.config is up to date"
		return 0
	fi
	rm -f "$OUT/config.key"
	mkdir -p "$kc" "$OBJ"
	info "CONFIG tinyconfig + $(config_fragments | sed "s|$TOP/||" | tr '\n' ' ')"
	quiet make -C "$TREE" O="$kc" ARCH=$ARCH tinyconfig
	quiet "$TREE/scripts/kconfig/merge_config.sh" -m -O "$kc" "$kc/.config" \
		$(config_fragments)
	quiet make -C "$TREE" O="$kc" ARCH=$ARCH olddefconfig
	verify_config "$kc/.config" || die "config fragment options were dropped"
	if ! cmp -s "$kc/.config" "$OBJ/.config"; then
		msg "CONFIG ${OBJ#"$TOP"/}/.config"
		cp "$kc/.config" "$OBJ/.config"
	fi
	echo "$key" >"$OUT/config.key"
}

# ---------------------------------------------------------------- build --

kernel_release() {
	cat "$OBJ/include/config/kernel.release"
}

do_build() {
	msg "BUILD  $IMPL${VARIANT:+ ($VARIANT)}: bzImage modules"
	quiet kmake bzImage modules
	[ -f "$OBJ/arch/x86/boot/bzImage" ] || die "no bzImage"
}

do_test_modules() {
	local tm=$OUT/test_modules
	[ -d "$SELFTEST_DIR/test_modules" ] || return 0
	ls "$SELFTEST_DIR"/test_modules/*.c >/dev/null 2>&1 || return 0
	mkdir -p "$tm"
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod*' --exclude=modules.order \
		--exclude=Module.symvers "$SELFTEST_DIR/test_modules/" "$tm/"
	msg "BUILD  test modules"
	quiet kmake M="$tm" modules
}

do_all_build() {
	do_deps
	do_tree
	do_config
	do_build
	do_test_modules
}

do_clean() {
	msg "CLEAN  ${OUT#"$TOP"/}"
	rm -rf "$OUT"
}

# ------------------------------------------------------------ initramfs --

# The base archive: BusyBox, init, modules, selftests. The script to run
# goes into a second small archive appended at boot time.
do_initramfs() {
	local root=$OUT/initramfs kver f
	kver=$(kernel_release)
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc/modprobe.d,proc,sys,dev,tmp,root,run,selftests}
	cp /bin/busybox "$root/bin/busybox"
	cp scripts/guest/init "$root/init"
	cp scripts/guest/*.sh "$root/bin/" 2>/dev/null || true
	chmod +x "$root/init" "$root"/bin/*
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
	# root, and a user for the selftests' permission checks.
	printf 'root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

	quiet kmake INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install
	if ls "$OUT"/test_modules/*.ko >/dev/null 2>&1; then
		mkdir -p "$root/lib/modules/$kver/extra"
		cp "$OUT"/test_modules/*.ko "$root/lib/modules/$kver/extra/"
	fi
	depmod -b "$root" "$kver"

	if [ -d "$SELFTEST_DIR" ]; then
		mkdir -p "$root/selftests/dynamic_debug"
		for f in "$SELFTEST_DIR"/*; do
			[ -f "$f" ] && cp "$f" "$root/selftests/dynamic_debug/"
		done
	fi
	echo "$IMPL" >"$root/etc/dyndbg-impl"
	echo "${VARIANT:-default}" >"$root/etc/dyndbg-variant"

	(cd "$root" && find . -print0 | sort -z |
		cpio --null -o -H newc --quiet) >"$OUT/initramfs.cpio"
	info "INITRAMFS $(du -h "$OUT/initramfs.cpio" | cut -f1)"
}

# Append a second archive holding /run.sh to the base one.
make_payload() {
	local script=$1 dest=$2 tmp
	tmp=$(mktemp -d)
	cp "$script" "$tmp/run.sh"
	chmod +x "$tmp/run.sh"
	(cd "$tmp" && echo run.sh | cpio -o -H newc --quiet) >"$tmp/p.cpio"
	cat "$OUT/initramfs.cpio" "$tmp/p.cpio" >"$dest"
	rm -rf "$tmp"
}

# ----------------------------------------------------------------- boot --

# boot_script SCRIPT LOG [APPEND...]: boot, run SCRIPT in the guest, keep
# the whole console in LOG, print the script's output and return its exit
# status (124 when the guest timed out, 125 when it died before the end).
boot_script() {
	local script=$1 log=$2 append=$3 cpio rc
	cpio=$OUT/run-$$.cpio
	make_payload "$script" "$cpio"
	info "QEMU   $(basename "$script") [$append]"
	rc=0
	timeout --foreground "$QEMU_TIMEOUT" \
		qemu-system-x86_64 -accel tcg,thread=$QEMU_TCG_THREAD -cpu max -m 1024 \
		-smp 2 -nographic -no-reboot \
		-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$cpio" \
		-append "console=ttyS0 panic=-1 printk.time=1 $append" \
		</dev/null >"$log" 2>&1 || rc=$?
	rm -f "$cpio"
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	if [ $rc = 124 ]; then
		echo "harness: guest timed out after ${QEMU_TIMEOUT}s (log: ${log#"$TOP"/})" >&2
		return 124
	fi
	rc=$(sed -n 's/^@@DYNDBG-EXIT=\([0-9]*\)@@$/\1/p' "$log" | tail -n 1)
	if [ -z "$rc" ]; then
		echo "harness: guest died before the script ended (log: ${log#"$TOP"/})" >&2
		return 125
	fi
	return "$rc"
}

# Script output is what the guest printed between the two markers.
script_output() {
	sed -n '/^@@DYNDBG-BEGIN@@$/,/^@@DYNDBG-EXIT=/p' "$1" | sed '1d;$d'
}

# Kernel reports that must fail a run. Print them; return 0 if any.
kernel_problems() {
	grep -E '^\[ *[0-9]+\.[0-9]+\] (WARNING:|BUG:|Oops|Kernel panic|kernel BUG|general protection fault|Unable to handle|UBSAN:|.*KASAN:|.*(possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|blocked for more than|list_(add|del) corruption|refcount_t:))' "$1"
}

do_run() {
	local log=$OUT/run.log rc=0
	msg "BOOT   $IMPL kernel, demo (console: ${log#"$TOP"/})"
	boot_script scripts/demo.sh "$log" \
		"ddebug_query=\"file kobject.c +p\" $APPEND" || rc=$?
	# The demo's headings are bold on a terminal, plain in a log.
	if [ -t 1 ]; then
		script_output "$log"
	else
		script_output "$log" | sed 's/\x1b\[[0-9;]*m//g'
	fi
	if kernel_problems "$log" >/dev/null; then
		kernel_problems "$log"
		rc=1
	fi
	return $rc
}

do_vm_run() {
	local log=$OUT/vm-run.log rc=0
	[ -n "$SCRIPT" ] || die "usage: make vm-run SCRIPT=FILE [APPEND=...]"
	[ -f "$SCRIPT" ] || die "no such script: $SCRIPT"
	boot_script "$SCRIPT" "$log" "$APPEND" || rc=$?
	script_output "$log"
	if kernel_problems "$log" >/dev/null; then
		echo "harness: kernel problems in ${log#"$TOP"/}:" >&2
		kernel_problems "$log" >&2
		[ $rc = 0 ] && rc=1
	fi
	[ $rc = 0 ] || echo "harness: guest script exited with status $rc" >&2
	return $rc
}

do_shell() {
	local cpio=$OUT/shell.cpio
	make_payload scripts/guest/shell.sh "$cpio"
	msg "BOOT   $IMPL kernel, interactive shell (poweroff: 'exit' or Ctrl-D)"
	qemu-system-x86_64 -accel tcg,thread=$QEMU_TCG_THREAD -cpu max -m 1024 -smp 2 \
		-nographic -no-reboot \
		-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$cpio" \
		-append "console=ttyS0 panic=-1 $APPEND"
}
