// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Where chainscope may write, and how (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* -1 with errno and *why set to (err, text) */
static int refuse(const char **why, int err, const char *text)
{
	errno = err;
	*why = text ? text : strerror(err);
	return -1;
}

/* the rules for an existing object, once opened: 0, or -1, errno and *why */
static int check_existing(int fd, bool dir, unsigned int flags, const char **why)
{
	struct stat st;

	if (fstat(fd, &st))
		return refuse(why, errno, NULL);
	if (dir && !S_ISDIR(st.st_mode))
		return refuse(why, ENOTDIR, NULL);
	/* a character device has nothing in it to lose, nor an owner to read it */
	if (!dir && !S_ISREG(st.st_mode) &&
	    !((flags & CS_OUT_STREAM) && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))))
		return refuse(why, EINVAL, "not a regular file");
	if (!(flags & CS_OUT_FORCE) && !S_ISCHR(st.st_mode)) {
		/* another user's FIFO would hand them what we write */
		if (st.st_uid != geteuid())
			return refuse(why, EPERM,
				      "owned by another user (--force writes it anyway)");
		if (S_ISREG(st.st_mode) && st.st_nlink > 1)
			return refuse(why, EMLINK,
				      "has other hard links (--force writes it anyway)");
	}
	if (S_ISREG(st.st_mode) && (flags & CS_OUT_TRUNCATE) && ftruncate(fd, 0))
		return refuse(why, errno, NULL);
	return 0;
}

/*
 * An open() error: O_NOFOLLOW gives ELOOP for a link (ENOTDIR with
 * O_DIRECTORY when the link is to a directory); O_NONBLOCK gives ENXIO
 * for a FIFO without a reader.
 */
static int open_error(int dirfd, const char *path, unsigned int flags, const char **why)
{
	int err = errno;
	struct stat st;

	if (err == ENXIO)
		return flags & CS_OUT_STREAM ? refuse(why, err, "a FIFO without a reader") :
					       refuse(why, EINVAL, "not a regular file");
	if (!(flags & CS_OUT_FORCE) && (err == ELOOP || err == ENOTDIR) &&
	    !fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		return refuse(why, ELOOP, "a symbolic link (--force follows it)");
	return refuse(why, err, NULL);
}

int cs_out_open(int dirfd, const char *path, unsigned int flags, bool *created,
		const char **why)
{
	int fd, saved, nofollow = flags & CS_OUT_FORCE ? 0 : O_NOFOLLOW;
	const char *unused;

	if (!why)
		why = &unused;
	*created = false;
	/* O_EXCL fails on any existing name, a dangling link included */
	fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		*created = true;
		return fd;
	}
	if (errno != EEXIST)
		return refuse(why, errno, NULL);
	/*
	 * O_NONBLOCK: a FIFO opens at once or fails (ENXIO), never waits.
	 * With --force a dangling link's target is created (O_CREAT follows).
	 */
	fd = openat(dirfd, path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		    (nofollow ? nofollow : O_CREAT), 0600);
	if (fd < 0)
		return open_error(dirfd, path, flags, why);
	if (check_existing(fd, false, flags, why))
		goto fail;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		refuse(why, errno, NULL);
		goto fail;
	}
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int cs_out_dir(const char *path, unsigned int flags, const char **why)
{
	int fd, saved, nofollow = flags & CS_OUT_FORCE ? 0 : O_NOFOLLOW;
	const char *unused;
	bool made;

	if (!why)
		why = &unused;
	made = !mkdir(path, 0700);
	if (!made && errno != EEXIST)
		return refuse(why, errno, NULL);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | nofollow);
	if (fd < 0)
		return open_error(AT_FDCWD, path, flags, why);
	if (!made && check_existing(fd, true, flags, why)) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}
