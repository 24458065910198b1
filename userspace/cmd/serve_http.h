/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope serve's HTTP side (serve_http.c). One exposition is
 * published at a time and served to every GET /metrics until the next;
 * live mode publishes through the feed to a separate HTTP process.
 * Errors are one line on stderr, prefixed with cmd.
 */
#ifndef CHAINSCOPE_SERVE_HTTP_H
#define CHAINSCOPE_SERVE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

/* CLOCK_MONOTONIC in ms, the clock of every deadline here */
long long serve_now_ms(void);

/* The listening socket (before any privilege is dropped); fd or -errno */
int serve_listen_on(const struct sockaddr_storage *ss, socklen_t len, unsigned int *port);
/* nobody, no capability, no_new_privs; 0, or -errno after one line */
int serve_drop_privileges(const char *cmd);

/* --trace: serve a copy of buf (0 or -ENOMEM); unpublish frees it */
int serve_http_publish(const char *buf, size_t len);
void serve_http_unpublish(void);
/*
 * Serve on lfd until the feed (feed_fd; -1: none) ends or, without one,
 * until a signal or end_ms (0: none); an exit code.
 */
int serve_http_loop(const char *cmd, int lfd, int feed_fd, long long end_ms);

/*
 * Live mode: fork the HTTP process, which takes lfd and the feed's read
 * end, drops every privilege and runs serve_http_loop(); an exit code.
 */
int serve_http_fork(const char *cmd, int lfd);
/* Send an exposition down the feed; 0 or -errno */
int serve_http_send(const char *buf, size_t len);
/* The HTTP process, for messages; -1 when there is none */
int serve_http_pid(void);
/* Close the feed and wait for the HTTP process */
void serve_http_stop(void);

#endif /* CHAINSCOPE_SERVE_HTTP_H */
