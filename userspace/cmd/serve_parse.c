// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What serve parses of its input (serve.h): the --listen address and a
 * request's method and path. No libmicrohttpd, no BPF: tests/fuzz/fuzz_serve.c
 * links this file alone.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

int serve_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(s, ':');
	char *end;
	size_t n;
	long port;

	/* digits only: strtol() would take a sign or leading blanks */
	if (!colon || !colon[1] || colon[1 + strspn(colon + 1, "0123456789")] ||
	    strlen(colon + 1) > 5)
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

bool serve_is_loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
		return true;
	return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
}

enum serve_route serve_route(const char *method, const char *url)
{
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return ROUTE_BAD_METHOD;
	return strcmp(url, "/metrics") ? ROUTE_NOT_FOUND : ROUTE_METRICS;
}

