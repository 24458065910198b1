// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope serve's HTTP side (serve_http.h): the exposition served, the
 * connections and their deadlines, libmicrohttpd's polling loop, the
 * listening socket, dropping privileges, and, for live mode, the HTTP
 * process and the feed that carries each exposition to it. serve.c says
 * why the two processes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <microhttpd.h>

#include "chainscope.h"
#include "openmetrics.h"
#include "serve.h"
#include "serve_http.h"

#define SERVE_CONN_TIMEOUT 10		/* seconds a connection may idle */
#define SERVE_REQUEST_TIMEOUT 10	/* seconds to receive a whole request */
#define SERVE_ANSWER_TIMEOUT 60		/* seconds for a client to take the answer */
#define SERVE_CONN_LIMIT 64		/* libmicrohttpd refuses more */
#define SERVE_CONN_SOFT 56		/* beyond: the oldest go, whatever their state */

/* --- the exposition served ------------------------------------------------- */

/*
 * One immutable buffer per collection, shared by every response that
 * serves it (a reference each), freed when the last one is done. Only
 * the HTTP loop's thread touches these: no lock.
 */
struct expo {
	unsigned long refs;
	size_t len;
	char data[];
};

static struct expo *expo;	/* the current one; NULL until the first */

static void expo_put(void *cls)
{
	struct expo *e = cls;

	if (e && !--e->refs)
		free(e);
}

static void expo_publish(struct expo *e)
{
	expo_put(expo);
	expo = e;
}

int serve_http_publish(const char *buf, size_t len)
{
	struct expo *e = malloc(sizeof(*e) + len + 1);

	if (!e)
		return -ENOMEM;
	e->refs = 1;
	e->len = len;
	memcpy(e->data, buf, len);
	expo_publish(e);
	return 0;
}

void serve_http_unpublish(void)
{
	expo_publish(NULL);
}

/* --- connections ------------------------------------------------------------ */

/*
 * Every connection, in the order its clock started. A connection must
 * have received a whole request within SERVE_REQUEST_TIMEOUT of its start
 * (or of the end of its previous request), however it trickles, and taken
 * the answer within SERVE_ANSWER_TIMEOUT; past that, or when more than
 * SERVE_CONN_SOFT connections are open, the oldest are shut down. A new
 * connection, a scraper's, so always finds a slot (SERVE_CONN_LIMIT -
 * SERVE_CONN_SOFT spare), with no per-address limit that local users
 * could fill from the scraper's own address.
 */
struct conn {
	struct conn *prev, *next;
	int fd;
	long long since_ms;	/* receiving, or answering, since */
	bool answering;		/* the request is in: the answer's deadline */
	bool shut;		/* shut down, waiting for libmicrohttpd to close it */
};

static struct conn *conns, *conns_tail;
static unsigned int nr_open;	/* not shut */

long long serve_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void conn_unlink(struct conn *c)
{
	*(c->prev ? &c->prev->next : &conns) = c->next;
	*(c->next ? &c->next->prev : &conns_tail) = c->prev;
	c->prev = c->next = NULL;
}

static void conn_append(struct conn *c)
{
	c->prev = conns_tail;
	c->next = NULL;
	*(conns_tail ? &conns_tail->next : &conns) = c;
	conns_tail = c;
}

/* libmicrohttpd sees the end of the stream and closes the connection */
static void conn_shut(struct conn *c)
{
	if (c->shut)
		return;
	shutdown(c->fd, SHUT_RDWR);
	c->shut = true;
	nr_open--;
}

/* when c's time is up: receiving a request, or answering one */
static long long conn_deadline(const struct conn *c)
{
	return c->since_ms +
	       (c->answering ? SERVE_ANSWER_TIMEOUT : SERVE_REQUEST_TIMEOUT) * 1000LL;
}

/* past their deadline, or the oldest beyond SERVE_CONN_SOFT */
static void conns_enforce(long long now)
{
	struct conn *c;

	for (c = conns; c; c = c->next)
		if (!c->shut && (now >= conn_deadline(c) || nr_open > SERVE_CONN_SOFT))
			conn_shut(c);
}

/* ms until the next deadline, at most max */
static long long conns_next_deadline(long long now, long long max)
{
	struct conn *c;

	for (c = conns; c; c = c->next)
		if (!c->shut && conn_deadline(c) - now < max)
			max = conn_deadline(c) - now;
	return max < 0 ? 0 : max;
}

static void notify_conn(void *cls, struct MHD_Connection *conn, void **socket_ctx,
			enum MHD_ConnectionNotificationCode toe)
{
	const union MHD_ConnectionInfo *ci;
	struct conn *c = *socket_ctx;

	(void)cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		c = calloc(1, sizeof(*c));
		if (!c || !ci) {
			/* cannot track it: do not serve it */
			if (ci)
				shutdown(ci->connect_fd, SHUT_RDWR);
			free(c);
			return;
		}
		c->fd = ci->connect_fd;
		c->since_ms = serve_now_ms();
		conn_append(c);
		*socket_ctx = c;
		nr_open++;
		conns_enforce(c->since_ms);
	} else if (c) {
		if (!c->shut)
			nr_open--;
		conn_unlink(c);
		free(c);
		*socket_ctx = NULL;
	}
}

/* a request answered: the next one on the connection starts its clock */
static void request_done(void *cls, struct MHD_Connection *conn, void **req_ctx,
			 enum MHD_RequestTerminationCode toe)
{
	const union MHD_ConnectionInfo *ci;
	struct conn *c;

	(void)cls;
	(void)req_ctx;
	(void)toe;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	c = ci ? ci->socket_context : NULL;
	if (!c)
		return;
	c->answering = false;
	c->since_ms = serve_now_ms();
	conn_unlink(c);
	conn_append(c);
}

/* --- HTTP ------------------------------------------------------------------- */

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *text, const char *allow)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(strlen(text), (void *)text,
					       MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version,
			      const char *upload_data, size_t *upload_data_size,
			      void **req_cls)
{
	static int headers_in;
	const union MHD_ConnectionInfo *ci;
	struct MHD_Response *resp;
	enum MHD_Result ret;

	(void)cls;
	(void)version;
	(void)upload_data;
	/*
	 * The first call has the headers: answer on a later one, so that
	 * libmicrohttpd keeps the connection alive (a response queued on the
	 * first call closes it). A body, which no route takes, is dropped.
	 */
	if (!*req_cls) {
		*req_cls = &headers_in;
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (ci && ci->socket_context && !((struct conn *)ci->socket_context)->answering) {
		struct conn *c = ci->socket_context;

		/* the request is in: now the answer's clock */
		c->answering = true;
		c->since_ms = serve_now_ms();
		conn_unlink(c);
		conn_append(c);
	}
	switch (serve_route(method, url)) {
	case ROUTE_BAD_METHOD:
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n",
			     "GET, HEAD");
	case ROUTE_NOT_FOUND:
		return reply(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n", NULL);
	case ROUTE_METRICS:
		break;
	}
	if (!expo)
		return reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "no metrics yet\n", NULL);
	/* the shared buffer itself, a reference held until the response is done */
	resp = MHD_create_response_from_buffer_with_free_callback_cls(expo->len, expo->data,
								       expo_put, expo);
	if (!resp)
		return MHD_NO;
	expo->refs++;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, CS_OM_CONTENT_TYPE);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* The listening socket (before any privilege is dropped); fd or -errno */
int serve_listen_on(const struct sockaddr_storage *ss, socklen_t len, unsigned int *port)
{
	struct sockaddr_storage got;
	socklen_t glen = sizeof(got);
	int fd, one = 1, err;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) || listen(fd, 128) ||
	    getsockname(fd, (struct sockaddr *)&got, &glen)) {
		err = -errno;
		close(fd);
		return err;
	}
	*port = ntohs(got.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&got)->sin6_port
						: ((struct sockaddr_in *)&got)->sin_port);
	return fd;
}

/*
 * Give up every privilege the process can: as root, become nobody (no
 * supplementary groups, the capability bounding set emptied first);
 * then no capability in any set, and no_new_privs so that nothing can
 * bring one back. 0, or -errno after one line.
 */
int serve_drop_privileges(const char *cmd)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	const char *step = "";
	int cap, err;

	if (getuid() == 0 || geteuid() == 0 || getgid() == 0 || getegid() == 0) {
		struct passwd *pw = getpwnam("nobody");
		uid_t uid = pw ? pw->pw_uid : 65534;
		gid_t gid = pw ? pw->pw_gid : 65534;

		for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
			prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);	/* EPERM without CAP_SETPCAP */
		step = "setgroups";
		if (setgroups(0, NULL))
			goto fail;
		step = "setresgid";
		if (setresgid(gid, gid, gid))
			goto fail;
		step = "setresuid";
		if (setresuid(uid, uid, uid))
			goto fail;
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(data, 0, sizeof(data));
	step = "capset";
	if (syscall(SYS_capset, &hdr, data))
		goto fail;
	step = "PR_SET_NO_NEW_PRIVS";
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		goto fail;
	step = "capget";
	if (syscall(SYS_capget, &hdr, data))
		goto fail;
	for (cap = 0; cap < _LINUX_CAPABILITY_U32S_3; cap++)
		if (data[cap].effective || data[cap].permitted || data[cap].inheritable) {
			errno = EPERM;
			goto fail;
		}
	return 0;
fail:
	err = -errno;
	warn("%s: error: cannot drop privileges for HTTP: %s: %s\n", cmd, step,
	     strerror(errno));
	return err;
}

/* the exposition a collector sends down the feed: its length, then its bytes */
struct feed {
	int fd;
	__u64 len;
	size_t got;		/* of the length, then of the bytes */
	bool have_len;
	struct expo *in;
};

#define SERVE_MAX_EXPO (1ULL << 30)

/* read what the feed has; 0, 1 at its end, -1 on an error (one line) */
static int feed_read(struct feed *fd)
{
	for (;;) {
		ssize_t n;

		if (fd->have_len && fd->got == fd->len) {
			expo_publish(fd->in);
			fd->in = NULL;
			fd->have_len = false;
			fd->got = 0;
			continue;
		}
		if (!fd->have_len)
			n = read(fd->fd, (char *)&fd->len + fd->got, sizeof(fd->len) - fd->got);
		else
			n = read(fd->fd, fd->in->data + fd->got, fd->len - fd->got);
		if (n == 0)
			return 1;
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		fd->got += n;
		if (!fd->have_len && fd->got == sizeof(fd->len)) {
			if (fd->len > SERVE_MAX_EXPO)
				return -1;
			fd->in = malloc(sizeof(*fd->in) + fd->len + 1);
			if (!fd->in)
				return -1;
			fd->in->refs = 1;
			fd->in->len = fd->len;
			fd->have_len = true;
			fd->got = 0;
		}
	}
}

/*
 * The HTTP loop, in this thread, on the listening socket lfd: until the
 * feed (the collector's expositions; -1 for none) ends, or, without one,
 * a signal or end_ms (0: none). CS_EXIT_OK, or CS_EXIT_LISTEN/_ERROR
 * after one line.
 */
int serve_http_loop(const char *cmd, int lfd, int feed_fd, long long end_ms)
{
	struct feed fd = { .fd = feed_fd };
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	int i, rc = CS_EXIT_OK;

	d = MHD_start_daemon(MHD_USE_EPOLL, 0, NULL, NULL, handle, NULL,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_CONN_TIMEOUT,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_CONN_LIMIT,
			     MHD_OPTION_NOTIFY_CONNECTION, notify_conn, NULL,
			     MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL,
			     MHD_OPTION_END);
	info = d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD) : NULL;
	if (!info) {
		warn("%s: error: libmicrohttpd could not start\n", cmd);
		if (d)
			MHD_stop_daemon(d);
		return CS_EXIT_LISTEN;
	}
	for (;;) {
		struct pollfd pfd[2] = { { info->epoll_fd, POLLIN, 0 }, { feed_fd, POLLIN, 0 } };
		MHD_UNSIGNED_LONG_LONG mhd_ms;
		long long now = serve_now_ms(), wait = 1000;

		if (feed_fd < 0 && (cs_exiting || (end_ms && now >= end_ms)))
			break;
		if (MHD_get_timeout(d, &mhd_ms) == MHD_YES && (long long)mhd_ms < wait)
			wait = mhd_ms;
		wait = conns_next_deadline(now, wait);
		if (end_ms && end_ms - now < wait)
			wait = end_ms - now;
		if (poll(pfd, feed_fd < 0 ? 1 : 2, (int)wait) < 0 && errno != EINTR) {
			warn("%s: error: poll: %s\n", cmd, strerror(errno));
			rc = CS_EXIT_ERROR;
			break;
		}
		if (feed_fd >= 0 && pfd[1].revents) {
			int r = feed_read(&fd);

			if (r) {
				if (r < 0) {
					warn("%s: error: reading the collector's expositions\n",
					     cmd);
					rc = CS_EXIT_ERROR;
				}
				break;
			}
		}
		/*
		 * Again while connections wait in the listen queue: one run
		 * takes a batch of them, and a queue that does not shrink
		 * raises no new event, so a client holding many connections
		 * would otherwise hold up a scraper's connect by seconds.
		 */
		for (i = 0; i < SERVE_CONN_LIMIT; i++) {
			struct pollfd l = { lfd, POLLIN, 0 };

			MHD_run(d);
			conns_enforce(serve_now_ms());
			if (poll(&l, 1, 0) != 1 || !(l.revents & POLLIN))
				break;
		}
	}
	MHD_stop_daemon(d);
	free(fd.in);
	expo_publish(NULL);
	return rc;
}

/*
 * Live mode's HTTP process, forked before any BPF: it has the listening
 * socket and the read end of the feed, drops every privilege, and serves
 * what the collector (the parent) sends, until the feed ends.
 */
static pid_t http_pid = -1;
static int feed_wfd = -1;

int serve_http_fork(const char *cmd, int lfd)
{
	pid_t parent = getpid();
	int p[2];

	if (pipe2(p, O_CLOEXEC)) {
		warn("%s: error: pipe: %s\n", cmd, strerror(errno));
		close(lfd);
		return CS_EXIT_ERROR;
	}
	fflush(NULL);
	http_pid = fork();
	if (http_pid < 0) {
		warn("%s: error: fork: %s\n", cmd, strerror(errno));
		close(lfd);
		close(p[0]);
		close(p[1]);
		return CS_EXIT_ERROR;
	}
	if (!http_pid) {
		int rc, lo, hi;

		/* nothing of the collector's but the socket and the feed */
		lo = lfd < p[0] ? lfd : p[0];
		hi = lfd < p[0] ? p[0] : lfd;
		if (lo > 3)
			close_range(3, lo - 1, 0);
		if (hi > lo + 1)
			close_range(lo + 1, hi - 1, 0);
		close_range(hi + 1, ~0U, 0);
		/* Ctrl-C and SIGTERM are the collector's: this one ends with the feed */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		if (serve_drop_privileges(cmd))
			_exit(CS_EXIT_ERROR);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);	/* after setuid, which clears it */
		if (getppid() != parent)
			_exit(CS_EXIT_ERROR);
		rc = serve_http_loop(cmd, lfd, p[0], 0);
		_exit(rc);
	}
	close(lfd);
	close(p[0]);
	feed_wfd = p[1];
	signal(SIGPIPE, SIG_IGN);
	return CS_EXIT_OK;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		/* Ctrl-C must end serve even if the HTTP process stopped reading */
		if (n < 0 && errno == EINTR && cs_exiting)
			return -EINTR;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

/* Send an exposition to the HTTP process; 0 or -errno */
int serve_http_send(const char *buf, size_t len)
{
	__u64 n = len;
	int err = write_all(feed_wfd, &n, sizeof(n));

	return err ? err : write_all(feed_wfd, buf, len);
}

int serve_http_pid(void)
{
	return (int)http_pid;
}

void serve_http_stop(void)
{
	if (feed_wfd >= 0)
		close(feed_wfd);
	feed_wfd = -1;
	if (http_pid > 0)
		waitpid(http_pid, NULL, 0);
	http_pid = -1;
}
