// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CPosix.h"
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <errno.h>
#include <arpa/inet.h>
#include <pthread.h>

int cposix_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) { return accept4(fd, addr, len, flags); }
int cposix_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
int cposix_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return epoll_wait(epfd, events, maxevents, timeout);
}
int cposix_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
int cposix_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
int cposix_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
uint64_t cposix_epoll_event_data(const struct epoll_event *event) { return event->data.u64; }
uint32_t cposix_epoll_event_events(const struct epoll_event *event) { return event->events; }
long cposix_raise_fd_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    }
    return (long)rl.rlim_cur;
}

void cposix_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int cposix_set_linger_reset(int fd) {
    struct linger lg;
    lg.l_onoff = 1;
    lg.l_linger = 0;
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
}

int cposix_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}

int cposix_tcp_socket(int ipv6) {
    return socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

static int fill_address(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len) {
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *len = sizeof *v4;
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *len = sizeof *v6;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

int cposix_is_ipv6_literal(const char *host) {
    struct in6_addr a;
    return inet_pton(AF_INET6, host, &a) == 1;
}

int cposix_bind(int fd, const char *host, int port) {
    struct sockaddr_storage ss;
    socklen_t len;
    if (fill_address(host, port, &ss, &len) != 0) return -1;
    return bind(fd, (struct sockaddr *)&ss, len);
}

int cposix_connect(int fd, const char *host, int port) {
    struct sockaddr_storage ss;
    socklen_t len;
    if (fill_address(host, port, &ss, &len) != 0) return -1;
    return connect(fd, (struct sockaddr *)&ss, len);
}

static int format_address(const struct sockaddr_storage *ss, char *out, size_t cap, int *port) {
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)ss;
        if (!inet_ntop(AF_INET, &v4->sin_addr, out, (socklen_t)cap)) return -1;
        *port = ntohs(v4->sin_port);
        return 0;
    }
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)ss;
        if (!inet_ntop(AF_INET6, &v6->sin6_addr, out, (socklen_t)cap)) return -1;
        *port = ntohs(v6->sin6_port);
        return 0;
    }
    errno = EAFNOSUPPORT;
    return -1;
}

int cposix_local_address(int fd, char *out, size_t cap, int *port) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    return format_address(&ss, out, cap, port);
}

int cposix_peer_address(int fd, char *out, size_t cap, int *port) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    return format_address(&ss, out, cap, port);
}

int cposix_accept_nonblocking(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

ssize_t cposix_send(int fd, const void *bytes, size_t count) { return send(fd, bytes, count, MSG_NOSIGNAL); }

ssize_t cposix_sendv(int fd, const struct iovec *pieces, int count) {
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = (struct iovec *)pieces;
    message.msg_iovlen = (size_t)count;
    return sendmsg(fd, &message, MSG_NOSIGNAL);
}

struct epoll_event *cposix_epoll_events_alloc(int count) { return calloc((size_t)count, sizeof(struct epoll_event)); }
void cposix_epoll_events_free(struct epoll_event *events) { free(events); }
uint64_t cposix_epoll_data_at(const struct epoll_event *events, int index) { return events[index].data.u64; }
uint32_t cposix_epoll_events_at(const struct epoll_event *events, int index) { return events[index].events; }

uint64_t cposix_monotonic_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double cposix_wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cposix_unsent_bytes(int fd) {
    int pending = 0;
    if (ioctl(fd, SIOCOUTQ, &pending) != 0) return -1;
    return pending;
}

const uint32_t cposix_EPOLLIN = EPOLLIN;
const uint32_t cposix_EPOLLOUT = EPOLLOUT;
const uint32_t cposix_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t cposix_EPOLLHUP = EPOLLHUP;
const uint32_t cposix_EPOLLERR = EPOLLERR;
const uint32_t cposix_EPOLLET = EPOLLET;
const int cposix_SOCK_STREAM = SOCK_STREAM;
const int cposix_SOCK_NONBLOCK = SOCK_NONBLOCK;
const int cposix_SOCK_CLOEXEC = SOCK_CLOEXEC;

int cposix_timed_join(pthread_t thread, int milliseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    long nanos = deadline.tv_nsec + (long)milliseconds * 1000000L;
    deadline.tv_sec += nanos / 1000000000L;
    deadline.tv_nsec = nanos % 1000000000L;
    return pthread_timedjoin_np(thread, NULL, &deadline);
}
