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
 * forks the HTTP process, which drops everything and runs libmicrohttpd
 * in one polling loop (serve_http.c); the collector (cs_run_intervals()
 * over latency's and contention's collections) sends each exposition
 * down a pipe. The HTTP
 * side serves one immutable buffer per collection, shared by every
 * response. With --trace there is one process, which drops the same way
 * before it listens. Connections: a bound on the time to receive a whole
 * request, and the oldest go first when many are open
 * (struct conn in serve_http.c). Addresses no symbol names are addr#N (callback_row.h)
 * unless --show-addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "chainscope.h"
#include "live.h"
#include "cont_collect.h"
#include "lat_collect.h"
#include "om_counters.h"
#include "openmetrics.h"
#include "report.h"
#include "serve.h"
#include "serve_http.h"
#include "tracefile.h"

#define SERVE_MAX_CHAINS CS_LAT_MAX_SEEDS
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9469"
#define SERVE_DEFAULT_INTERVAL 5	/* seconds between collections */

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
	fd = serve_listen_on(&ss, len, port);
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

/* --- live: latency's collection --------------------------------------------- */

struct live {
	struct cs_lat_run *run;
	struct cs_lat *lat;
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
		err = serve_http_send(buf, len);
	free(buf);
	return err;
}

static unsigned int http_port;

/*
 * After the start-up probes, before kallsyms and any bpf(): HTTP in its own
 * process, which has nothing of the collector's (no BPF object, no
 * symbol table) and no privilege
 */
static int live_probed(void *ctx)
{
	int lfd;

	(void)ctx;
	lfd = open_listen(&http_port);
	if (lfd < 0)
		return CS_EXIT_LISTEN;
	return serve_http_fork(env.c.cmd, lfd);
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
	l->om = cs_om_live_new(&env.c, l->heads, l->nr_heads);
	if (!l->om) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return CS_EXIT_ERROR;
	}
	return 0;
}

/*
 * Lock waits come from contention's programs, loaded beside latency's:
 * lock:contention_begin/end on the chains' locks, in both modes (the
 * contended acquisitions). Without them, or if they fail to load, serve
 * goes on without lock waits (a warning).
 */
static void start_locks(struct live *l)
{
	struct cs_cont_run run = {
		.c = &env.c,
		.ks = cs_lat_ksyms(l->lat),
		.head = l->nr_heads == 1 ? l->heads[0] : 0,
	};

	if (!cs_cont_has_lock_tps()) {
		warn("%s: warning: no lock waits: the kernel has no "
		     "lock:contention_begin/end (Linux 5.19+)\n", env.c.cmd);
		return;
	}
	if (cs_cont_start(&run, &l->ct))
		warn("%s: warning: serving without lock waits\n", env.c.cmd);
}

/* after attaching, before the first interval: lock waits, the first exposition */
static int live_attached(struct live *l)
{
	int err;

	start_locks(l);

	/* scrapes before the first interval get the families, no series */
	err = publish_live(l->om, cs_lat_ksyms(l->lat));
	if (err) {
		warn("%s: error: cannot pass the exposition to HTTP: %s\n", env.c.cmd,
		     strerror(-err));
		return CS_EXIT_ERROR;
	}
	warn("%s: HTTP in pid %d, without privileges\n", env.c.cmd, serve_http_pid());
	say_serving(http_port, cs_lat_how(l->lat));
	return CS_EXIT_OK;
}

static void live_wait(void *ctx)
{
	cs_lat_wait(((struct live *)ctx)->lat);
}

/* one interval: both collections drained into the counters, then published */
static int live_interval(void *ctx)
{
	struct live *l = ctx;
	struct cs_lat_sample smp;
	int err;

	err = cs_lat_drain(l->lat, &smp);
	if (err)
		return err;
	err = cs_om_live_add(l->om, &smp);
	cs_lat_sample_free(&smp);
	if (!err && l->ct) {
		struct cs_cont_sample cs;

		err = cs_cont_drain(l->ct, &cs);
		if (!err)
			err = cs_om_live_add_locks(l->om, &cs);
		cs_cont_sample_free(&cs);
	}
	if (!err)
		err = publish_live(l->om, cs_lat_ksyms(l->lat));
	if (err == -EINTR && cs_exiting)
		return 0;	/* ending: this exposition is not needed */
	if (err == -EPIPE)
		warn("%s: error: the HTTP process (pid %d) ended\n", env.c.cmd, serve_http_pid());
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
	};
	int err;

	if (!env.c.interval)
		env.c.interval = SERVE_DEFAULT_INTERVAL;
	l.run = &run;
	err = cs_lat_start(&run, &l.lat);
	if (err || !l.lat)
		goto out;
	cs_setup_signals();
	err = live_attached(&l);
	if (!err)
		err = cs_run_intervals(&env.c, live_wait, live_interval, &l);
out:
	serve_http_stop();
	cs_cont_stop(l.ct);
	cs_lat_stop(l.lat);
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
	if (!rc && serve_http_publish(buf, len)) {
		warn("%s: error: out of memory\n", env.c.cmd);
		rc = CS_EXIT_ERROR;
	}
	free(buf);
	if (rc)
		return rc;
	lfd = open_listen(&port);
	if (lfd < 0) {
		serve_http_unpublish();
		return CS_EXIT_LISTEN;
	}
	/* nothing here needs a privilege: none left before the first request */
	if (serve_drop_privileges(env.c.cmd)) {
		close(lfd);
		serve_http_unpublish();
		return CS_EXIT_ERROR;
	}
	say_dropped();
	cs_setup_signals();
	say_serving(port, "trace file");
	/* INTERVAL COUNT: end after that long (tests), else at a signal */
	if (env.c.interval && env.c.count)
		end = serve_now_ms() + env.c.interval * env.c.count * 1000LL;
	rc = serve_http_loop(env.c.cmd, lfd, -1, end);
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
