// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: what chainscope serve parses from outside
 * (serve_parse.c). The input, up to its first NUL, is
 *
 *   - a --listen address: if serve_parse_listen() takes it, the port is
 *     digits only and at most 65535, the address family and length agree,
 *     and the address printed back (inet_ntop) parses to the same one;
 *     serve_is_loopback() agrees with the printed form;
 *   - a request, "METHOD\nPATH": serve_route() answers /metrics to GET
 *     and HEAD of exactly that path, 404 to their other paths, 405 to
 *     every other method.
 *
 * Any disagreement aborts. tests/sh/fuzz_serve.sh runs it.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

#define CHECK(x) do { if (!(x)) { fprintf(stderr, "fuzz_serve: %s\n", #x); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_listen(const char *s)
{
	struct sockaddr_storage ss, again;
	char host[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 16];
	const char *colon = strrchr(s, ':'), *p;
	socklen_t len, len2;
	unsigned int port;
	bool loop;

	if (serve_parse_listen(s, &ss, &len))
		return;
	CHECK(colon && colon[1]);
	for (p = colon + 1; *p; p++)
		CHECK(*p >= '0' && *p <= '9');
	CHECK(strtoul(colon + 1, NULL, 10) <= 65535);
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		CHECK(len == sizeof(*in));
		CHECK(inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host)));
		port = ntohs(in->sin_port);
		snprintf(buf, sizeof(buf), "%s:%u", host, port);
		loop = !strncmp(host, "127.", 4);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		CHECK(ss.ss_family == AF_INET6 && len == sizeof(*in6));
		CHECK(inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host)));
		port = ntohs(in6->sin6_port);
		snprintf(buf, sizeof(buf), "[%s]:%u", host, port);
		loop = !strcmp(host, "::1") || !strncmp(host, "::ffff:127.", 11);
	}
	CHECK(port == strtoul(colon + 1, NULL, 10));
	CHECK(serve_is_loopback(&ss) == loop);
	CHECK(!serve_parse_listen(buf, &again, &len2));
	CHECK(len2 == len && !memcmp(&again, &ss, len));
}

static void check_route(char *s)
{
	char *nl = strchr(s, '\n');
	const char *method = s, *url = "";
	enum serve_route r;
	bool get;

	if (nl) {
		*nl = '\0';
		url = nl + 1;
	}
	r = serve_route(method, url);
	get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	if (!get)
		CHECK(r == ROUTE_BAD_METHOD);
	else if (!strcmp(url, "/metrics"))
		CHECK(r == ROUTE_METRICS);
	else
		CHECK(r == ROUTE_NOT_FOUND);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_listen(s);
	check_route(s);
	free(s);
	return 0;
}
