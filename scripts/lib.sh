# SPDX-License-Identifier: GPL-2.0
#
# The harness's functions: prepare the overlay tree, configure, build,
# make the initramfs, boot QEMU and read KTAP. Sourcing defines functions
# and constants only; setup IMPL [VARIANT] chooses what they work on.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# DYNDBG_BUILD (make patch-check): another build directory, whose src/ours
# is a finished tree used as it is, never overlaid.
BUILD=${DYNDBG_BUILD:-$TOP/build}
PRISTINE=$BUILD/src/linux-source-6.12
OURS_TREE=$BUILD/src/ours
SELFTEST_DIR=tools/testing/selftests/dynamic_debug
KTAP_HELPERS=$PRISTINE/tools/testing/selftests/kselftest/ktap_helpers.sh
PROBLEMS=$TOP/scripts/kernel-problems
# Guests run their 2 CPUs on one host thread (round-robin TCG). Multi-
# threaded TCG loses cross-CPU code patching: a CPU keeps running a stale
# translation holding the int3 of a finished text_poke_bp(), and 6.12's
# own core oopses ("Oops: int3") within seconds when one CPU patches a
# function another CPU runs. QEMU_TCG_THREAD=multi brings it back.
QEMU_TCG_THREAD=${QEMU_TCG_THREAD:-single}
DEB_PACKAGES="linux-source-6.12 linux-config-6.12 qemu-system-x86 busybox-static bc bison flex \
libelf-dev libssl-dev cpio kmod ccache rsync xz-utils python3 sparse binutils gcc make perl"
# Which core every script works on unless told: ours, or upstream's.
export IMPL=${IMPL:-ours}
# GUEST_ARCH=x86_64|arm64|riscv64|s390x: the architecture the kernel is
# built for (with Debian's cross compiler) and booted as (QEMU's virt
# machine for arm64 and riscv64, s390-ccw-virtio for s390x), with its
# packages, image, console and QEMU arguments.
# Outside x86_64 the build directories gain the suffix (build/ours-arm64)
# and scripts/arch/GUEST_ARCH.config is merged after the other fragments.
GUEST_ARCH=${GUEST_ARCH:-x86_64}
ARCH_SUFFIX=-$GUEST_ARCH
BUSYBOX=/bin/busybox
case "$GUEST_ARCH" in
x86_64)	export ARCH=x86_64
	ARCH_SUFFIX=
	KIMAGE=arch/x86/boot/bzImage CONSOLE=ttyS0 ARCH_APPEND=no_timer_check
	QEMU_ARCH=(qemu-system-x86_64 -cpu max) ;;
arm64)	export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
	DEB_ARCH=arm64
	DEB_PACKAGES="$DEB_PACKAGES qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross dpkg-dev"
	KIMAGE=arch/arm64/boot/Image CONSOLE=ttyAMA0 ARCH_APPEND=
	# An implementation-defined pointer authentication: QEMU's
	# architected one (QARMA) costs TCG much time on every call.
	QEMU_ARCH=(qemu-system-aarch64 -M virt -cpu 'max,pauth-impdef=on') ;;
riscv64) export ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-
	DEB_PACKAGES="$DEB_PACKAGES qemu-system-misc opensbi gcc-riscv64-linux-gnu libc6-dev-riscv64-cross dpkg-dev"
	KIMAGE=arch/riscv/boot/Image CONSOLE=ttyS0 ARCH_APPEND=
	QEMU_ARCH=(qemu-system-riscv64 -M virt) ;;
s390x)	export ARCH=s390 CROSS_COMPILE=s390x-linux-gnu-
	DEB_ARCH=s390x
	DEB_PACKAGES="$DEB_PACKAGES qemu-system-misc gcc-s390x-linux-gnu libc6-dev-s390x-cross dpkg-dev"
	KIMAGE=arch/s390/boot/bzImage CONSOLE=ttysclp0 ARCH_APPEND=
	QEMU_ARCH=(qemu-system-s390x -M s390-ccw-virtio -cpu qemu) ;;
*)	echo "harness: error: GUEST_ARCH must be x86_64, arm64, riscv64 or s390x, not '$GUEST_ARCH'" >&2
	exit 1 ;;
esac
[ -z "$ARCH_SUFFIX" ] || BUSYBOX=$BUILD/busybox$ARCH_SUFFIX/busybox

msg()  { echo "  $*" >&2; }
die()  { echo "harness: error: $*" >&2; exit 1; }

# Upstream's side of a comparison, kept in the repository: what upstream
# 6.12 prints depends only on inputs this project never changes (the
# pristine tree, Debian's compilers and configs), which KEY digests.
# record_read FILE KEY: FILE's body, if it was recorded for KEY (and
# UPSTREAM_LIVE is not set); record_write FILE KEY: stdin, under KEY.
record_read() {
	[ -z "${UPSTREAM_LIVE:-}" ] && [ "$(zcat -f "$1" 2>/dev/null | head -n 1)" = "@K $2" ] &&
		zcat -f "$1" | tail -n +2
}
record_write() {
	mkdir -p "$(dirname "$1")"
	case $1 in
	*.gz)	{ echo "@K $2"; cat; } | gzip -9n >"$1" ;;
	*)	{ echo "@K $2"; cat; } >"$1" ;;
	esac
	msg "RECORD ${1#"$TOP"/} for $2: commit it"
}

# record_key WORDS...: a key over WORDS, the pristine tree's package and
# the compilers named in them.
record_key() {
	{ echo "$*"; dpkg-query -W -f='${Package} ${Version}\n' linux-source-6.12 linux-config-6.12
	  for c in gcc "$@"; do
		case $c in *gcc|clang) "$c" --version 2>/dev/null | head -n 1 ;; esac
	  done; } | sha256sum | cut -c1-16
}

# setup IMPL [VARIANT]: work on IMPL's kernel, with scripts/variants/VARIANT.config.
setup() {
	IMPL=$1 VARIANT=${2:-}
	case "$IMPL" in ours|upstream) ;; *) die "IMPL must be ours or upstream, not '$IMPL'" ;; esac
	TREE=$OURS_TREE
	[ "$IMPL" = ours ] || TREE=$PRISTINE
	OUT=$BUILD/$IMPL$ARCH_SUFFIX${VARIANT:+-$VARIANT}
	OBJ=$OUT/obj
	mkdir -p "$OUT"
}

# quiet CMD...: run CMD; show its output only when it fails (or V=1).
quiet() {
	local log rc=0
	[ "${V:-0}" = 1 ] && { "$@"; return; }
	log=$(mktemp)
	"$@" >"$log" 2>&1 || rc=$?
	[ $rc = 0 ] || { tail -n 60 "$log" >&2; echo "harness: failed: $*" >&2; }
	rm -f "$log"
	return $rc
}

# kmake ARGS...: make in $TREE for $OBJ. CCACHE_BASEDIR lets checkouts
# share cached objects: paths under $TOP are hashed relative to it.
kmake() {
	local cc=${CROSS_COMPILE:-}gcc hostcc=gcc
	command -v ccache >/dev/null && cc="ccache $cc" hostcc="ccache gcc"
	CCACHE_BASEDIR=$TOP make -C "$TREE" O="$OBJ" CC="$cc" HOSTCC="$hostcc" -j"$(nproc)" \
		KBUILD_BUILD_TIMESTAMP='2024-11-17 00:00 UTC' KBUILD_BUILD_USER=dyndbg \
		KBUILD_BUILD_HOST=harness "$@"
}

# apt_install STAMP PACKAGES...: install the PACKAGES that are missing,
# once per list (STAMP remembers the list installed).
apt_install() {
	local stamp=$1 missing
	shift
	[ "$(cat "$stamp" 2>/dev/null)" = "$*" ] && return 0
	missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2>&1 | awk '!/^ii/ { print $NF }')
	if [ -n "$missing" ]; then
		msg "APT    installing:" $missing
		DEBIAN_FRONTEND=noninteractive quiet apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			quiet apt-get install -y -q --no-install-recommends $missing || die "could not install:" $missing
	fi
	mkdir -p "$BUILD" && echo "$*" >"$stamp"
}

# do_deps: the harness's packages, and GUEST_ARCH's.
do_deps() { apt_install "$BUILD/.deps-ok$ARCH_SUFFIX" $DEB_PACKAGES; }

# apt_src: a deb-src entry for the Debian release this machine runs, on the
# mirror it already uses (its deb822 entry naming the release), once.
apt_src() {
	local list=/etc/apt/sources.list.d/dyndbg-deb-src.sources rel entry
	[ -f "$list" ] && return 0
	rel=$(. /etc/os-release && echo "$VERSION_CODENAME")
	entry=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v RS= -v rel="$rel" '
		/(^|\n)Types:[^\n]*deb/ && $0 ~ "\nSuites:([^\n]*[ \t])?" rel "([ \t]|\n|$)" {
			sub(/Types:[^\n]*/, "Types: deb-src"); print; exit }')
	[ -n "$entry" ] || die "no deb822 apt entry for $rel to add a deb-src entry beside"
	msg "APT    deb-src entry: $list"
	echo "$entry" >"$list" && DEBIAN_FRONTEND=noninteractive quiet apt-get update -q
}

# deb_busybox: BUSYBOX from Debian's busybox-static for GUEST_ARCH's
# Debian architecture (DEB_ARCH), which dpkg learns to fetch.
deb_busybox() {
	local tmp rc=0
	if ! dpkg --print-foreign-architectures | grep -qx "$DEB_ARCH"; then
		msg "APT    dpkg --add-architecture $DEB_ARCH"
		dpkg --add-architecture "$DEB_ARCH" &&
			DEBIAN_FRONTEND=noninteractive quiet apt-get update -q || return 1
	fi
	msg "APT    busybox-static:$DEB_ARCH -> ${BUSYBOX#"$TOP"/}"
	tmp=$(mktemp -d)
	(cd "$tmp" && quiet apt-get download -q "busybox-static:$DEB_ARCH") &&
		dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/root" &&
		install -D -m 755 "$tmp/root/bin/busybox" "$BUSYBOX" || rc=1
	rm -rf "$tmp"
	return $rc
}

# do_busybox: BUSYBOX for a foreign GUEST_ARCH: Debian's own binary where
# Debian has the architecture (arm64), else (riscv64: Debian 12 has no
# such port) built once from Debian's busybox source package with the
# configuration of its busybox-static and the cross compiler.
do_busybox() {
	local dir=${BUSYBOX%/*} src=$BUILD/busybox-src bb
	[ -x "$BUSYBOX" ] && return 0
	[ -z "${DEB_ARCH:-}" ] || { deb_busybox; return; }
	if [ ! -f "$src/.ok" ]; then
		apt_src || return 1
		msg "APT    source busybox -> ${src#"$TOP"/}"
		rm -rf "$src" && mkdir -p "$src" &&
			(cd "$src" && quiet apt-get source -q busybox) && touch "$src/.ok" || return 1
	fi
	bb=$(ls -d "$src"/busybox-*/debian) && bb=${bb%/debian} || return 1
	msg "BUILD  busybox ($GUEST_ARCH, static)"
	# As debian/rules configures and builds its static flavour.
	rm -rf "$dir" && mkdir -p "$dir" &&
		cat "$bb/debian/config/os/linux" "$bb/debian/config/pkg/static" >"$dir/.config" &&
		{ yes "" || :; } | quiet make -C "$dir" -f "$bb/Makefile" KBUILD_SRC="$bb" silentoldconfig &&
		quiet make -C "$dir" -j"$(nproc)" CROSS_COMPILE="$CROSS_COMPILE" CC="ccache ${CROSS_COMPILE}gcc" \
			busybox
}

prepare_pristine() {
	[ -f "$BUILD/src/.pristine-ok" ] && return 0
	msg "UNPACK /usr/src/linux-source-6.12.tar.xz"
	rm -rf "$PRISTINE" && mkdir -p "$BUILD/src" &&
		tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$BUILD/src" && touch "$BUILD/src/.pristine-ok"
}

# Lay our files and patches over a hard-linked copy of the pristine tree,
# rewriting only files whose content changed (so make rebuilds only what
# depends on them). rsync and patch replace files by rename, which breaks
# the hard link instead of writing through to the pristine tree.
prepare_ours() {
	local stage=$BUILD/ours-stage manifest=$OURS_TREE/.dyndbg-manifest f p
	if [ ! -f "$OURS_TREE/.dyndbg-tree" ]; then
		msg "COPY   pristine -> build/src/ours"
		rm -rf "$OURS_TREE" && cp -al "$PRISTINE" "$OURS_TREE" &&
			: >"$manifest" && touch "$OURS_TREE/.dyndbg-tree"
	fi
	rm -rf "$stage" && mkdir -p "$stage"
	git -C "$TOP" ls-files --cached --others --exclude-standard \
		include lib tools Documentation | rsync -a --ignore-missing-args --files-from=- "$TOP/" "$stage/"
	for p in "$TOP"/patches/*.patch; do
		for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
			[ -e "$stage/$f" ] || [ ! -f "$PRISTINE/$f" ] ||
				install -D -p "$PRISTINE/$f" "$stage/$f"
		done
		patch -s -p1 -d "$stage" --no-backup-if-mismatch <"$p" || die "patch $p does not apply"
	done
	(cd "$stage" && find . -type f | sed 's|^\./||' | sort) >"$stage.list"
	# Files we laid over earlier but no longer provide go back to pristine.
	comm -23 "$manifest" "$stage.list" | while read -r f; do
		rm -f "$OURS_TREE/$f" && { [ ! -f "$PRISTINE/$f" ] || cp -p "$PRISTINE/$f" "$OURS_TREE/$f"; }; done
	rsync -rc "$stage/" "$OURS_TREE/" && cp "$stage.list" "$manifest"
	rm -f "$OURS_TREE/lib/dynamic_debug.c"	# upstream's core never builds here
}

# Both trees: IMPL=upstream still takes the selftests from ours. Suites
# that run side by side (scripts/check.sh) take turns.
do_tree() {
	mkdir -p "$BUILD" &&
		{ flock 9 && prepare_pristine && { [ -n "${DYNDBG_BUILD:-}" ] || prepare_ours; }; } 9>"$BUILD/.tree.lock"
}

config_fragments() {
	echo "$TOP/scripts/config.fragment"
	[ "$IMPL" = upstream ] || echo "$TOP/scripts/config-ours.fragment"
	echo "$TOP/$SELFTEST_DIR/config"
	[ -z "$VARIANT" ] || echo "$TOP/scripts/variants/$VARIANT.config"
	[ ! -f "$TOP/scripts/arch/$GUEST_ARCH.config" ] || echo "$TOP/scripts/arch/$GUEST_ARCH.config"
}

# verify_config CONFIG: every option the fragments set (the last to name
# it wins, as in merge_config.sh) survived olddefconfig.
verify_config() {
	local opt want got bad=0
	while read -r opt want; do
		got=$(sed -n "s/^$opt=//p" "$1")
		[ "${got:-n}" = "$want" ] || { echo "harness: config: $opt=$want dropped (got ${got:-n})" >&2; bad=1; }
	done < <(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
			-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 n/p' $(config_fragments) |
		 awk '{ v[$1] = $2 } END { for (k in v) print k, v[k] }')
	return $bad
}

# config_key FILE...: a digest of what decides a configuration: FILEs,
# the tree, and our Kconfig files and patches.
config_key() {
	{ echo "$TREE $IMPL"; cat "$@"; find "$TOP/patches" "$TOP/lib" -type f \
		\( -name '*.patch' -o -name 'Kconfig*' \) | sort | xargs cat; } | sha256sum
}

# install_config KEY DIR: DIR/.config becomes $OBJ/.config if it differs,
# so an unchanged configuration never triggers a rebuild.
install_config() {
	mkdir -p "$OBJ"
	cmp -s "$2/.config" "$OBJ/.config" || cp "$2/.config" "$OBJ/.config"
	echo "$1" >"$OUT/config.key"
}

config_is_current() { [ -f "$OBJ/.config" ] && [ "$(cat "$OUT/config.key" 2>/dev/null)" = "$1" ]; }

do_config() {
	local kc=$OUT/kconfig key
	key=$(config_key $(config_fragments))
	config_is_current "$key" && return 0
	msg "CONFIG ${OBJ#"$TOP"/}/.config"
	mkdir -p "$kc"
	quiet make -C "$TREE" O="$kc" tinyconfig &&
		quiet "$TREE/scripts/kconfig/merge_config.sh" -m -O "$kc" "$kc/.config" $(config_fragments) &&
		quiet make -C "$TREE" O="$kc" olddefconfig || return 1
	verify_config "$kc/.config" || die "config fragment options were dropped"
	install_config "$key" "$kc"
}

# The test modules are built from a copy; the prefix maps name their
# sources as in the tree (tools/testing/...), wherever the copy is (kbuild
# names it relative to $OBJ).
do_test_modules() {
	local tm=$OUT/test_modules
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*' --exclude='*.mod*' \
		--exclude=modules.order --exclude=Module.symvers "$TOP/$SELFTEST_DIR/test_modules/" "$tm/"
	msg "BUILD  test modules"
	quiet kmake M="$tm" modules KCFLAGS="-fmacro-prefix-map=$tm/=$SELFTEST_DIR/test_modules/ \
		-fmacro-prefix-map=$(realpath -m --relative-to="$OBJ" "$tm")/=$SELFTEST_DIR/test_modules/"
}

do_build() {
	do_deps && do_tree && do_config || return 1
	msg "BUILD  $IMPL${VARIANT:+ ($VARIANT)}${ARCH_SUFFIX:+ ($GUEST_ARCH)}: ${KIMAGE##*/} modules"
	quiet kmake "${KIMAGE##*/}" modules && do_test_modules
}

# do_initramfs: BusyBox, init, the kernel's and the test modules, and the
# kselftests installed as "make -C tools/testing/selftests install" does.
do_initramfs() {
	local root=$OUT/initramfs kver
	kver=$(cat "$OBJ/include/config/kernel.release")
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc/modprobe.d,proc,sys,dev,tmp,root,run,compat}
	do_busybox && cp "$BUSYBOX" "$root/bin/" && cp "$TOP"/scripts/guest/* "$root/bin/" && mv "$root/bin/init" "$root/"
	cp "$TOP"/scripts/compat/{runner.sh,corpus} "$root/compat/"
	echo "$IMPL" >"$root/etc/dyndbg-impl"
	# root, and a user for the selftests' permission checks.
	printf 'root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	quiet kmake INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install &&
		install -D -t "$root/lib/modules/$kver/extra" "$OUT"/test_modules/*.ko &&
		depmod -b "$root" "$kver" &&
		"${CROSS_COMPILE:-}gcc" -static -O2 -s -o "$root/bin/dyndbg_fuzz" "$TOP/$SELFTEST_DIR/fuzz/dyndbg_fuzz.c" &&
		quiet make -C "$TOP/tools/dyndbg" STATIC=1 CC="${CROSS_COMPILE:-}gcc" OUTPUT="$OUT/dyndbg/" &&
		install -s --strip-program="${CROSS_COMPILE:-}strip" "$OUT/dyndbg/dyndbg" "$root/bin/" &&
		quiet make -C "$OURS_TREE/tools/testing/selftests" TARGETS=dynamic_debug \
			TEST_GEN_MODS_DIR= INSTALL_PATH="$root/kselftest" install || return 1
	# Renamed into place: a guest of another suite may be starting from it.
	(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) >"$OUT/initramfs.tmp" &&
		mv "$OUT/initramfs.tmp" "$OUT/initramfs.cpio"
}

# qemu_cmd APPEND INITRD: QEMU becomes the one QEMU command line.
qemu_cmd() {
	QEMU=("${QEMU_ARCH[@]}" -accel tcg,thread=$QEMU_TCG_THREAD -m "${QEMU_MEM:-1024}" -smp 2
		-nographic -no-reboot -kernel "$OBJ/$KIMAGE" -initrd "$2"
		-append "console=$CONSOLE panic=-1 printk.time=1${ARCH_APPEND:+ $ARCH_APPEND} $1")
}

# payload SCRIPT: the initramfs with SCRIPT appended as /run.sh.
payload() {
	local tmp
	tmp=$(mktemp -d)
	install -m 755 "$1" "$tmp/run.sh"
	cat "$OUT/initramfs.cpio" - < <(cd "$tmp" && echo run.sh | cpio -o -H newc --quiet)
	rm -rf "$tmp"
}

# boot SCRIPT LOG APPEND: boot, run SCRIPT in the guest, keep the console
# in LOG and return the script's exit status (124: the guest timed out,
# 125: it died before the script ended).
boot() {
	local cpio=$OUT/run-$$.cpio rc=0
	payload "$1" >"$cpio"
	qemu_cmd "$3" "$cpio"
	timeout --foreground "${QEMU_TIMEOUT:-1200}" "${QEMU[@]}" </dev/null >"$2" 2>&1 || rc=$?
	rm -f "$cpio"
	sed -i 's/\r$//' "$2"
	[ $rc = 124 ] && return 124
	rc=$(sed -n 's/^@@DYNDBG-EXIT=\([0-9]*\)@@$/\1/p' "$2")
	return "${rc:-125}"
}

# Script output is what the guest printed between the two markers.
script_output() { sed -n '/^@@DYNDBG-BEGIN@@$/,/^@@DYNDBG-EXIT=/{//!p}' "$1"; }

# kernel_problems LOG: the console's kernel warnings, oopses, BUGs...
# but those matching PROBLEMS_EXCEPT (an extended regex), if set, which
# a check of their own judges (the KCSAN kernel's data races: matrix.sh).
kernel_problems() {
	sed -n 's/^\[ *[0-9]*\.[0-9]*\] //p' "$1" | grep -E -f <(grep -v -e '^#' -e '^$' "$PROBLEMS") |
		if [ -n "${PROBLEMS_EXCEPT:-}" ]; then grep -Ev "$PROBLEMS_EXCEPT"; else grep .; fi
}

# ktap_counts FILE: "PASS FAIL SKIP" of the leaf results of a KTAP
# document, nested or not, on the last line. A parent that fails with no
# failed leaf, or a plan not kept (named on a line before), is a failure.
# Not kunit.py parse: on these documents (kselftest KTAP nested under
# "# Subtest:" lines, 1,100 lines) it ran for over ten minutes, and on a
# group's part alone it reported [CRASHED]; this takes a fraction of a
# second.
ktap_counts() {
	awk '
	function depth(s) { match(s, /^ */); return RLENGTH }
	function close_below(d,   e) {
		for (e in plan) if (e + 0 > d) {
			if (plan[e] != seen[e] + 0) {
				print "# " name[e] ": plan of " plan[e] " checks, saw " seen[e] + 0; f++
			}
			delete plan[e]
		}
		for (e in seen) if (e + 0 > d) delete seen[e]
	}
	/^ *# Subtest: / { name[depth($0)] = substr($0, depth($0) + 12) }
	/^ *1\.\.[0-9]+/ { plan[depth($0)] = substr($1, 4) + 0; next }
	/^ *(not )?ok [0-9]+/ {
		d = depth($0); close_below(d); seen[d]++
		skip = $0 ~ /# *SKIP/; bad = !skip && $0 ~ /^ *not ok/
		if (!deep[d]) { if (skip) s++; else if (bad) f++; else p++ }
		else if (bad && f == mark[d]) f++
		for (e = 0; e <= 64; e++) if (e < d) deep[e] = 1; else { deep[e] = 0; mark[e] = f }
	}
	END { close_below(-1); print p + 0, f + 0, s + 0 }' "$1"
}

# ktap_group DESC CMD...: run CMD, print its KTAP nested under one result
# that fails when a leaf of it fails or CMD fails; DESC gains the time CMD
# took when that is 5 s or more.
ktap_group() {
	local desc=$1 out p f s rc=0 t0=$SECONDS
	shift
	out=$(mktemp)
	"$@" >"$out" 2>&1 </dev/null || rc=$?
	[ $((SECONDS - t0)) -lt 5 ] || desc="$desc ($((SECONDS - t0))s)"
	read -r p f s < <(ktap_counts "$out" | tail -n 1)
	echo "    # Subtest: $desc"
	sed 's/^/    /' "$out"
	rm -f "$out"
	if [ "$f" = 0 ] && [ $rc = 0 ]; then ktap_test_pass "$desc"; else ktap_test_fail "$desc (exit $rc)"; fi
}

# ktap_sections LOG [MUST_SKIP [PREFIX]]: the guest's KTAP sections,
# nested, described as PREFIX NAME (with its time when 5 s or more). With
# MUST_SKIP (names, "all" for every kselftest, or "-" for none), exactly
# the listed sections must skip; without it, any may skip.
ktap_sections() {
	local log=$1 must=${2:-} pre=${3:-} name rc secs why listed
	for name in $(sed -n 's/^@@KTAP-BEGIN \(.*\)@@$/\1/p' "$log"); do
		read -r rc secs < <(sed -n "s/^@@KTAP-END $name rc=\([0-9]*\) s=\([0-9]*\)@@\$/\1 \2/p" "$log")
		[ "${secs:-0}" -ge 5 ] || secs=
		sed -n "/^@@KTAP-BEGIN $name@@\$/,/^@@KTAP-END $name /{//!p}" "$log" >"$log.$name"
		why=$(sed -n 's/^1\.\.0 # SKIP //p' "$log.$name")
		listed=
		[[ " $must " = *" $name "* || ( " $must " = *" all "* && $name = test-* ) ]] && listed=1
		[ "$rc" = 4 ] && [ -n "$why" ] || why=
		if [ -n "$why" ] && [ -z "$must" ]; then
			ktap_test_skip "$pre$name: $why"
		elif [ -n "$why" ] && [ -n "$listed" ]; then
			ktap_test_pass "$pre$name skips: $why"
		elif [ -n "$why" ]; then
			ktap_test_fail "$pre$name skipped: $why"
		elif [ -n "$listed" ]; then
			ktap_test_fail "$pre$name should skip (exit $rc)"
		else
			ktap_group "$pre$name${secs:+ (${secs}s)}" sh -c "cat '$log.$name'; exit ${rc:-1}"
		fi
		rm -f "$log.$name"
	done
}

# ktap_verdict DESC WHY: pass when WHY is empty, else fail showing it.
ktap_verdict() {
	[ -z "$2" ] && { ktap_test_pass "$1"; return; }
	ktap_test_fail "$1"
	printf '%s\n' "$2" | head -n 40 | sed 's/^/# /'
}

# ktap_boot LOG RC DESC: one result for a boot that must end cleanly.
ktap_boot() {
	local why= nl=$'\n'
	case $2 in
	124) why="guest timed out" ;;
	125) why="guest died before the end:$nl$(tail -n 30 "$1")" ;;
	esac
	kernel_problems "$1" >/dev/null && why="${why:+$why$nl}kernel problems:$nl$(kernel_problems "$1" | head -n 20)"
	ktap_verdict "$3" "${why:+$why$nl(console: ${1#"$TOP"/})}"
}

# ktap_summary FILE: the failed checks with their diagnostics, then
# "N passed, N failed[, N skipped]"; fails if anything failed.
ktap_summary() {
	local p f s
	awk '/^ *not ok / && !/# *SKIP/ { bad = 1 } /^ *(ok |# Subtest:|K?TAP version|1\.\.)/ { bad = 0 }
	     bad' "$1" | head -n 300
	ktap_counts "$1" | sed '$d'
	read -r p f s < <(ktap_counts "$1" | tail -n 1)
	[ "$s" = 0 ] && s= || s=", $s skipped"
	echo "$p passed, $f failed$s"
	[ "$f" = 0 ]
}
