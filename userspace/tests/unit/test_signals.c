// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * test_signals: cs_wait_interval() must not miss a SIGINT that arrives
 * just before it goes to sleep (the check-then-pause() race).
 *
 * Linked with -Wl,--wrap for the calls a wait can sleep in: each wrapper
 * raises SIGINT right before the real call, the worst moment for a
 * "while (!flag) pause();" loop (the handler runs, then pause() sleeps
 * for good). A wait that misses it hangs until the SIGALRM watchdog
 * kills the test. No bpf().
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "chainscope.h"

int __real_pause(void);
int __real_sigsuspend(const sigset_t *mask);
int __real_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t,
		 const sigset_t *mask);
int __real_nanosleep(const struct timespec *req, struct timespec *rem);

static int raised;

static void late_signal(void)
{
	if (!raised++)
		raise(SIGINT);
}

int __wrap_pause(void)
{
	late_signal();
	return __real_pause();
}

int __wrap_sigsuspend(const sigset_t *mask)
{
	late_signal();
	return __real_sigsuspend(mask);
}

int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t,
		 const sigset_t *mask)
{
	late_signal();
	return __real_ppoll(fds, n, t, mask);
}

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem)
{
	late_signal();
	return __real_nanosleep(req, rem);
}

static int check(const char *name, long interval)
{
	struct cs_common c = { .interval = interval };
	sigset_t now;

	cs_exiting = 0;
	raised = 0;
	alarm(60);	/* a missed signal hangs: the watchdog fails the test (60 s: a
			 * bound for a loaded host, a correct wait returns at once) */
	cs_wait_interval(&c);
	alarm(0);
	sigprocmask(SIG_SETMASK, NULL, &now);
	if (!cs_exiting || !raised) {
		printf("FAIL: host.signals.%s: wait returned without the signal\n", name);
		return 1;
	}
	if (sigismember(&now, SIGINT)) {
		printf("FAIL: host.signals.%s: SIGINT left blocked after the wait\n", name);
		return 1;
	}
	printf("PASS: host.signals.%s\n", name);
	return 0;
}

/*
 * cs_run_intervals(), with a wait that returns at once (no clock): how
 * many times one() runs, and the exit code.
 */
struct loop {
	int calls;
	int fail_at;		/* one() fails on this call (0: never) */
	int stop_at;		/* a Ctrl-C arrives during this call (0: none) */
	int waits;
};

static void loop_wait(void *ctx)
{
	((struct loop *)ctx)->waits++;
}

static int loop_one(void *ctx)
{
	struct loop *l = ctx;

	l->calls++;
	if (l->calls == l->stop_at)
		cs_exiting = 1;
	return l->calls == l->fail_at ? -1 : 0;
}

static int check_loop(const char *name, long interval, long count, struct loop l,
		      int want_calls, int want_waits, int want_rc)
{
	struct cs_common c = { .interval = interval, .count = count };
	int rc;

	cs_exiting = 0;
	rc = cs_run_intervals(&c, loop_wait, loop_one, &l);
	cs_exiting = 0;
	if (rc != want_rc || l.calls != want_calls || l.waits != want_waits) {
		printf("FAIL: host.signals.%s: rc %d calls %d waits %d, want %d %d %d\n", name,
		       rc, l.calls, l.waits, want_rc, want_calls, want_waits);
		return 1;
	}
	printf("PASS: host.signals.%s\n", name);
	return 0;
}

int main(void)
{
	int failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cs_setup_signals();
	failed |= check("until-signal-not-missed", 0);
	failed |= check("interval-cut-short", 100);
	/* INTERVAL COUNT: COUNT intervals, each after a wait */
	failed |= check_loop("intervals-count", 1, 3, (struct loop){}, 3, 3, CS_EXIT_OK);
	/* no INTERVAL: one print, at Ctrl-C (the wait) */
	failed |= check_loop("intervals-until-ctrl-c", 0, 0, (struct loop){}, 1, 1, CS_EXIT_OK);
	/* Ctrl-C during the 2nd: a 3rd at once, without a wait, and the end */
	failed |= check_loop("intervals-ctrl-c-once-more", 1, 0, (struct loop){ .stop_at = 2 },
			     3, 2, CS_EXIT_OK);
	/* a failed interval ends the loop: CS_EXIT_ERROR */
	failed |= check_loop("intervals-error-ends", 1, 5, (struct loop){ .fail_at = 2 }, 2, 2,
			     CS_EXIT_ERROR);
	return failed;
}
