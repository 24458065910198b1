// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: SIGINT/SIGTERM end the live commands, and waiting for an
 * interval (or for Ctrl-C) must never miss one.
 *
 * A "check cs_exiting, then pause()" loop sleeps forever when the signal
 * lands between the check and pause(). cs_wait_interval() blocks the two
 * signals, checks the flag, and waits in sigsuspend() or ppoll(), which
 * unblock them atomically: a signal can only be handled before the check
 * or inside the wait. Outside cs_wait_interval() they are not blocked, so
 * other loops (record's ring buffer poll) see them as before.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "chainscope.h"

volatile sig_atomic_t cs_exiting;

static void on_signal(int sig)
{
	(void)sig;
	cs_exiting = 1;
}

void cs_setup_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Sleep until the interval ends; a signal cuts it short. */
static void wait_timed(long secs, const sigset_t *wait_mask)
{
	struct timespec now, end, left;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	while (!cs_exiting) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = end.tv_sec - now.tv_sec;
		left.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_nsec += 1000000000L;
			left.tv_sec--;
		}
		if (left.tv_sec < 0)
			break;
		if (!ppoll(NULL, 0, &left, wait_mask))
			break;	/* timed out */
	}
}

void cs_wait_interval(const struct cs_common *c)
{
	sigset_t ours, saved, wait_mask;

	sigemptyset(&ours);
	sigaddset(&ours, SIGINT);
	sigaddset(&ours, SIGTERM);
	sigprocmask(SIG_BLOCK, &ours, &saved);
	wait_mask = saved;
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	if (c->interval) {
		wait_timed(c->interval, &wait_mask);
	} else {
		while (!cs_exiting)
			sigsuspend(&wait_mask);
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
}

bool cs_last_interval(const struct cs_common *c, long *n)
{
	if (c->count && ++*n >= c->count)
		return true;
	return !c->interval;
}

int cs_run_intervals(const struct cs_common *c, void (*wait)(void *ctx),
		     int (*one)(void *ctx), void *ctx)
{
	long n = 0;

	for (;;) {
		bool stopping;

		/*
		 * A Ctrl-C that came during the last one(): once more at
		 * once, so that what ran since is counted too; the loop ends
		 * after a one() that began stopped.
		 */
		if (!cs_exiting) {
			if (wait)
				wait(ctx);
			else
				cs_wait_interval(c);
		}
		stopping = cs_exiting;
		if (one(ctx))
			return CS_EXIT_ERROR;
		if (stopping || cs_last_interval(c, &n))
			return CS_EXIT_OK;
	}
}
