#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these two fixed-argument wrappers
   pass the options Waymark uses. */

/* Starts a daemon on the IPv4 address `addr` (port in it; 0 for an ephemeral port): `flags` as MHD_start_daemon,
   each connection closed after `timeout` idle seconds, at most `limit` connections, each with a memory pool of
   `memory` bytes (the request line and headers must fit in it, else the library answers 414 or 431 itself);
   `uri_log` sees each raw request target (its result becomes the request's context), `completed` each finished
   request. NULL on failure, among them a port another socket listens on: no MHD_OPTION_LISTENING_ADDRESS_REUSE
   (SO_REUSEPORT would let a second server share the port and split its requests; scale out with separate ports
   behind a load balancer); libmicrohttpd still sets SO_REUSEADDR on Linux, so a restart binds while the old
   connections sit in TIME_WAIT. */
static inline struct MHD_Daemon *waymark_mhd_start(
    unsigned int flags, const struct sockaddr_in *addr, unsigned int limit, unsigned int timeout, size_t memory,
    MHD_AccessHandlerCallback handler, void *cls,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *con),
    MHD_RequestCompletedCallback completed) {
    return MHD_start_daemon(flags, ntohs(addr->sin_port), NULL, NULL, handler, cls,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)addr,
                            MHD_OPTION_CONNECTION_LIMIT, limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_END);
}

/* The daemon's bound port (0 when unknown). */
static inline uint16_t waymark_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
