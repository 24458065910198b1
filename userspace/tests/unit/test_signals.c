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

int main(void)
{
	int failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cs_setup_signals();
	failed |= check("until-signal-not-missed", 0);
	failed |= check("interval-cut-short", 100);
	return failed;
}
