#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of where chainscope writes and reads (outfile.h): record -o,
# report's --perfetto/--folded/--svg and chains --bpf-object make new
# files 0600 and directories 0700; an existing path is written only if it
# is a regular file (directory) of ours, not a symbolic link, without
# other hard links, unless --force; the trace reader refuses a FIFO at
# once; CHAINSCOPE_* overrides are read with secure_getenv(). One line per
# case: "PASS: host.outfile.<case>", "FAIL: ...: why" or "SKIP: ...".
# Nothing here reaches bpf(): record stops at its output path or, with
# CHAINSCOPE_PROBE_ONLY=1, after its probes; report and chains
# --bpf-object need no privileges.
#
#   tests/sh/outfile.sh CHAINSCOPE CS-GENTRACE
set -uo pipefail

CS=$(readlink -f "${1:?usage: outfile.sh CHAINSCOPE CS-GENTRACE}")
GEN=$(readlink -f "${2:?}")
PREFIX=host.outfile
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
export CHAINSCOPE_PROBE_ONLY=1
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1
umask 022

# mode_is NAME PATH MODE: PATH exists with permission bits MODE (octal)
mode_is() {
	local m
	m=$(stat -c %a "$2" 2>/dev/null)
	if [ "$m" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "mode of $2 is '${m:-missing}', want $3"
	fi
}

# untouched NAME FILE: FILE still holds "keep"
untouched() {
	if [ "$(cat "$2" 2>/dev/null)" = keep ]; then
		pass "$1"
	else
		fail "$1" "$2 now holds '$(head -c 40 "$2" 2>/dev/null)'"
	fi
}

"$GEN" clean "$TMP/n.cstrace" || fail generate "cs-gentrace clean failed"

# --- new files and directories: 0600 and 0700 under umask 022 -----------------------------
mode_is trace-writer-new-0600 "$TMP/n.cstrace" 600
run "$CS" report --perfetto "$TMP/p.json" --folded "$TMP/f.txt" --svg "$TMP/svg" "$TMP/n.cstrace"
if [ "$rc" = 0 ]; then
	mode_is perfetto-new-0600 "$TMP/p.json" 600
	mode_is folded-new-0600 "$TMP/f.txt" 600
	mode_is svg-dir-new-0700 "$TMP/svg" 700
	mode_is svg-file-new-0600 "$TMP/svg/test_chain.svg" 600
else
	fail report-new-outputs "exit $rc: ${err:0:300}"
fi
run "$CS" chains --bpf-object "$TMP/chains.o"
if [ "$rc" = 0 ]; then
	mode_is bpf-object-new-0600 "$TMP/chains.o" 600
else
	fail bpf-object-new "exit $rc: ${err:0:300}"
fi
# an existing file of ours is rewritten, and keeps its mode
echo keep > "$TMP/mine.json"
chmod 640 "$TMP/mine.json"
run "$CS" report --perfetto "$TMP/mine.json" "$TMP/n.cstrace"
if [ "$rc" = 0 ] && [ "$(head -c 1 "$TMP/mine.json")" != k ] &&
   [ "$(stat -c %a "$TMP/mine.json")" = 640 ]; then
	pass perfetto-existing-own-rewritten
else
	fail perfetto-existing-own-rewritten "exit $rc: ${err:0:200}; $(stat -c %a "$TMP/mine.json")"
fi

# --- symbolic links: expect_exit without --force, the target untouched -------------------------
echo keep > "$TMP/target"
ln -s "$TMP/target" "$TMP/link"
expect_exit record-symlink 6 "record: error: cannot create $TMP/link: a symbolic link \\(--force follows it\\)" \
	"$CS" record -o "$TMP/link" -d 1
untouched record-symlink-target "$TMP/target"
# with --force the output path passes (recording never begins here: CHAINSCOPE_PROBE_ONLY)
run "$CS" record --force -o "$TMP/link" -d 1
if [ "$rc" != 6 ] && ! grep -q "cannot create" <<<"$err"; then
	pass record-symlink-force
else
	fail record-symlink-force "exit $rc: ${err:0:300}"
fi
expect_exit perfetto-symlink 1 "report: error: cannot create $TMP/link: a symbolic link" \
	"$CS" report --perfetto "$TMP/link" "$TMP/n.cstrace"
untouched perfetto-symlink-target "$TMP/target"
expect_exit folded-symlink 1 "report: error: cannot create $TMP/link: a symbolic link" \
	"$CS" report --folded "$TMP/link" "$TMP/n.cstrace"
untouched folded-symlink-target "$TMP/target"
# --force writes through, and the old content (longer than the new) is gone
"$CS" report --folded "$TMP/fresh.folded" "$TMP/n.cstrace" >/dev/null 2>&1
head -c 300000 /dev/zero >"$TMP/target"
run "$CS" report --force --folded "$TMP/link" "$TMP/n.cstrace"
if [ "$rc" = 0 ] && [ -s "$TMP/fresh.folded" ] && cmp -s "$TMP/target" "$TMP/fresh.folded"; then
	pass folded-symlink-force
else
	fail folded-symlink-force "exit $rc: ${err:0:200}; target $(stat -c %s "$TMP/target") bytes, a fresh one $(stat -c %s "$TMP/fresh.folded")"
fi
head -c 300000 /dev/zero >"$TMP/big.o"
run "$CS" chains --force --bpf-object "$TMP/big.o"
if [ "$rc" = 0 ] && cmp -s "$TMP/big.o" "$TMP/chains.o"; then
	pass bpf-object-force-truncates
else
	fail bpf-object-force-truncates "exit $rc: ${err:0:200}; $(stat -c %s "$TMP/big.o") bytes, want $(stat -c %s "$TMP/chains.o")"
fi
echo keep > "$TMP/target"
expect_exit bpf-object-symlink 6 "cannot write $TMP/link: a symbolic link" \
	"$CS" chains --bpf-object "$TMP/link"
untouched bpf-object-symlink-target "$TMP/target"
# a dangling link is not created through either
ln -s "$TMP/nowhere" "$TMP/dangling"
expect_exit record-dangling-symlink 6 "cannot create $TMP/dangling: a symbolic link" \
	"$CS" record -o "$TMP/dangling" -d 1
if [ ! -e "$TMP/nowhere" ]; then
	pass record-dangling-symlink-no-target
else
	fail record-dangling-symlink-no-target "$TMP/nowhere was created"
fi
# with --force the link is followed and its target made
run "$CS" report --force --folded "$TMP/dangling" "$TMP/n.cstrace"
if [ "$rc" = 0 ] && cmp -s "$TMP/nowhere" "$TMP/fresh.folded"; then
	pass folded-dangling-symlink-force
else
	fail folded-dangling-symlink-force "exit $rc: ${err:0:200}"
fi
# --svg: a directory that is a link, and a link inside the directory
mkdir "$TMP/realdir"
ln -s "$TMP/realdir" "$TMP/dirlink"
expect_exit svg-dir-symlink 1 "cannot create directory $TMP/dirlink: a symbolic link" \
	"$CS" report --svg "$TMP/dirlink" "$TMP/n.cstrace"
if [ -z "$(ls -A "$TMP/realdir")" ]; then
	pass svg-dir-symlink-empty
else
	fail svg-dir-symlink-empty "files written through the link: $(ls "$TMP/realdir")"
fi
mkdir -m 700 "$TMP/svg2"
ln -s "$TMP/target" "$TMP/svg2/test_chain.svg"
expect_exit svg-file-symlink 1 "cannot write $TMP/svg2/test_chain.svg: a symbolic link" \
	"$CS" report --svg "$TMP/svg2" "$TMP/n.cstrace"
untouched svg-file-symlink-target "$TMP/target"

# --- other hard links: expect_exit without --force ---------------------------------------------
echo keep > "$TMP/hl-target"
ln "$TMP/hl-target" "$TMP/hardlink"
expect_exit record-hardlink 6 "cannot create $TMP/hardlink: has other hard links \\(--force" \
	"$CS" record -o "$TMP/hardlink" -d 1
expect_exit perfetto-hardlink 1 "cannot create $TMP/hardlink: has other hard links" \
	"$CS" report --perfetto "$TMP/hardlink" "$TMP/n.cstrace"
untouched hardlink-target "$TMP/hl-target"

# --- another user's file or directory: expect_exit without --force (root can chown) --------------
if [ "$ROOT" = 1 ]; then
	echo keep > "$TMP/theirs"
	chown 65534:65534 "$TMP/theirs"
	expect_exit record-foreign-owner 6 "cannot create $TMP/theirs: owned by another user \\(--force" \
		"$CS" record -o "$TMP/theirs" -d 1
	expect_exit perfetto-foreign-owner 1 "cannot create $TMP/theirs: owned by another user" \
		"$CS" report --perfetto "$TMP/theirs" "$TMP/n.cstrace"
	expect_exit bpf-object-foreign-owner 6 "cannot write $TMP/theirs: owned by another user" \
		"$CS" chains --bpf-object "$TMP/theirs"
	untouched foreign-owner-untouched "$TMP/theirs"
	# another user's FIFO, with a reader: it would hand them the export
	mkfifo "$TMP/theirfifo"
	chown 65534:65534 "$TMP/theirfifo"
	exec 6<>"$TMP/theirfifo"
	expect_exit perfetto-foreign-fifo 1 "cannot create $TMP/theirfifo: owned by another user" \
		timeout 120 "$CS" report --perfetto "$TMP/theirfifo" "$TMP/n.cstrace"
	exec 6>&-
	mkdir "$TMP/theirdir"
	chown 65534:65534 "$TMP/theirdir"
	expect_exit svg-dir-foreign-owner 1 "cannot create directory $TMP/theirdir: owned by another user" \
		"$CS" report --svg "$TMP/theirdir" "$TMP/n.cstrace"
	run "$CS" report --force --svg "$TMP/theirdir" "$TMP/n.cstrace"
	if [ "$rc" = 0 ] && [ -s "$TMP/theirdir/test_chain.svg" ]; then
		pass svg-dir-foreign-owner-force
	else
		fail svg-dir-foreign-owner-force "exit $rc: ${err:0:200}"
	fi
else
	skip foreign-owner "not root: cannot give a file to another user"
fi

# --- the trace reader: a FIFO is expect_exit at once, with or without a writer -------------------
# (timeout only ends a hang, exit 124; it times nothing)
mkfifo "$TMP/fifo"
for sub in report check; do
	expect_exit "$sub-reads-fifo" 2 "$TMP/fifo: not a regular file" timeout 60 "$CS" $sub "$TMP/fifo"
done
expect_exit serve-trace-fifo 2 "$TMP/fifo: not a regular file" timeout 60 "$CS" serve --trace "$TMP/fifo"

# --- exports may stream into an existing character device or a FIFO with a reader ----------
run "$CS" report --folded /dev/null "$TMP/n.cstrace"
if [ "$rc" = 0 ] && [ -c /dev/null ]; then
	pass folded-to-char-device
else
	fail folded-to-char-device "exit $rc: ${err:0:300}"
fi
mkfifo "$TMP/export-fifo"
expect_exit folded-fifo-without-reader 1 "cannot create $TMP/export-fifo: a FIFO without a reader" \
	timeout 60 "$CS" report --folded "$TMP/export-fifo" "$TMP/n.cstrace"
# a reader that takes everything: cat into a file, started before the writer
cat "$TMP/export-fifo" >"$TMP/from-fifo" &
reader=$!
exec 4>"$TMP/export-fifo"	# opens once cat has the read side; keeps it open
run timeout 60 "$CS" report --folded "$TMP/export-fifo" "$TMP/n.cstrace"
exec 4>&-
wait "$reader"
if [ "$rc" = 0 ] && grep -q '^test_chain;' "$TMP/from-fifo"; then
	pass folded-to-fifo-with-reader
else
	fail folded-to-fifo-with-reader "exit $rc: ${err:0:200}; read: $(head -c 80 "$TMP/from-fifo")"
fi
expect_exit bpf-object-to-char-device 6 "cannot write /dev/null: not a regular file" \
	"$CS" chains --bpf-object /dev/null

# --- CHAINSCOPE_* overrides: secure_getenv() only, so a binary given file capabilities
# (AT_SECURE) ignores them; the binary imports no getenv() of its own
if ! command -v nm >/dev/null; then
	skip no-plain-getenv "nm not installed"
elif ! syms=$(nm -D --undefined-only "$CS"); then
	fail no-plain-getenv "nm -D failed on $CS"
elif grep -qw getenv <<<"$syms" || ! grep -qw secure_getenv <<<"$syms"; then
	fail no-plain-getenv "imports: $(grep -w -e getenv -e secure_getenv <<<"$syms" | tr '\n' ' ')"
else
	pass no-plain-getenv
fi

exit $failed
