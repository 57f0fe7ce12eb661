# SPDX-License-Identifier: GPL-2.0
#
# dyndbg: build, boot and test harness.
#
# Everything runs through scripts/harness.sh; this file only names the
# targets and serialises them on one lock so that two users of the same
# checkout never build into the same directory at once.

# Variables given on the command line or in the environment (IMPL,
# GUEST_ARCH, V, SCRIPT, APPEND, NAME, SEED, COUNT...) reach the harness
# as they are; scripts/lib.sh gives their defaults.

HARNESS := scripts/harness.sh
LOCK	:= build/.lock

run = @mkdir -p build && flock $(LOCK) $(HARNESS)

.DEFAULT_GOAL := run
.PHONY: run check check-all matrix arches boot-test kselftest shell vm-run build deps tree config initramfs \
	host-checks compat bench bench-smoke fuzz patch patch-check apply distro-check cross-check clean distclean help

run:		## boot the kernel and run the narrated demo
	$(run) run

check:		## KUnit, every kselftest, the boot tests, host checks (~3 min warm)
	$(run) check

check-all:	## check + scripts/check.d/: debug (RT) KCSAN and arm64 kernels, cross builds, callers...
	$(run) check-all

matrix:		## every kernel of the build matrix, each booted [MATRIX="debug kcsan nojump core off"]
	$(run) matrix

arches:		## check on arm64, riscv64 and s390x (GUEST_ARCH=...): KUnit, kselftests, boot tests [ARCHES=...]
	$(run) arches

boot-test:	## one boot test of boot-tests.list: NAME=boot-bad.sh
	$(run) boot-test

kselftest:	## one kselftest: NAME=test-flags.sh
	$(run) kselftest

shell:		## boot the kernel with an interactive BusyBox shell
	$(run) shell

vm-run:		## boot and run SCRIPT=FILE as root [APPEND="kernel args"]
	$(run) vm-run

build:		## install deps, prepare trees, configure and build kernel + modules
	$(run) build

deps:		## install missing Debian packages
	$(run) deps

tree:		## extract the pristine tree and lay our files over a copy
	$(run) tree

config:		## generate and verify the kernel configuration
	$(run) config

initramfs:	## build the BusyBox initramfs
	$(run) initramfs

host-checks:	## checkpatch --strict, kernel-doc, jump-label NOP shape
	$(run) host-checks

compat:		## differential test against upstream 6.12, in-tree callers compile
	$(run) compat

bench:		## ours vs upstream on a generated load [SITES=100000 BENCH_ONLY=ours|upstream]
	$(run) bench

bench-smoke:	## the bench on our kernel alone, 100,000 sites: every metric produced
	$(run) bench-smoke

fuzz:		## fuzz the control file in the guest [SEED=N COUNT=N]
	$(run) fuzz

patch:		## the series against pristine 6.12 with a cover letter -> build/patches/
	$(run) patch

patch-check:	## git am the series, build and checkpatch each patch, make check the result
	$(run) patch-check

apply:		## apply the series to your 6.12 tree: KDIR=/path/to/linux-6.12
	$(run) apply "$(KDIR)"

distro-check:	## the series with Debian's 6.12 config: drm, wireless, btrfs; boot, bench (hours)
	$(run) distro-check

cross-check:	## other architectures and compilers, ours vs upstream -> bench/arches.md [CROSS_TARGETS=...]
	$(run) cross-check

clean:		## remove build products of IMPL (keeps the extracted trees)
	$(run) clean

distclean:	## remove build/ entirely
	rm -rf build

help:		## this text
	@echo 'dyndbg harness targets (IMPL=ours|upstream, V=1 for verbose):'
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -e 's/:[^#]*## /\t/' -e 's/^/  /'
