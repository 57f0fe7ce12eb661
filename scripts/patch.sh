#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# patch.sh series | check | apply KDIR: our overlay as a git series against
# pristine 6.12, cut as scripts/patch-series says (make patch, written to
# build/patches/); that series applied with git am and built patch by
# patch, checkpatch'd, then tested (make patch-check); or applied to a
# user's own 6.12 tree (make apply). Called by harness.sh.

set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true	# "&" stays "&" in ${x//p/r}
cd "$(dirname "$0")/.." && . scripts/lib.sh
setup ours

SERIES=scripts/patch-series
PDIR=$BUILD/patch		# the series' repository and what builds it
REPO=$PDIR/linux.git
PATCHES=$BUILD/patches
CHECK=$BUILD/patch-check	# make patch-check's harness build directory

# g: git on REPO; its work tree stays empty (commits are built in an index).
g() { git --git-dir="$REPO" --work-tree="$PDIR/wt" "$@"; }

# base_repo: REPO with the pristine tree committed once as branch base.
base_repo() {
	local tree commit
	g rev-parse -q --verify refs/heads/base >/dev/null 2>&1 && return 0
	msg "GIT    pristine tree -> ${REPO#"$TOP"/} (once)"
	rm -rf "$REPO" "$PDIR/base.index" && mkdir -p "$PDIR/wt" && git init -q --bare "$REPO"
	GIT_INDEX_FILE=$PDIR/base.index g --work-tree="$PRISTINE" add -A -f .
	tree=$(GIT_INDEX_FILE=$PDIR/base.index g write-tree)
	commit=$(GIT_AUTHOR_NAME=linux-source-6.12 GIT_AUTHOR_EMAIL=pristine@localhost \
		GIT_COMMITTER_NAME=linux-source-6.12 GIT_COMMITTER_EMAIL=pristine@localhost \
		GIT_AUTHOR_DATE='2024-11-17 00:00 UTC' GIT_COMMITTER_DATE='2024-11-17 00:00 UTC' \
		g commit-tree "$tree" -m "Linux $(kversion "$PRISTINE") (Debian linux-source-6.12)")
	g update-ref refs/heads/base "$commit"
}

# kversion DIR: VERSION.PATCHLEVEL.SUBLEVEL of the kernel tree in DIR.
kversion() {
	sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' "$1/Makefile" |
		head -n 3 | paste -sd.
}

# parse_series: SUBJ[i], BODY[i], TAKE[i] (directive lines) per patch, and
# COVER_SUBJ, BODY[cover].
parse_series() {
	local line cur='' n=-1
	declare -gA BODY=()
	SUBJ=() TAKE=()
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'#'*) ;;
		'cover: '*)	cur=cover COVER_SUBJ=${line#cover: } ;;
		'patch: '*)	n=$((n + 1)) cur=$n SUBJ[n]=${line#patch: } TAKE[n]= ;;
		files:\ *|stage:\ *|upstream:\ *|delete:\ *)
				[ "$cur" = "$n" ] && [ $n -ge 0 ] || die "$SERIES: '$line' outside a patch"
				TAKE[n]+=$line$'\n' ;;
		$'\t'*)		BODY[$cur]+=${line#$'\t'}$'\n' ;;
		'')		[ -z "$cur" ] || [ -z "${BODY[$cur]:-}" ] || BODY[$cur]+=$'\n' ;;
		*)		die "$SERIES: cannot read '$line'" ;;
		esac
	done <"$SERIES"
	[ $n -ge 0 ] || die "$SERIES: no patch"
}

# trimmed TEXT: TEXT without its trailing blank lines.
trimmed() { printf '%s' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

# add_file PATH CONTENT MODE_FROM: PATH gets CONTENT's bytes in the index.
add_file() {
	local blob mode=100644
	[ -x "$3" ] && mode=100755
	blob=$(g hash-object -w -- "$2")
	g update-index --add --cacheinfo "$mode,$blob,$1"
}

# take_upstream NNNN: apply patches/NNNN-*.patch to the upstream files
# staged so far (starting from pristine) and index the results.
take_upstream() {
	local p f up=$PDIR/upstream
	p=$(echo patches/"$1"-*.patch)
	[ -f "$p" ] || die "$SERIES: no patches/$1-*.patch"
	USED+=" $p"
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
		[ -e "$up/$f" ] || [ ! -f "$PRISTINE/$f" ] ||
			{ mkdir -p "$(dirname "$up/$f")" && cp -p "$PRISTINE/$f" "$up/$f"; }
	done
	patch -s -p1 -d "$up" --no-backup-if-mismatch <"$p" || die "$p does not apply"
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
		add_file "$f" "$up/$f" "$up/$f"
	done
}

# take KEYWORD ARGS: one directive of a patch.
take() {
	local pat f hit
	case $1 in
	files:)	shift
		for pat in "$@"; do
			hit=
			while read -r f; do
				# shellcheck disable=SC2053 # a glob on purpose
				[[ $f == $pat ]] || continue
				hit=1
				[[ " $CLAIMED " != *" $f "* ]] || die "$SERIES: $f is claimed twice"
				CLAIMED+=" $f"
				add_file "$f" "$f" "$f"
			done <<<"$OURS"
			[ -n "$hit" ] || die "$SERIES: '$pat' names none of our files"
		done ;;
	upstream:) shift; for f in "$@"; do take_upstream "$f"; done ;;
	delete:) printf '0 %040d\t%s\n' 0 "$2" | g update-index --index-info ;;	# mode 0: remove
	esac
}

# build_commits: branch series: one commit per patch of SERIES on base.
build_commits() {
	local i kw args parent=refs/heads/base tree sob p f
	export GIT_INDEX_FILE=$PDIR/series.index
	GIT_AUTHOR_NAME=$(git -C "$TOP" config user.name) GIT_AUTHOR_EMAIL=$(git -C "$TOP" config user.email)
	GIT_AUTHOR_DATE=$(git -C "$TOP" log -1 --format=%cI)
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME \
		GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
	sob="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
	OURS=$(git ls-files --cached --others --exclude-standard include lib tools Documentation |
		while read -r f; do [ ! -f "$f" ] || echo "$f"; done | sort -u)
	CLAIMED='' USED=''
	rm -rf "$PDIR/upstream" && mkdir -p "$PDIR/upstream"
	g read-tree refs/heads/base
	for i in "${!SUBJ[@]}"; do
		while read -r kw args; do
			[ -n "$kw" ] || continue
			if [ "$kw" = stage: ]; then
				f=${args%% *}
				[[ $'\n'$OURS$'\n' == *$'\n'$f$'\n'* ]] || die "$SERIES: stage of unknown file $f"
				sed -e "${args#* }" "$f" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$PDIR/stage" ||
					die "$SERIES: bad stage of $f"
				add_file "$f" "$PDIR/stage" "$f"
			else
				# shellcheck disable=SC2086 # words and globs
				take "$kw" $args
			fi
		done <<<"${TAKE[i]}"
		tree=$(g write-tree)
		parent=$(printf '%s\n\n%s\n\n%s\n' "${SUBJ[i]}" "$(trimmed "${BODY[$i]:-}")" "$sob" |
			g commit-tree "$tree" -p "$parent")
	done
	g update-ref refs/heads/series "$parent"
	for f in $OURS; do
		[[ " $CLAIMED " == *" $f "* ]] || die "$SERIES: no patch takes $f"
	done
	for p in patches/*.patch; do
		[[ " $USED " == *" $p "* ]] || die "$SERIES: no patch takes $p"
	done
}

# verify_tree: the series' last tree is build/src/ours (our overlay as the
# harness builds it), compared as git trees: the hard links it shares
# with the pristine tree let git reuse the base index's hashes.
verify_tree() {
	local idx=$PDIR/ours.index want got
	[ -f "$idx" ] || cp "$PDIR/base.index" "$idx"
	GIT_INDEX_FILE=$idx g --work-tree="$OURS_TREE" add -A -f . \
		':!.dyndbg-tree' ':!.dyndbg-manifest'
	want=$(GIT_INDEX_FILE=$idx g write-tree)
	got=$(g rev-parse 'refs/heads/series^{tree}')
	[ "$want" = "$got" ] && return 0
	g diff --stat "$got" "$want" >&2
	die "the series does not give build/src/ours (above: series -> ours)"
}

# bench_tables: the tables of bench/results*.md, without the medians and
# spreads beside each time.
bench_tables() {
	local f
	for f in bench/results.md bench/results-*.md; do
		[ -f "$f" ] || continue
		echo "$f: $(sed -n 's/^- sites: //p' "$f" | head -n 1), $(sed -n 's/^- date: //p' "$f" | head -n 1)"
		sed -n 's/^> *//p' "$f" | sed 's/\*\*//g' | fmt -w 72
		echo
		sed -n '/^| metric/,/^$/p' "$f" | sed -e 's/ ([^()|]*–[^()|]*)//g' -e 's/ (median [^()|]*)//g' -e '/^| ---/d' -e '/^$/d'
		echo
		grep -q '^## A distribution kernel' "$f" || continue
		echo "$f, Debian's 6.12 config (make distro-check):"
		sed -n '/^## A distribution kernel/,/^## /{/^|/p}' "$f" |
			sed -e 's/ (median [^()|]*)//g' -e '/^| ---/d'
		echo
	done
}

# sections TREE FILE: the MAINTAINERS entries of TREE that list FILE.
sections() {
	(cd "$1" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --sections -f "$2" 2>/dev/null) |
		grep -v -e '^[A-Z]:' -e '^$' -e '^THE REST$' | sort -u || true
}

# maintained PATCH: every file PATCH adds is in a MAINTAINERS entry of the
# final tree that also lists the core (checkpatch's FILE_PATH_CHANGES asks
# whether MAINTAINERS needs updating for such files: here it does not).
maintained() {
	local core f
	core=$(sections "$OURS_TREE" lib/dynamic_debug/core.c)
	[ -n "$core" ] || return 1
	! grep -q '^deleted file mode' "$1" || return 1
	for f in $(awk '/^diff --git / { f = $3; sub(/^a\//, "", f) } /^new file mode/ { print f }' "$1"); do
		[ -n "$(comm -12 <(echo "$core") <(sections "$OURS_TREE" "$f"))" ] || return 1
	done
}

# checkpatch_run PATCH...: "PATCH LEVEL TYPE FILE" per message (FILE - for
# the commit message); a FILE_PATH_CHANGES warning answered by
# maintained() has level MAINTAINED.
checkpatch_run() {
	local p m
	for p in "$@"; do
		if maintained "$p"; then m=MAINTAINED; else m=WARNING; fi
		(cd "$PRISTINE" && perl scripts/checkpatch.pl --strict --show-types --no-summary "$p" || true) |
			awk -v p="${p##*/}" -v m="$m" '
			t != "" { f = t ~ /FILE_PATH_CHANGES/ ? "MAINTAINERS" : "-"
				  if (/^#[0-9]+: FILE: /) { f = $3; sub(/:.*/, "", f) }
				  if (t ~ /FILE_PATH_CHANGES/) sub(/^WARNING/, m, t)
				  print p, t, f; t = "" }
			/^(ERROR|WARNING|CHECK):/ { split($0, a, ":"); t = a[1] " " a[2] }
			END { if (t != "") print p, t, "-" }'
	done
}

# unwaived MESSAGES: the errors, and the warnings and checks that
# scripts/checkpatch-exceptions does not waive for their file.
unwaived() {
	awk 'NR == FNR { if ($1 !~ /^#/) ok[$1 " " $2] = 1; next }
		$2 == "ERROR" || (($2 == "WARNING" || $2 == "CHECK") && !ok[$4 " " $3])' \
		scripts/checkpatch-exceptions - <<<"$1"
}

# checkpatch_text MESSAGES: the cover letter's checkpatch paragraph; the
# warnings and checks left must be waived with a reason in
# scripts/checkpatch-exceptions.
checkpatch_text() {
	local e w c m bad
	e=$(grep -c ' ERROR ' <<<"$1" || true) w=$(grep -c ' WARNING ' <<<"$1" || true)
	c=$(grep -c ' CHECK ' <<<"$1" || true)
	echo "checkpatch.pl --strict on every patch: $e errors, $w warnings, $c checks."
	bad=$(unwaived "$1")
	if [ -n "$bad" ]; then
		echo "Errors, warnings and checks still to fix (file, type, count):"
		echo
		awk '{ print "- " $4 ", " $3 " (" $2 ")" }' <<<"$bad" | sort | uniq -c |
			sed 's/^ *\([0-9]*\) \(.*\)/\2: \1/'
		echo
	fi
	m=$(grep -c ' MAINTAINED ' <<<"$1" || true)
	[ "$m" = 0 ] || printf '%s\n' "Not counted: $m warnings that ask whether MAINTAINERS needs an update" \
		"for patches adding files that the dynamic debug entry, as this series" \
		"leaves it, covers already (get_maintainer.pl says so)."
	[ "$w$c" = 00 ] && return 0
	[ "$m" = 0 ] || echo
	echo "The warnings and checks left, with the reason each one stays:"
	echo
	awk '$2 == "WARNING" || $2 == "CHECK" { print $4, $3 }' <<<"$1" | sort | uniq -c | while read -r n f t; do
		echo "- $f, $t ($n): $(awk -v f="$f" -v t="$t" '$1 == f && $2 == t { $1 = $2 = ""; sub(/^ +/, ""); print }' \
			scripts/checkpatch-exceptions | head -n 1)"
	done | fold -s -w 72 | sed '2,$s/^\([^-]\)/  \1/'
}

# make_series: build/patches/, the cover letter filled in.
make_series() {
	local cover found
	parse_series
	do_tree
	base_repo
	msg "SERIES ${#SUBJ[@]} patches from $SERIES"
	( build_commits )	# its git environment stays there
	verify_tree
	g symbolic-ref HEAD refs/heads/series
	rm -rf "$PATCHES"
	g format-patch -q --no-renames -o "$PATCHES" refs/heads/base..refs/heads/series
	msg "CHECK  checkpatch.pl --strict"
	found=$(checkpatch_run "$PATCHES"/0*.patch)
	printf '%s\n' "$found" | sed '/^$/d' >"$PDIR/checkpatch.txt"
	cover=$(trimmed "${BODY[cover]:-}")
	cover=${cover//@BENCH@/$(bench_tables)}
	cover=${cover//@CHECKPATCH@/$(checkpatch_text "$(cat "$PDIR/checkpatch.txt")")}
	g config branch.series.description "$COVER_SUBJ"$'\n\n'"$cover"
	rm -rf "$PATCHES"
	g format-patch -q --no-renames --cover-letter --cover-from-description=subject \
		-o "$PATCHES" refs/heads/base..refs/heads/series
	msg "WROTE  ${PATCHES#"$TOP"/}/: cover letter and ${#SUBJ[@]} patches"
}

# series_patches: the patch files of build/patches, cover letter aside.
series_patches() { find "$PATCHES" -name '[0-9]*.patch' ! -name '0000-*' | sort; }

# checkpatch_verdict PATCH: "E/W/C" of PATCH; fails on an error, a
# warning or a check that scripts/checkpatch-exceptions does not waive.
checkpatch_verdict() {
	local m e w c bad
	m=$(grep "^${1##*/} " "$PDIR/checkpatch.txt" || true)
	e=$(grep -c ' ERROR ' <<<"$m" || true) w=$(grep -c ' WARNING ' <<<"$m" || true)
	c=$(grep -c ' CHECK ' <<<"$m" || true)
	bad=$(unwaived "$m" | awk '{ print "    " $2 " " $3 " in " $4 }')
	echo "checkpatch $e errors, $w warnings, $c checks"
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# check_series: apply build/patches with git am to a fresh checkout of
# pristine 6.12, build the test config after each patch, checkpatch each,
# then run make check's tests on the final tree.
# same_config A B: the two .config files set the same options (their
# header comment names the architecture as make was given it: x86 or x86_64).
same_config() {
	cmp -s <(grep -v '^# Linux/.* Kernel Configuration$' "$1") \
		<(grep -v '^# Linux/.* Kernel Configuration$' "$2")
}

check_series() {
	local tree=$CHECK/src/ours p n=0 total fail=0 t0 start=$SECONDS warn v
	make_series
	do_config
	cp "$OBJ/.config" "$PDIR/test.config"
	# The harness then works on CHECK: its source tree is the series
	# applied; the pristine tree and the package stamp are shared.
	mkdir -p "$CHECK/src"
	ln -sfn "$PRISTINE" "$CHECK/src/linux-source-6.12" && touch "$CHECK/src/.pristine-ok"
	if [ ! -d "$tree/.git" ]; then
		msg "GIT    fresh checkout of pristine 6.12 -> ${tree#"$TOP"/}"
		rm -rf "$tree" && git clone -q --no-checkout "$REPO" "$tree"
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" fetch -q "$REPO" +refs/heads/base:refs/remotes/origin/base
	git -C "$tree" checkout -q -f -B check origin/base && git -C "$tree" clean -q -fdx
	[ -z "$(git -C "$tree" status --porcelain --ignored)" ] || die "$tree is not pristine"
	TREE=$tree OBJ=$CHECK/ours/obj
	mkdir -p "$OBJ"
	# A git tree would get a "+" in its release; keep the harness's.
	export LOCALVERSION='' GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
	GIT_COMMITTER_NAME=$(git -C "$TOP" config user.name) GIT_COMMITTER_EMAIL=$(git -C "$TOP" config user.email)
	mapfile -t PS < <(series_patches)
	total=${#PS[@]}
	for p in "${PS[@]}"; do
		n=$((n + 1)) t0=$SECONDS
		git -C "$tree" am -q "$p" || { echo "[$n/$total] ${p##*/}: git am failed"; return 1; }
		same_config "$PDIR/test.config" "$OBJ/.config" || cp "$PDIR/test.config" "$OBJ/.config"
		if ! { kmake olddefconfig && kmake bzImage modules; } >"$CHECK/build-$n.log" 2>&1; then
			echo "[$n/$total] ${p##*/}: BUILD FAILED after $((SECONDS - t0)) s:"
			grep -E -m 20 '(error|warning):' "$CHECK/build-$n.log" || tail -n 20 "$CHECK/build-$n.log"
			return 1
		fi
		warn=$(grep -c 'warning:' "$CHECK/build-$n.log" || true)
		v=$(checkpatch_verdict "$p") || fail=1
		echo "[$n/$total] ${p##*/}: build ok, $warn warnings ($((SECONDS - t0)) s); $v"
	done
	same_config "$PDIR/test.config" "$OBJ/.config" || die "the final tree's config is not the test config"
	[ "$(git -C "$tree" rev-parse 'HEAD^{tree}')" = "$(g rev-parse 'refs/heads/series^{tree}')" ] ||
		die "git am did not give the series' tree"
	echo "series: $total patches applied and built in $((SECONDS - start)) s; final tree = build/src/ours"
	[ "$fail" = 0 ] || echo "checkpatch: messages above are neither waived nor allowed"
	# The final tree for another architecture too: arm64's objects and
	# test kernel, against upstream's, as make cross-check builds them.
	if [ "${PATCH_ARM64:-1}" = 1 ]; then
		msg "CROSS  arm64: the final tree's objects and test kernel"
		t0=$SECONDS
		if DYNDBG_BUILD=$CHECK CROSS_TARGETS=arm64 scripts/cross-check.sh >"$CHECK/cross-arm64.ktap" 2>&1; then
			echo "arm64: the final tree builds, no new warning ($((SECONDS - t0)) s)"
		else
			grep -E '^(not ok|# )' "$CHECK/cross-arm64.ktap" | head -n 20
			echo "arm64: the final tree FAILS (${CHECK#"$TOP"/}/cross-arm64.ktap)"
			fail=1
		fi
	fi
	if [ "${PATCH_TESTS:-1}" = 1 ]; then
		msg "TEST   make check on the final tree"
		DYNDBG_BUILD=$CHECK scripts/check.sh || fail=1
	else
		echo "tests skipped (PATCH_TESTS=0)"
	fi
	return $fail
}

# apply_series KDIR: the series onto the user's 6.12 tree: git am in a git
# work tree without local changes, else patch after a trial on a copy of
# the files it touches.
apply_series() {
	local kdir=${1:-} v p f top trial
	[ -n "$kdir" ] || die "usage: make apply KDIR=/path/to/linux-6.12"
	[ -f "$kdir/Makefile" ] || die "$kdir: no kernel Makefile there"
	kdir=$(cd "$kdir" && pwd)
	v=$(kversion "$kdir")
	[[ $v == 6.12.* ]] || die "$kdir is Linux $v; the series is for 6.12 only"
	[ ! -e "$kdir/lib/dynamic_debug" ] || die "$kdir has lib/dynamic_debug/ already: the series is applied"
	top=$(git -C "$kdir" rev-parse --show-toplevel 2>/dev/null || true)
	if [ "$top" = "$kdir" ]; then
		[ -z "$(git -C "$kdir" status --porcelain --untracked-files=no)" ] ||
			die "$kdir has uncommitted changes: commit or stash them first"
		[ ! -d "$(git -C "$kdir" rev-parse --git-path rebase-apply)" ] ||
			die "$kdir: a git am or rebase is in progress"
	fi
	make_series
	mapfile -t PS < <(series_patches)
	if [ "$top" = "$kdir" ]; then
		git -C "$kdir" am -q --3way "${PS[@]}" ||
			{ git -C "$kdir" am --abort; die "the series does not apply to $kdir (nothing changed)"; }
		echo "applied ${#PS[@]} patches to $kdir ($(git -C "$kdir" rev-parse --abbrev-ref HEAD))"
		return 0
	fi
	trial=$(mktemp -d)
	for f in $(cat "${PS[@]}" | sed -n 's|^--- a/\([^[:space:]]*\).*|\1|p' | sort -u); do
		[ ! -f "$kdir/$f" ] || { mkdir -p "$(dirname "$trial/$f")" && cp -p "$kdir/$f" "$trial/$f"; }
	done
	for p in "${PS[@]}"; do
		patch -s -f -p1 -d "$trial" --no-backup-if-mismatch -r - <"$p" >/dev/null ||
			{ rm -rf "$trial"; die "${p##*/} does not apply to $kdir (nothing changed)"; }
	done
	rm -rf "$trial"
	for p in "${PS[@]}"; do
		patch -s -f -p1 -d "$kdir" --no-backup-if-mismatch <"$p"
	done
	echo "applied ${#PS[@]} patches to $kdir with patch (not a git work tree)"
}

case "${1:-}" in
series)	make_series ;;
check)	check_series ;;
apply)	apply_series "${2:-}" ;;
*)	die "usage: patch.sh series | check | apply KDIR" ;;
esac
