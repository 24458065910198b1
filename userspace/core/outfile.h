/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The files and directories chainscope writes (record -o, report's
 * exports and --svg, chains --bpf-object). chainscope runs as root or
 * with CAP_BPF + CAP_PERFMON, often with its output in a directory that
 * others can write, such as /tmp: a path there may have been planted by
 * another user. So:
 *   - a new file is made 0600, a new directory 0700 (less what the umask
 *     takes away), and O_EXCL never follows a link;
 *   - an existing path is never followed if it is a symbolic link, and a
 *     regular file, FIFO (a directory, for cs_out_dir()) is reused only
 *     if it is owned by the effective uid and, for regular files, has no
 *     other hard link: the victim of a planted name is never truncated,
 *     nor another user's FIFO handed what we write;
 *   - CS_OUT_FORCE (--force) lifts the link, owner and hard-link rules;
 *   - only a regular file is written, or with CS_OUT_STREAM also an
 *     existing FIFO or character device (an export to /dev/null or to a
 *     reader's FIFO); opening never blocks on a FIFO.
 */
#ifndef CHAINSCOPE_OUTFILE_H
#define CHAINSCOPE_OUTFILE_H

#include <stdbool.h>

#define CS_OUT_FORCE	(1U << 0)	/* --force: see above */
#define CS_OUT_STREAM	(1U << 1)	/* an existing FIFO or char device will do */
#define CS_OUT_TRUNCATE	(1U << 2)	/* truncate an existing regular file now */

/*
 * PATH (relative to DIRFD, or AT_FDCWD) for writing under the rules
 * above. Returns the descriptor (blocking, close-on-exec), with *created
 * telling whether this call made the file; or -1 with errno set and *why
 * (may be NULL) the reason for a message: strerror(errno), or the rule
 * that refused. Without CS_OUT_TRUNCATE nothing is truncated: record
 * truncates only once recording begins.
 */
int cs_out_open(int dirfd, const char *path, unsigned int flags, bool *created,
		const char **why);

/*
 * Directory PATH, made 0700 if it does not exist: an O_DIRECTORY
 * descriptor for cs_out_open(), or -1 with errno set and *why as above.
 */
int cs_out_dir(const char *path, unsigned int flags, const char **why);

#endif /* CHAINSCOPE_OUTFILE_H */
