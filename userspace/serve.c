// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope serve: latency's BPF programs (and contention's, for lock
 * waits, where the kernel has them) stay attached and GET /metrics
 * serves the Prometheus text exposition of the counters since start
 * (openmetrics.c, omlive.c); --trace FILE serves a recording's instead,
 * without BPF.
 *
 * Collection and serving are decoupled: the collector (the main thread,
 * latrun.c's interval loop) writes each exposition into a new buffer and
 * swaps it in under a mutex; libmicrohttpd's own thread answers every
 * request with a copy of the current buffer, taken under the mutex, so a
 * slow or stalled client holds neither the mutex nor the collector.
 * libmicrohttpd polls all connections from that one thread, with a
 * connection timeout and connection limits.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "chainscope.h"
#include "contrun.h"
#include "latrun.h"
#include "omlive.h"
#include "openmetrics.h"
#include "report.h"
#include "tracefile.h"

#define SERVE_MAX_CHAINS CS_LAT_MAX_SEEDS
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9469"
#define SERVE_DEFAULT_INTERVAL 5	/* seconds between collections */
#define SERVE_CONN_TIMEOUT 10		/* seconds a connection may idle */
#define SERVE_CONN_LIMIT 64
#define SERVE_PER_IP_LIMIT 16

static struct env {
	struct cs_common c;
	const char *listen;
	const char *trace;
	const char *chains[SERVE_MAX_CHAINS];
	int nr_chains;
} env;

enum { OPT_LISTEN = 0x100, OPT_TRACE };

static const struct argp_option opts[] = {
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0, "Listen here (default "
	  SERVE_DEFAULT_LISTEN "; [ADDR]:PORT for IPv6; port 0 picks a free one)", 0 },
	{ "chain", 'c', "CHAIN", 0, "Only this chain head (symbol or 0xADDR); repeat for "
	  "more", 0 },
	{ "trace", OPT_TRACE, "FILE", 0, "Serve the exposition of a trace file "
	  "('chainscope record') instead: no BPF, no privileges", 0 },
	{},
};

static const char doc[] =
"Serve notifier callback latency, return outcomes, chain passes and\n"
"chainscope's health as Prometheus metrics: GET /metrics on the listen\n"
"address (HEAD too; other paths 404, other methods 405). Counters run\n"
"from the start of the process; a chain or callback that goes away keeps\n"
"its last values. The BPF programs stay attached; the counters are\n"
"collected every INTERVAL seconds (default 5).\n"
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

/* --- the current exposition ------------------------------------------------- */

static pthread_mutex_t expo_lock = PTHREAD_MUTEX_INITIALIZER;
static char *expo;		/* malloc'ed; NULL until the first one */
static size_t expo_len;

/* Take ownership of buf and make it the one served. */
static void publish(char *buf, size_t len)
{
	char *old;

	pthread_mutex_lock(&expo_lock);
	old = expo;
	expo = buf;
	expo_len = len;
	pthread_mutex_unlock(&expo_lock);
	free(old);
}

/* A copy of the current exposition (malloc'ed, *len set), NULL if none or OOM */
static char *snapshot(size_t *len)
{
	char *copy = NULL;

	pthread_mutex_lock(&expo_lock);
	if (expo) {
		copy = malloc(expo_len + 1);
		if (copy) {
			memcpy(copy, expo, expo_len);
			*len = expo_len;
		}
	}
	pthread_mutex_unlock(&expo_lock);
	return copy;
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
	struct MHD_Response *resp;
	enum MHD_Result ret;
	size_t len = 0;
	char *body;

	(void)cls;
	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n",
			     "GET, HEAD");
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n", NULL);
	body = snapshot(&len);
	if (!body)
		return reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "no metrics yet\n", NULL);
	resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, CS_OM_CONTENT_TYPE);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* --listen: IPv4 "ADDR:PORT" or IPv6 "[ADDR]:PORT"; 0, or -1 */
static int parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(s, ':');
	char *end;
	size_t n;
	long port;

	if (!colon || !colon[1])
		return -1;
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (errno || *end || port < 0 || port > 65535)
		return -1;
	n = colon - s;
	if (n >= sizeof(host))
		return -1;
	memcpy(host, s, n);
	host[n] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (n > 2 && host[0] == '[' && host[n - 1] == ']') {
		host[n - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) != 1)
			return -1;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*len = sizeof(*in6);
		return 0;
	}
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1)
		return -1;
	in4->sin_family = AF_INET;
	in4->sin_port = htons(port);
	*len = sizeof(*in4);
	return 0;
}

static struct MHD_Daemon *daemon_;

/*
 * Start the HTTP thread on the --listen address (checked by main()); it
 * never takes SIGINT/SIGTERM, which stay the collector's. CS_EXIT_OK, or
 * CS_EXIT_LISTEN after one line.
 */
static int start_http(const char *how)
{
	const char *listen = env.listen ? env.listen : SERVE_DEFAULT_LISTEN;
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *info;
	sigset_t ours, saved;
	socklen_t len;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;

	parse_listen(listen, &ss, &len);	/* checked in cmd_serve() */
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	sigemptyset(&ours);
	sigaddset(&ours, SIGINT);
	sigaddset(&ours, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &ours, &saved);
	errno = 0;
	daemon_ = MHD_start_daemon(flags, 0, NULL, NULL, handle, NULL,
				   MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_CONN_TIMEOUT,
				   MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_CONN_LIMIT,
				   MHD_OPTION_PER_IP_CONNECTION_LIMIT,
				   (unsigned int)SERVE_PER_IP_LIMIT,
				   MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (!daemon_) {
		warn("%s: error: cannot listen on %s: %s\n", env.c.cmd,
		     cs_safe_str(listen, (char[CS_SAFE_STR_LEN(128)]){ 0 },
				 CS_SAFE_STR_LEN(128)),
		     errno ? strerror(errno) : "libmicrohttpd could not start");
		return CS_EXIT_LISTEN;
	}
	info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
	warn("%s: serving http://%.*s:%u/metrics (%s)... Hit Ctrl-C to end.\n", env.c.cmd,
	     (int)(strrchr(listen, ':') - listen), listen, info ? info->port : 0, how);
	return CS_EXIT_OK;
}

static void stop_http(void)
{
	if (daemon_)
		MHD_stop_daemon(daemon_);
	daemon_ = NULL;
	free(expo);
	expo = NULL;
}

/* --- live: latency's collection --------------------------------------------- */

struct live {
	struct cs_lat_run *run;
	struct cs_om_live *om;
	struct cs_cont *ct;	/* lock waits, where the kernel has them */
	__u64 heads[SERVE_MAX_CHAINS];
	int nr_heads;
};

/* The exposition of what om holds, published; 0 or -errno */
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
	if (err) {
		free(buf);
		return err;
	}
	publish(buf, len);
	return 0;
}

static const struct ksyms *live_ks;	/* latrun.c's, for the first exposition */

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

	start_locks(l);

	/* scrapes before the first interval get the families, no series */
	if (publish_live(l->om, live_ks)) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return CS_EXIT_ERROR;
	}
	return start_http(how);
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
	if (err)
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
	size_t len = 0;
	FILE *f;
	int rc;

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
	if (rc) {
		free(buf);
		return rc;
	}
	publish(buf, len);
	cs_setup_signals();
	rc = start_http("trace file");
	if (!rc) {
		long n = 0;

		/* INTERVAL COUNT: end after that long (tests), else at a signal */
		do
			cs_wait_interval(&env.c);
		while (!cs_exiting && !cs_last_interval(&env.c, &n));
	}
	stop_http();
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
	if (parse_listen(env.listen ? env.listen : SERVE_DEFAULT_LISTEN, &ss, &len)) {
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
