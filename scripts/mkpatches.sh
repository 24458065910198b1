#!/usr/bin/env bash
# make patches: write the chainscope series for each kernel tree as git
# format-patch files with a cover letter, against Debian's pristine
# linux-source tree, and prove each patch: it applies in order, passes the
# tree's scripts/checkpatch.pl --strict, and the tree builds after it.
#
#   scripts/mkpatches.sh [-k KVER]... [-n] [-t] OUTDIR
#     -k KVER  only this tree (6.1 or 6.12; repeatable; default both)
#     -n       no build test (format and checkpatch only)
#     -t       a test run (make test): a placeholder identity is taken;
#              such a series is for checking, not for posting
#
# Writes OUTDIR/KVER/0000-cover-letter.patch and the patches.  They
# are the ones listed in kernel/series/series (see there and
# scripts/series.sh for how each patch's state is kept).  Signed-off-by
# and author are whoever runs this: CS_SIGNOFF="Name <email>", else git
# config user.name and user.email. Without one, or with a placeholder
# (an example, .invalid or noreply address: series_identity.py), it stops
# before writing anything. The series changes no MAINTAINERS entry:
# kernel/notifier.c has none, and the trace header falls under TRACING
# (F: include/trace/); checkpatch's FILE_PATH_CHANGES, which asks whether
# MAINTAINERS needs updating for every added file, is therefore ignored.
#
# Build test, per tree: a hard-linked copy of the pristine tree and a
# build directory of its own with the configuration of our normal guest
# kernel (kernel/config/base*.config), so nothing in the cached trees
# changes; after every patch kernel/notifier.o is compiled with W=1 and
# must have no warning from our files, the KUnit patches also compile
# their modules, and the functional one (kind kunit) is also applied
# alone to the stock tree and built there.  An "nfc" or "kdoc" patch
# (kernel/series/series) must leave the object code of kernel/notifier.o
# unchanged, as must a "move" patch (functions reordered).
#
# Exit: 0 all proven, 1 a patch failed a check, 2 usage or no identity.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
S=$REPO/kernel/series
JOBS=${JOBS:-$(($(nproc) + 1))}
die() { echo "mkpatches: error: $*" >&2; exit 1; }
usage() { echo "mkpatches: error: $*" >&2; exit 2; }
log() { echo "[$(date +%H:%M:%S)] mkpatches: $*" >&2; }

KVERS=()
BUILD=1
TEST_ID=0
while getopts 'k:nt' opt; do
	case $opt in
	k) case "$OPTARG" in 6.1 | 6.12) KVERS+=("$OPTARG") ;;
	   *) usage "-k $OPTARG: a tree we build (6.1, 6.12)" ;; esac ;;
	n) BUILD=0 ;;
	t) TEST_ID=1 ;;
	*) usage "usage: mkpatches.sh [-k KVER]... [-n] [-t] OUTDIR" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage "usage: mkpatches.sh [-k KVER]... [-n] [-t] OUTDIR"
OUT=$1
[ ${#KVERS[@]} -gt 0 ] || KVERS=(6.1 6.12)

# "NAME\tEMAIL" of the signer, or one line on stderr and exit 2
ident=$(python3 "$HERE/series_identity.py" "$TEST_ID" "${CS_SIGNOFF:-}" \
	"$(git -C "$REPO" config --get user.name || true)" \
	"$(git -C "$REPO" config --get user.email || true)") || exit 2
NAME=${ident%%$'\t'*}
EMAIL=${ident#*$'\t'}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Our files that the series adds to or changes in the tree.
CORE_C=kernel/notifier.c
CORE_H=include/trace/events/notifier.h
KUNIT_FILES="kernel/notifier_kunit.c"
# The KUnit suite of the events: a patch of its own (kind kunit-trace),
# as it needs the series' trace header; its Kconfig and Makefile hunks
# are kernel/series/<tree>/NAME.kconfig.patch.
KUNIT_TRACE_FILES="kernel/notifier_trace_kunit.c"
# Tree files that patches of the series change by a hunk of their own:
# kernel/patches/[KVER/]NAME.patch, folded into patch NAME.
TREE_FILES="include/linux/notifier.h"

# The hunk of tree files that patch NAME carries, if any (as build.sh
# applies it to the tree both variants share).
tree_hunk() { # tree_hunk NAME KVER
	local f
	for f in "$REPO/kernel/patches/$2/$1.patch" "$REPO/kernel/patches/$1.patch"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 0
}

# The commit message of NAME for tree KVER: lines tagged with another
# tree dropped, this tree's tag removed.
message() { # message NAME KVER
	python3 "$HERE/series_message.py" "$S/$1.msg" "$2"
}

# The costs for the cover letter, from the generated part of
# docs/bench.md (the section of tree KVER).
costs() { # costs KVER
	python3 "$HERE/series_costs.py" "$REPO/docs/bench.md" "$1"
}

checkpatch_one() { # checkpatch_one SRC PATCH
	if (cd "$1" && ./scripts/checkpatch.pl --strict --quiet --no-tree \
		--ignore FILE_PATH_CHANGES "$2") \
		>"$2.checkpatch" 2>&1; then
		rm -f "$2.checkpatch"
		return 0
	fi
	return 1
}

# Put the files of commit REV of git repo G into tree T (absent: removed).
checkout_into() { # checkout_into G REV T
	local f
	for f in $CORE_C $CORE_H $KUNIT_FILES $KUNIT_TRACE_FILES $TREE_FILES \
		lib/Kconfig.debug kernel/Makefile; do
		rm -f "$3/$f"
		if git -C "$1" cat-file -e "$2:$f" 2>/dev/null; then
			mkdir -p "$3/$(dirname "$f")"
			git -C "$1" show "$2:$f" >"$3/$f"
		fi
	done
}

# Compile OBJ... in build dir B of tree T; fail on a warning in our files.
compile() { # compile T B LOG OBJ...
	local t=$1 b=$2 logf=$3
	shift 3
	if ! make -C "$t" O="$b" -j"$JOBS" W=1 "$@" >"$logf" 2>&1; then
		grep -E 'error' "$logf" | head -5 >&2
		return 1
	fi
	if grep -E 'notifier[a-z_]*\.[ch]:[0-9]+:[0-9]+: warning' "$logf" >&2; then
		return 1
	fi
}

# The pristine configuration has no NOTIFIER_KUNIT_TEST: set it once the
# tree has the option, so that the suite is part of the build.
enable_kunit() { # enable_kunit T B [SYMBOL]
	local sym=${3:-NOTIFIER_KUNIT_TEST}
	"$1/scripts/config" --file "$2/.config" -m "$sym"
	make -s -C "$1" O="$2" olddefconfig >/dev/null 2>&1
	grep -q "^CONFIG_$sym=m" "$2/.config" ||
		die "CONFIG_$sym=m does not survive olddefconfig"
}

# The code of an object, function by function in name order, without
# addresses: jump targets as offsets into their function, calls and
# relocations by symbol, and GCC's clone suffixes (.constprop.0, ...)
# dropped, as is the alignment padding after each function, so that
# moving or cloning a function is no change.  A reference into a merged
# string section (.rodata.str*) is shown as the string it points at, as
# the section's order follows the order of the strings in the source.
text_of() { # text_of OBJ
	objdump -dr --no-show-raw-insn "$1" | python3 -c '
import re, subprocess, sys, tempfile
clean = lambda n: re.sub(r"\.(constprop|isra|part|cold)\.[0-9]+", "", n)
strs = {}
for sec in re.findall(r"\s(\.rodata\.str[\w.]*)\s", subprocess.run(
        ["readelf", "-S", "-W", sys.argv[1]], capture_output=True, text=True).stdout):
    with tempfile.NamedTemporaryFile() as t:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=" + sec, sys.argv[1],
                        t.name], check=True, capture_output=True)
        strs[sec] = open(t.name, "rb").read()
def string_at(m):
    data, off = strs[m.group(2)], int(m.group(3) or "0", 16)
    off += 4 if m.group(1) in ("R_X86_64_PC32", "R_X86_64_PLT32") else 0
    end = data.find(b"\0", off)
    return "%s %r" % (m.group(1), data[off:end if end >= 0 else len(data)])
funcs, cur = {}, None
for line in sys.stdin:
    m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line.rstrip())
    if m:
        cur = clean(m.group(1))
        funcs[cur] = []
        continue
    m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line.rstrip())
    if cur is None or not m:
        continue
    ins = re.sub(r"#\s*[0-9a-f]+ <[^>]*>", "", m.group(1))
    ins = re.sub(r"\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>",
                 lambda g: "<%s%s>" % (clean(g.group(1)), g.group(2) or ""), ins)
    ins = re.sub(r"(R_X86_64_\w+)\s+(\.rodata\.str[\w.]*?)([+-]0x[0-9a-f]+)?$", string_at, ins)
    ins = re.sub(r"(R_X86_64_\w+)\s+(\S+)", lambda g: g.group(1) + " " + clean(g.group(2)), ins)
    funcs[cur].append(" ".join(ins.split()))
pad = re.compile(r"^(nop[wlq]?\b.*|xchg %ax,%ax|int3|cs nopw.*|data16.*)$")
for f in sorted(funcs):
    body = funcs[f]
    while body and pad.match(body[-1]):
        body.pop()
    print("%s:" % f)
    for i in funcs[f]:
        print("\t" + i)
' "$1"
}

status=0
fail() { echo "mkpatches: FAIL: $*" >&2; status=1; }

for kver in "${KVERS[@]}"; do
	log "Linux $kver"
	SRC=$(CS_KERNEL=$kver "$REPO/kernel/build.sh" tree) || die "no $kver tree"
	P=$SRC/.chainscope
	STATES=$WORK/states-$kver
	"$HERE/series.sh" states "$kver" "$STATES"
	G=$WORK/git-$kver
	GIT=(git -C "$G" -c user.name="$NAME" -c user.email="$EMAIL"
		-c commit.gpgsign=false -c core.autocrlf=false
		-c diff.algorithm=histogram)

	# The base: pristine copies of every file the series touches.
	mkdir -p "$G/kernel" "$G/lib" "$G/include/trace/events"
	cp "$P/stock/$CORE_C" "$G/$CORE_C"
	[ -f "$P/stock/$CORE_H" ] && cp "$P/stock/$CORE_H" "$G/$CORE_H"
	cp "$P/pristine/kernel/Makefile" "$G/kernel/Makefile"
	cp "$P/pristine/lib/Kconfig.debug" "$G/lib/Kconfig.debug"
	for f in $TREE_FILES; do
		[ -f "$P/pristine/$f" ] || die "$kver: no pristine $f (kernel/build.sh keeps one per patched file)"
		mkdir -p "$G/$(dirname "$f")"
		cp "$P/pristine/$f" "$G/$f"
	done
	"${GIT[@]}" init -q
	"${GIT[@]}" add -A
	"${GIT[@]}" commit -q -m "Linux $(make -s -C "$SRC" kernelversion) ($(dpkg-query -W -f='${Version}' "linux-source-$kver"))"

	# The rewrite's kernel/notifier.c as its patch posts it: with the
	# tree's own kernel-doc when a kdoc patch follows, so that each
	# changes one thing.  The move and split patches before it are cut
	# from the tree's file and this one (series_split.py).
	rewrite=$(awk '!/^#/ && NF && $2 == "rewrite" { print $1; exit }' "$S/series")
	[ -n "$rewrite" ] || die "kernel/series/series has no patch of kind rewrite"
	OURS=$WORK/rewrite-$kver.c
	if awk -v r="$rewrite" '!/^#/ && NF { if (hit) { k = $2; exit } if ($1 == r) hit = 1 }
		END { exit k != "kdoc" }' "$S/series"; then
		python3 "$HERE/series_kdoc.py" "$STATES/$rewrite/$CORE_C" \
			"$P/stock/$CORE_C" "$OURS" ||
			die "$kver: $rewrite: no state with the tree's kernel-doc"
	else
		cp "$STATES/$rewrite/$CORE_C" "$OURS"
	fi
	groups=()

	prev=''
	while read -r name kind; do
		case "$kind" in
		move | split)
			if [ "$kind" = split ]; then
				[ -f "$S/$name.units" ] || die "kernel/series/$name.units missing"
				groups+=("$S/$name.units")
			fi
			move=()
			[ "$kind" = move ] && move=(--move)
			python3 "$HERE/series_split.py" "$P/stock/$CORE_C" "$OURS" \
				"$G/$CORE_C" ${move[@]+"${move[@]}"} ${groups[@]+"${groups[@]}"} ||
				die "$kver: $name: no state between the tree's file and the rewrite"
			;;
		rewrite | step | nfc)
			cp "$STATES/$name/$CORE_C" "$G/$CORE_C"
			if [ -f "$STATES/$name/$CORE_H" ]; then
				cp "$STATES/$name/$CORE_H" "$G/$CORE_H"
			fi
			[ "$kind" = rewrite ] && cp "$OURS" "$G/$CORE_C"
			;;
		kdoc)
			[ -n "$prev" ] || die "kernel/series/series: $name: kdoc must follow a rewrite"
			cp "$STATES/$prev/$CORE_C" "$G/$CORE_C"
			;;
		kunit)
			for f in $KUNIT_FILES; do
				cp "$REPO/$f" "$G/$f"
			done
			patch -s -p1 -d "$G" --no-backup-if-mismatch -r - \
				<"$REPO/kernel/patches/$kver/0001-notifier-kunit-kconfig.patch" >/dev/null ||
				die "$kver: the KUnit Kconfig/Makefile patch does not apply"
			kunit_patch=$name
			;;
		kunit-trace)
			for f in $KUNIT_TRACE_FILES; do
				cp "$REPO/$f" "$G/$f"
			done
			patch -s -p1 -d "$G" --no-backup-if-mismatch -r - \
				<"$S/$kver/$name.kconfig.patch" >/dev/null ||
				die "$kver: kernel/series/$kver/$name.kconfig.patch does not apply"
			;;
		*) die "kernel/series/series: $name: unknown kind '$kind'" ;;
		esac
		hunk=$(tree_hunk "$name" "$kver")
		if [ -n "$hunk" ]; then
			patch -s -p1 -F0 -d "$G" --no-backup-if-mismatch -r - <"$hunk" >/dev/null ||
				die "$kver: ${hunk#"$REPO/"} does not apply after $name"
		fi
		[ -f "$S/$name.msg" ] || die "kernel/series/$name.msg missing"
		"${GIT[@]}" add -A
		"${GIT[@]}" commit -q -s -F - < <(message "$name" "$kver")
		prev=$name
	done < <(awk '!/^#/ && NF { print $1, $2 }' "$S/series")

	n=$(awk '!/^#/ && NF' "$S/series" | wc -l)
	dest=$OUT/$kver
	rm -rf "$dest"
	"${GIT[@]}" format-patch -q --cover-letter -o "$dest" "HEAD~$n..HEAD"

	# The cover letter: subject and text from kernel/series/cover.msg.
	cover=$dest/0000-cover-letter.patch
	if [ "$BUILD" = 1 ]; then
		# "patch 2 leaves" or "patches 2 and 3 leave": the nfc and kdoc ones
		same=$(awk '!/^#/ && NF { i++; if ($2 == "nfc" || $2 == "kdoc" || $2 == "move") l[++n] = i }
			END { s = l[1]; for (j = 2; j <= n; j++) s = s (j < n ? ", " : " and ") l[j]
			      print (n > 1 ? "patches " s " leave" : "patch " s " leaves") }' "$S/series")
		proof="Each patch passes checkpatch.pl --strict and builds on its own
(kernel/notifier.o with W=1, and the KUnit modules of the last two
patches; the first of those also builds alone on the stock tree);
$same the object code of kernel/notifier.o unchanged."
	else
		proof="Each patch passes checkpatch.pl --strict."
	fi
	python3 "$HERE/series_cover.py" "$cover" "$S/cover.msg" "$kver" "$(costs "$kver")" \
		"$(dpkg-query -W -f='${Version}' "linux-source-$kver")" "$proof"

	# Each patch applies, in order, to the pristine base.
	git clone -q "$G" "$WORK/am-$kver"
	git -C "$WORK/am-$kver" checkout -q "HEAD~$n"
	ls "$dest"/0*.patch | grep -v cover-letter | xargs \
		git -C "$WORK/am-$kver" -c user.name=x -c user.email=x@example.org am -q ||
		fail "$kver: the series does not apply to the pristine tree"

	for p in "$dest"/0*.patch; do
		case "$p" in *cover-letter*) continue ;; esac
		if checkpatch_one "$SRC" "$p"; then
			echo "checkpatch clean: $kver/$(basename "$p")"
		else
			fail "$kver: checkpatch: $(basename "$p") (see $p.checkpatch)"
		fi
	done

	[ "$BUILD" = 1 ] || continue

	# A tree of hard links (patch files are replaced, never written into)
	# with the pristine files back, and a build dir of its own.
	T=$WORK/tree-$kver
	B=$WORK/build-$kver
	log "$kver: build test in a copy of $SRC"
	cp -al "$SRC" "$T" 2>/dev/null || cp -a "$SRC" "$T"
	rm -rf "$T/.chainscope"
	checkout_into "$G" "HEAD~$n" "$T"
	mkdir -p "$B"
	cfg=$(CS_KERNEL=$kver "$REPO/kernel/build.sh" config normal)
	cp "$cfg/.config" "$B/.config"
	make -s -C "$T" O="$B" olddefconfig >"$B/config.log" 2>&1 ||
		die "$kver: olddefconfig failed (see $B/config.log)"
	# the base's code, for a first patch that must not change it
	compile "$T" "$B" "$WORK/build-$kver-0.log" kernel/notifier.o ||
		die "$kver: the pristine tree does not build kernel/notifier.o"
	prev_text=$WORK/text-$kver-0
	text_of "$B/kernel/notifier.o" >"$prev_text"
	i=0
	while read -r name kind; do
		i=$((i + 1))
		rev="HEAD~$((n - i))"
		checkout_into "$G" "$rev" "$T"
		objs=(kernel/notifier.o)
		if [ "$kind" = kunit ]; then
			enable_kunit "$T" "$B"
			objs+=(kernel/notifier_kunit.o)
		elif [ "$kind" = kunit-trace ]; then
			enable_kunit "$T" "$B" NOTIFIER_TRACE_KUNIT_TEST
			objs+=(kernel/notifier_kunit.o kernel/notifier_trace_kunit.o)
		fi
		if compile "$T" "$B" "$WORK/build-$kver-$i.log" "${objs[@]}"; then
			echo "builds: $kver/$(printf '%04d' "$i") ($name): ${objs[*]}"
		else
			fail "$kver: $name does not build (${objs[*]})"
			cp "$WORK/build-$kver-$i.log" "$dest/$(printf '%04d' "$i")-build.log"
			prev_text=''
			continue
		fi
		text=$WORK/text-$kver-$i
		text_of "$B/kernel/notifier.o" >"$text"
		if { [ "$kind" = nfc ] || [ "$kind" = kdoc ] || [ "$kind" = move ]; } &&
			[ -n "$prev_text" ]; then
			if cmp -s "$prev_text" "$text"; then
				echo "object code unchanged: $kver/$(printf '%04d' "$i") ($name)"
			else
				fail "$kver: $name is marked $kind but changes kernel/notifier.o's code"
				diff "$prev_text" "$text" >"$dest/$(printf '%04d' "$i")-nfc.diff" || true
			fi
		fi
		prev_text=$text
	done < <(awk '!/^#/ && NF { print $1, $2 }' "$S/series")

	# The KUnit patch (kind kunit) alone on the stock tree.
	[ -n "${kunit_patch:-}" ] || die "kernel/series/series has no patch of kind kunit"
	last=$(ls "$dest"/0*.patch | grep -v cover-letter |
		sed -n "$(awk '!/^#/ && NF { n++ } $1 == "'"$kunit_patch"'" { print n }' "$S/series")p")
	checkout_into "$G" "HEAD~$n" "$T"
	(cd "$T" && patch -s -p1 -F0 --no-backup-if-mismatch -r - <"$last" >/dev/null) ||
		fail "$kver: $(basename "$last") does not apply alone to the stock tree"
	enable_kunit "$T" "$B"
	if compile "$T" "$B" "$WORK/build-$kver-alone.log" kernel/notifier.o kernel/notifier_kunit.o; then
		echo "builds alone on stock $kver: $(basename "$last")"
	else
		fail "$kver: $(basename "$last") does not build alone on the stock tree"
	fi
	rm -rf "$T" "$B"
done
exit $status
