/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope serve's parsing of what comes from outside (serve_parse.c):
 * the --listen address and the route of a request (its method and path,
 * as libmicrohttpd hands them over). tests/fuzz/fuzz_serve.c fuzzes both.
 */
#ifndef CHAINSCOPE_SERVE_H
#define CHAINSCOPE_SERVE_H

#include <stdbool.h>
#include <netinet/in.h>
#include <sys/socket.h>

/*
 * --listen: IPv4 "ADDR:PORT" or IPv6 "[ADDR]:PORT", ADDR numeric, PORT
 * decimal digits only, 0..65535 (0: the kernel picks one); 0, or -1.
 */
int serve_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len);
/* 127.0.0.0/8, ::1 or ::ffff:127.x.y.z */
bool serve_is_loopback(const struct sockaddr_storage *ss);

enum serve_route {
	ROUTE_METRICS,		/* GET or HEAD /metrics */
	ROUTE_NOT_FOUND,	/* GET or HEAD of any other path: 404 */
	ROUTE_BAD_METHOD,	/* any other method: 405 */
};
enum serve_route serve_route(const char *method, const char *url);

#endif /* CHAINSCOPE_SERVE_H */
