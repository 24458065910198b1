// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat input, the parser process (tracedat.h: cs_tracedat_read()):
 * cs_tracedat_convert() in a child without privileges and with resource
 * limits, its image read back through a pipe and parsed by the strict
 * reader. Apart from the decoding (tracedat.c), which the live tracefs
 * input (tracefs_input.c) shares in its own process.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tracedat.h"
#include "tracefile.h"

/* sanitizers reserve terabytes of address space: no RLIMIT_AS under them */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_NO_AS_LIMIT 1
#endif
#endif

/* --- the parser process -------------------------------------------------- */

/* what the child sends: this, then err (rc != 0) or the image */
struct msg {
	__s32 rc;
	__u32 pad;
	__u64 len;
	struct cs_tracedat_info info;
};

static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		n -= w;
	}
	return 0;
}

/* read up to n bytes; the count read */
static size_t read_all(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

/*
 * No privilege left: as root, nobody (65534) without groups; every
 * capability set emptied; no_new_privs. Then limits: memory, CPU time,
 * no file written, no core, few descriptors.
 */
/* Close every descriptor but 0-2, @a and @b (a < b). */
static int close_others(int a, int b)
{
	if (a > 3 && close_range(3, a - 1, 0))
		return -1;
	if (b > a + 1 && close_range(a + 1, b - 1, 0))
		return -1;
	return close_range(b + 1, ~0U, 0);
}

static int confine(int fd, int out, __u64 file_size, pid_t parent)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU };
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	const char *cpu = secure_getenv("CHAINSCOPE_TRACEDAT_CPU");
	__u64 as = (1ULL << 30) + 64 * file_size;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct rlimit rl;
	size_t i;

	/*
	 * Nothing to say on stderr (the answer goes through the pipe), and
	 * a write there would break RLIMIT_FSIZE when it is a file; nothing
	 * to read but the trace; and no descriptor chainscope's caller
	 * passed down (a file or pipe open for writing) left to the library.
	 */
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0 ||
	    dup2(null, STDOUT_FILENO) < 0)
		return -1;
	close(null);
	if (close_others(fd < out ? fd : out, fd < out ? out : fd))
		return -1;
	/* the library's crash is this process's death by that signal */
	for (i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		signal(deadly[i], SIG_DFL);
	if (geteuid() == 0 &&
	    (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	     setresuid(65534, 65534, 65534)))
		return -1;
	if (syscall(SYS_capset, &hdr, data) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	/* after the uid change, which clears it: die with chainscope */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || prctl(PR_SET_DUMPABLE, 0) ||
	    getppid() != parent)
		return -1;
	rl.rlim_cur = rl.rlim_max = as > (16ULL << 30) ? (16ULL << 30) : as;
#ifndef CS_NO_AS_LIMIT
	if (setrlimit(RLIMIT_AS, &rl))
		return -1;
#endif
	/*
	 * CPU: 10 s and 1 s per 8 MiB of file (libtraceevent's kbuffer
	 * loops forever on some crafted pages): SIGXCPU, then SIGKILL a
	 * second later. CHAINSCOPE_TRACEDAT_CPU=S overrides (tests).
	 */
	rl.rlim_cur = cpu && atoi(cpu) > 0 ? (rlim_t)atoi(cpu) : 10 + file_size / (8u << 20);
	rl.rlim_max = rl.rlim_cur + 1;
	if (setrlimit(RLIMIT_CPU, &rl))
		return -1;
	rl.rlim_cur = rl.rlim_max = 0;
	if (setrlimit(RLIMIT_FSIZE, &rl) || setrlimit(RLIMIT_CORE, &rl))
		return -1;
	rl.rlim_cur = rl.rlim_max = 32;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

static void child(int fd, int out, __u64 file_size, pid_t parent, const char *clock)
{
	struct msg m = { 0 };
	char err[512] = "";
	void *img = NULL;
	size_t len = 0;

	if (confine(fd, out, file_size, parent)) {
		m.rc = CS_EXIT_TRACEDAT;
		snprintf(err, sizeof(err), "cannot confine the parser process: %s",
			 strerror(errno));
	} else {
		m.rc = cs_tracedat_convert(fd, clock, &img, &len, &m.info, err, sizeof(err));
	}
	m.len = m.rc ? strlen(err) : len;
	if (write_all(out, &m, sizeof(m)) ||
	    write_all(out, m.rc ? (void *)err : img, m.len))
		_exit(1);
	_exit(0);
}

int cs_tracedat_read(int fd, struct cs_trace *t, struct cs_tracedat_info *info,
		     char *err, size_t errlen)
{
	struct cs_tracedat_buffers bufs;
	struct stat st;
	struct msg m;
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	int p[2], status = 0, rc;
	pid_t w;
	void *buf = NULL;
	pid_t pid, parent;
	size_t got;

	memset(t, 0, sizeof(*t));
	memset(info, 0, sizeof(*info));
	if (fstat(fd, &st) || pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		close(fd);
		return CS_EXIT_TRACEDAT;
	}
	/* before libtracecmd: every extent the file names inside it */
	rc = cs_tracedat_extents(fd, (__u64)st.st_size, &bufs, err, errlen);
	if (rc) {
		close(fd);
		close(p[0]);
		close(p[1]);
		return rc;
	}
	fflush(NULL);
	/* an inherited SIG_IGN would let the kernel reap the child: no status */
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old_chld);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		sigaction(SIGCHLD, &old_chld, NULL);
		snprintf(err, errlen, "cannot start the parser process: %s", strerror(errno));
		close(fd);
		close(p[0]);
		close(p[1]);
		return CS_EXIT_TRACEDAT;
	}
	if (!pid) {
		close(p[0]);
		/* CPU time by what the file holds: a sparse file is no longer */
		child(fd, p[1], (__u64)st.st_blocks * 512 < (__u64)st.st_size ?
		      (__u64)st.st_blocks * 512 : (__u64)st.st_size, parent,
		      bufs.clock_override[0] ? bufs.clock_override : NULL);
	}
	close(fd);
	close(p[1]);
	got = read_all(p[0], &m, sizeof(m));
	rc = CS_EXIT_TRACEDAT_CRASH;
	if (got == sizeof(m) && m.rc == 0 && m.len >= CS_TRACE_HEADER_SIZE &&
	    m.len <= 256 * (__u64)st.st_size + (1u << 20)) {
		buf = aligned_alloc(8, (m.len + 7) & ~(__u64)7);
		if (buf && read_all(p[0], buf, m.len) == m.len)
			rc = 0;
		else if (!buf)
			snprintf(err, errlen, "out of memory for the converted trace");
	} else if (got == sizeof(m) && m.rc > 0 && m.len < errlen) {
		if (read_all(p[0], err, m.len) == m.len) {
			err[m.len] = 0;
			rc = m.rc;
		}
	}
	close(p[0]);
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	sigaction(SIGCHLD, &old_chld, NULL);
	if (w != pid) {
		snprintf(err, errlen, "cannot wait for the trace.dat parser process: %s",
			 strerror(errno));
		rc = CS_EXIT_TRACEDAT_CRASH;
	} else if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "the trace.dat parser (libtracecmd, in a child process) "
			 "died of signal %d (%s): the file is truncated, malformed or hostile",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		rc = CS_EXIT_TRACEDAT_CRASH;
	} else if (rc == CS_EXIT_TRACEDAT_CRASH || (WIFEXITED(status) && WEXITSTATUS(status))) {
		if (!err[0] || rc == 0 || rc == CS_EXIT_TRACEDAT_CRASH)
			snprintf(err, errlen, "the trace.dat parser process ended without "
				 "an answer (exit %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		rc = CS_EXIT_TRACEDAT_CRASH;
	}
	if (rc) {
		free(buf);
		return rc;
	}
	*info = m.info;
	info->clock[sizeof(info->clock) - 1] = 0;
	info->buffer[sizeof(info->buffer) - 1] = 0;
	info->bufs = bufs;
	/*
	 * v7 stores each instance's clock; libtracecmd hands an instance's
	 * records out with the top buffer's clock: another one is refused
	 */
	if (info->buffer_index && info->buffer_index <= CS_TRACEDAT_MAX_BUFFERS &&
	    info->buffer_index <= bufs.nr && bufs.clock[info->buffer_index - 1][0] &&
	    strcmp(bufs.clock[info->buffer_index - 1], info->clock)) {
		char *k = bufs.clock[info->buffer_index - 1];
		size_t i;

		for (i = 0; k[i]; i++)
			if (k[i] < 0x21 || k[i] > 0x7e || k[i] == '"')
				k[i] = '?';
		snprintf(err, errlen, "buffer instance \"%s\" was recorded with trace clock "
			 "\"%s\", the top buffer with \"%s\": libtracecmd reads it with the "
			 "top buffer's; record both with one clock (-C)", info->buffer, k,
			 info->clock);
		free(buf);
		return CS_EXIT_TRACEDAT_CLOCK;
	}
	if (cs_trace_parse(buf, m.len, t, err, errlen)) {
		free(buf);
		return CS_EXIT_TRACEDAT;
	}
	t->buf = buf;
	t->len = m.len;
	return 0;
}
