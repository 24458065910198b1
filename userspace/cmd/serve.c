// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope serve: latency's BPF programs (and contention's, for lock
 * waits, where the kernel has them) stay attached and GET /metrics
 * serves the Prometheus text exposition of the counters since start
 * (openmetrics.c, om_counters.c); --trace FILE serves a recording's instead,
 * without BPF.
 *
 * Collection and serving are separate processes (live) so that nothing
 * that parses a request holds a privilege: after the start-up probes and
 * before kallsyms or any bpf(), serve binds the listening socket and
 * forks the HTTP process, which drops everything (drop_privileges()) and
 * runs libmicrohttpd in one polling loop (http_loop()); the collector
 * (lat_collect.c's interval loop) sends each exposition down a pipe. The HTTP
 * side serves one immutable buffer per collection, shared by every
 * response. With --trace there is one process, which drops the same way
 * before it listens. Connections: a bound on the time to receive a whole
 * request, and the oldest go first when many are open
 * (see struct conn). Addresses no symbol names are addr#N (callback_row.h)
 * unless --show-addresses.
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
#include "cont_collect.h"
#include "lat_collect.h"
#include "om_counters.h"
#include "openmetrics.h"
#include "report.h"
#include "serve.h"
#include "tracefile.h"

#define SERVE_MAX_CHAINS CS_LAT_MAX_SEEDS
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9469"
#define SERVE_DEFAULT_INTERVAL 5	/* seconds between collections */
#define SERVE_CONN_TIMEOUT 10		/* seconds a connection may idle */
#define SERVE_REQUEST_TIMEOUT 10	/* seconds to receive a whole request */
#define SERVE_ANSWER_TIMEOUT 60		/* seconds for a client to take the answer */
#define SERVE_CONN_LIMIT 64		/* libmicrohttpd refuses more */
#define SERVE_CONN_SOFT 56		/* beyond: the oldest go, whatever their state */

static struct env {
	struct cs_common c;
	const char *listen;
	const char *trace;
	bool show_addresses;
	const char *chains[SERVE_MAX_CHAINS];
	int nr_chains;
} env;

enum { OPT_LISTEN = 0x100, OPT_TRACE, OPT_SHOW_ADDRESSES };

static const struct argp_option opts[] = {
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0, "Listen here (default "
	  SERVE_DEFAULT_LISTEN "; [ADDR]:PORT for IPv6; port 0 picks a free one)", 0 },
	{ "chain", 'c', "CHAIN", 0, "Only this chain head (symbol or 0xADDR); repeat for "
	  "more", 0 },
	{ "trace", OPT_TRACE, "FILE", 0, "Serve the exposition of a trace file "
	  "('chainscope record') instead: no BPF, no privileges", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "Label series with the kernel "
	  "addresses no symbol names (default: addr#N, a number per address): a KASLR "
	  "leak to whoever can scrape", 0 },
	{},
};

static const char doc[] =
"Serve notifier callback latency, return outcomes, chain passes and\n"
"chainscope's health as Prometheus metrics: GET /metrics on the listen\n"
"address (HEAD too; other paths 404, other methods 405). Counters run\n"
"from the start of the process; a chain or callback that goes away keeps\n"
"its last values. The BPF programs stay attached; the counters are\n"
"collected every INTERVAL seconds (default 5). HTTP runs in a separate\n"
"process without privileges; kernel addresses show as addr#N.\n"
"\v"
CS_EXIT_DOC
"\n"
"Examples:\n"
"  chainscope serve                       # http://127.0.0.1:9469/metrics\n"
"  chainscope serve --listen 0.0.0.0:9469 -c reboot_notifier_list\n"
"  chainscope serve --mode probes 15      # collect every 15 s\n"
"  chainscope serve --trace n.cstrace --listen 127.0.0.1:0\n"
"  curl -s http://127.0.0.1:9469/metrics | promtool check metrics\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &env.c;
		return 0;
	case OPT_LISTEN:
		env.listen = arg;
		return 0;
	case OPT_TRACE:
		env.trace = arg;
		return 0;
	case OPT_SHOW_ADDRESSES:
		env.show_addresses = true;
		return 0;
	case 'c':
		if (env.nr_chains == SERVE_MAX_CHAINS)
			cs_usage_error(state, "more than %d -c chains", SERVE_MAX_CHAINS);
		env.chains[env.nr_chains++] = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "[INTERVAL [COUNT]]",
	.doc = doc,
	.children = cs_common_children,
};

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

static long long now_ms(void)
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
		c->since_ms = now_ms();
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
	c->since_ms = now_ms();
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
		c->since_ms = now_ms();
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
static int listen_on(const struct sockaddr_storage *ss, socklen_t len, unsigned int *port)
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
static int drop_privileges(void)
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
	warn("%s: error: cannot drop privileges for HTTP: %s: %s\n", env.c.cmd, step,
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
static int http_loop(int lfd, int feed_fd, long long end_ms)
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
		warn("%s: error: libmicrohttpd could not start\n", env.c.cmd);
		if (d)
			MHD_stop_daemon(d);
		return CS_EXIT_LISTEN;
	}
	for (;;) {
		struct pollfd pfd[2] = { { info->epoll_fd, POLLIN, 0 }, { feed_fd, POLLIN, 0 } };
		MHD_UNSIGNED_LONG_LONG mhd_ms;
		long long now = now_ms(), wait = 1000;

		if (feed_fd < 0 && (cs_exiting || (end_ms && now >= end_ms)))
			break;
		if (MHD_get_timeout(d, &mhd_ms) == MHD_YES && (long long)mhd_ms < wait)
			wait = mhd_ms;
		wait = conns_next_deadline(now, wait);
		if (end_ms && end_ms - now < wait)
			wait = end_ms - now;
		if (poll(pfd, feed_fd < 0 ? 1 : 2, (int)wait) < 0 && errno != EINTR) {
			warn("%s: error: poll: %s\n", env.c.cmd, strerror(errno));
			rc = CS_EXIT_ERROR;
			break;
		}
		if (feed_fd >= 0 && pfd[1].revents) {
			int r = feed_read(&fd);

			if (r) {
				if (r < 0) {
					warn("%s: error: reading the collector's expositions\n",
					     env.c.cmd);
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
			conns_enforce(now_ms());
			if (poll(&l, 1, 0) != 1 || !(l.revents & POLLIN))
				break;
		}
	}
	MHD_stop_daemon(d);
	free(fd.in);
	expo_publish(NULL);
	return rc;
}

/* "ADDR" of --listen, for messages */
static void listen_warnings(const char *listen, const struct sockaddr_storage *ss)
{
	if (!serve_is_loopback(ss))
		warn("%s: warning: %.*s is not loopback: anyone who reaches it reads the "
		     "metrics, unauthenticated and in clear; put a reverse proxy with TLS and "
		     "auth in front (and listen on loopback), or firewall the port\n",
		     env.c.cmd, (int)(strrchr(listen, ':') - listen), listen);
	if (env.show_addresses)
		warn("%s: warning: --show-addresses: the series carry kernel addresses, "
		     "which undo KASLR for whoever can scrape them\n", env.c.cmd);
}

static int open_listen(unsigned int *port)
{
	const char *listen = env.listen ? env.listen : SERVE_DEFAULT_LISTEN;
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	serve_parse_listen(listen, &ss, &len);	/* checked in cmd_serve() */
	listen_warnings(listen, &ss);
	fd = listen_on(&ss, len, port);
	if (fd < 0)
		warn("%s: error: cannot listen on %s: %s\n", env.c.cmd,
		     cs_safe_str(listen, (char[CS_SAFE_STR_LEN(128)]){ 0 },
				 CS_SAFE_STR_LEN(128)), strerror(-fd));
	return fd;
}

static void say_serving(unsigned int port, const char *how)
{
	const char *listen = env.listen ? env.listen : SERVE_DEFAULT_LISTEN;

	warn("%s: serving http://%.*s:%u/metrics (%s)... Hit Ctrl-C to end.\n", env.c.cmd,
	     (int)(strrchr(listen, ':') - listen), listen, port, how);
}

static void say_dropped(void)
{
	warn("%s: HTTP in pid %d, uid %u, no capabilities\n", env.c.cmd, (int)getpid(),
	     (unsigned int)getuid());
}

/*
 * Live mode's HTTP process, forked before any BPF: it has the listening
 * socket and the read end of the feed, drops every privilege, and serves
 * what the collector (the parent) sends, until the feed ends.
 */
static pid_t http_pid = -1;
static int feed_wfd = -1;
static unsigned int http_port;

static int fork_http(void)
{
	int lfd, p[2];
	pid_t parent = getpid();

	lfd = open_listen(&http_port);
	if (lfd < 0)
		return CS_EXIT_LISTEN;
	if (pipe2(p, O_CLOEXEC)) {
		warn("%s: error: pipe: %s\n", env.c.cmd, strerror(errno));
		close(lfd);
		return CS_EXIT_ERROR;
	}
	fflush(NULL);
	http_pid = fork();
	if (http_pid < 0) {
		warn("%s: error: fork: %s\n", env.c.cmd, strerror(errno));
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
		if (drop_privileges())
			_exit(CS_EXIT_ERROR);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);	/* after setuid, which clears it */
		if (getppid() != parent)
			_exit(CS_EXIT_ERROR);
		rc = http_loop(lfd, p[0], 0);
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
static int feed_send(const char *buf, size_t len)
{
	__u64 n = len;
	int err = write_all(feed_wfd, &n, sizeof(n));

	return err ? err : write_all(feed_wfd, buf, len);
}

static void stop_http(void)
{
	if (feed_wfd >= 0)
		close(feed_wfd);
	feed_wfd = -1;
	if (http_pid > 0)
		waitpid(http_pid, NULL, 0);
	http_pid = -1;
}

/* --- live: latency's collection --------------------------------------------- */

struct live {
	struct cs_lat_run *run;
	struct cs_om_live *om;
	struct cs_cont *ct;	/* lock waits, where the kernel has them */
	__u64 heads[SERVE_MAX_CHAINS];
	int nr_heads;
};

/* The exposition of what om holds, sent to the HTTP process; 0 or -errno */
static int publish_live(struct cs_om_live *om, const struct ksyms *ks)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -errno;
	err = cs_om_live_write(om, f, ks);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err)
		err = feed_send(buf, len);
	free(buf);
	return err;
}

static const struct ksyms *live_ks;	/* lat_collect.c's, for the first exposition */

/*
 * After the start-up probes, before kallsyms and any bpf(): HTTP in its own
 * process, which has nothing of the collector's (no BPF object, no
 * symbol table) and no privilege
 */
static int live_probed(void *ctx)
{
	(void)ctx;
	return fork_http();
}

/* -c, after kallsyms: every chain resolved before any bpf() */
static int live_setup(void *ctx, const struct ksyms *ks)
{
	struct live *l = ctx;
	int i, err;

	for (i = 0; i < env.nr_chains; i++) {
		err = cs_resolve(env.c.cmd, ks, "chain", env.chains[i], &l->heads[i]);
		if (err)
			return err;
	}
	l->nr_heads = env.nr_chains;
	/* probes mode: every -c chain is walked at start, not only if seen */
	l->run->seed_heads = l->heads;
	l->run->nr_seed_heads = l->nr_heads;
	live_ks = ks;
	l->om = cs_om_live_new(&env.c, l->heads, l->nr_heads);
	if (!l->om) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return CS_EXIT_ERROR;
	}
	return 0;
}

/*
 * Lock waits come from contention's programs, loaded beside latency's
 * where they work: notifier_lock_wait (tracepoints mode) or
 * lock:contention_begin/end (probes mode). Without them, or if they fail
 * to load, serve goes on without lock waits (a warning).
 */
static void start_locks(struct live *l)
{
	bool lock_tps = cs_btf_has_tp("contention_begin", 2) &&
			cs_btf_has_tp("contention_end", 2);
	char how[160];

	if (env.c.mode == CS_MODE_TRACEPOINTS ? !cs_btf_has_tp("notifier_lock_wait", 5)
					      : !lock_tps) {
		warn("%s: warning: no lock waits: the kernel has no notifier_lock_wait "
		     "(or lock:contention_begin/end in probes mode)\n", env.c.cmd);
		return;
	}
	l->ct = cs_cont_start(&env.c, live_ks, l->nr_heads == 1 ? l->heads[0] : 0,
			      lock_tps, how, sizeof(how));
	if (!l->ct)
		warn("%s: warning: serving without lock waits\n", env.c.cmd);
}

static int live_attached(void *ctx, const char *how)
{
	struct live *l = ctx;
	int err;

	start_locks(l);

	/* scrapes before the first interval get the families, no series */
	err = publish_live(l->om, live_ks);
	if (err) {
		warn("%s: error: cannot pass the exposition to HTTP: %s\n", env.c.cmd,
		     strerror(-err));
		return CS_EXIT_ERROR;
	}
	warn("%s: HTTP in pid %d, without privileges\n", env.c.cmd, (int)http_pid);
	say_serving(http_port, how);
	return CS_EXIT_OK;
}

static int live_interval(void *ctx, const struct cs_lat_sample *smp)
{
	struct live *l = ctx;
	int err;

	err = cs_om_live_add(l->om, smp);
	if (!err && l->ct) {
		struct cs_cont_sample cs;

		err = cs_cont_drain(l->ct, &cs);
		if (!err)
			err = cs_om_live_add_locks(l->om, &cs);
		free(cs.ce);
		free(cs.we);
	}
	if (!err)
		err = publish_live(l->om, smp->ks);
	if (err == -EINTR && cs_exiting)
		return 0;	/* ending: this exposition is not needed */
	if (err == -EPIPE)
		warn("%s: error: the HTTP process (pid %d) ended\n", env.c.cmd, (int)http_pid);
	else if (err)
		warn("%s: error: cannot build the exposition: %s\n", env.c.cmd,
		     strerror(-err));
	return err;
}

static int serve_live(void)
{
	struct live l = {};
	struct cs_lat_run run = {
		.c = &env.c,
		.chain = env.nr_chains == 1 ? env.chains[0] : NULL,	/* in BPF */
		.kind = CS_KIND_ANY,
		.chain_mode = true,
		.chain_mode_optional = true,
		.ctx = &l,
		.probed = live_probed,
		.setup = live_setup,
		.attached = live_attached,
		.interval = live_interval,
	};
	int err;

	if (!env.c.interval)
		env.c.interval = SERVE_DEFAULT_INTERVAL;
	l.run = &run;
	err = cs_latency_run(&run);
	stop_http();
	cs_cont_stop(l.ct);
	cs_om_live_free(l.om);
	return err;
}

/* --- --trace FILE ------------------------------------------------------------ */

static int serve_trace(void)
{
	struct cs_report_opts o = {
		.cmd = env.c.cmd,
		.file = env.trace,
		.units = env.c.units,
		.openmetrics = true,
		.svg_dirfd = -1,
	};
	char msg[512], *buf = NULL;
	struct cs_trace t;
	struct expo *e;
	unsigned int port;
	size_t len = 0;
	long long end = 0;
	FILE *f;
	int rc, lfd;

	if (cs_trace_read(env.trace, &t, msg, sizeof(msg))) {
		warn("%s: error: %s: %s\n", env.c.cmd,
		     cs_safe_str(env.trace, (char[CS_SAFE_STR_LEN(1024)]){ 0 },
				 CS_SAFE_STR_LEN(1024)), msg);
		return CS_EXIT_USAGE;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		warn("%s: error: out of memory\n", env.c.cmd);
		cs_trace_free(&t);
		return CS_EXIT_ERROR;
	}
	rc = cs_report_run(&t, &o, f, stderr);
	if (fclose(f) && rc == CS_EXIT_OK) {
		warn("%s: error: out of memory\n", env.c.cmd);
		rc = CS_EXIT_ERROR;
	}
	cs_trace_free(&t);
	e = rc ? NULL : malloc(sizeof(*e) + len + 1);
	if (e) {
		e->refs = 1;
		e->len = len;
		memcpy(e->data, buf, len);
	}
	free(buf);
	if (rc)
		return rc;
	if (!e) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return CS_EXIT_ERROR;
	}
	expo_publish(e);
	lfd = open_listen(&port);
	if (lfd < 0) {
		expo_publish(NULL);
		return CS_EXIT_LISTEN;
	}
	/* nothing here needs a privilege: none left before the first request */
	if (drop_privileges()) {
		close(lfd);
		expo_publish(NULL);
		return CS_EXIT_ERROR;
	}
	say_dropped();
	cs_setup_signals();
	say_serving(port, "trace file");
	/* INTERVAL COUNT: end after that long (tests), else at a signal */
	if (env.c.interval && env.c.count)
		end = now_ms() + env.c.interval * env.c.count * 1000LL;
	rc = http_loop(lfd, -1, end);
	close(lfd);
	return rc;
}

int cmd_serve(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;

	cs_common_init(&env.c, argv[0]);
	cs_parse_args(&argp, argc, argv, &env);
	if (env.c.json) {
		warn("%s: error: -j does not apply: serve writes the Prometheus format\n",
		     env.c.cmd);
		return CS_EXIT_USAGE;
	}
	/* the exposition is for others to read: no kernel address unless asked */
	cs_addrs_hide(!env.show_addresses);
	if (serve_parse_listen(env.listen ? env.listen : SERVE_DEFAULT_LISTEN, &ss, &len)) {
		warn("%s: error: invalid --listen '%s': want ADDR:PORT or [ADDR]:PORT, "
		     "ADDR numeric, PORT 0..65535\n", env.c.cmd,
		     cs_safe_str(env.listen, (char[CS_SAFE_STR_LEN(128)]){ 0 },
				 CS_SAFE_STR_LEN(128)));
		return CS_EXIT_USAGE;
	}
	if (env.trace) {
		if (env.nr_chains || env.c.mode != CS_MODE_AUTO) {
			warn("%s: error: --trace takes no -c or --mode: the file is served "
			     "whole\n", env.c.cmd);
			return CS_EXIT_USAGE;
		}
		return serve_trace();
	}
	return serve_live();
}
