// SPDX-License-Identifier: MIT
// Linux system calls that Glibc's Swift module does not export (epoll, eventfd, accept4, timerfd).
#ifndef CPOSIX_H
#define CPOSIX_H
#if !defined(__linux__)
#error "pubnub-harness builds on Linux only: its event loop uses epoll and eventfd"
#endif
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/types.h>
#include <stddef.h>
#include <pthread.h>
#include <spawn.h>

/// accept4 with the given flags (SOCK_NONBLOCK | SOCK_CLOEXEC).
int cposix_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int cposix_epoll_create(void);
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
int cposix_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
int cposix_eventfd(void);
uint64_t cposix_epoll_event_data(const struct epoll_event *event);
uint32_t cposix_epoll_event_events(const struct epoll_event *event);
/// Raises RLIMIT_NOFILE's soft limit to its hard limit; returns the new soft limit.
long cposix_raise_fd_limit(void);

/// pipe2 with O_CLOEXEC: neither end is inherited by a program started later.
int cposix_pipe_cloexec(int fds[2]);
/// Adds "close every descriptor from `lowest` up" to a posix_spawn's file actions (glibc's
/// posix_spawn_file_actions_addclosefrom_np, which Glibc's Swift module does not export).
int cposix_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Ignores SIGPIPE for the whole process (writes to a closed peer return EPIPE instead).
void cposix_ignore_sigpipe(void);
/// Sets SO_LINGER {1, 0} so that close() aborts the connection with RST.
int cposix_set_linger_reset(int fd);
/// setsockopt with an int value (SO_REUSEADDR, TCP_NODELAY, ...).
int cposix_set_int_option(int fd, int level, int name, int value);
/// A non-blocking, close-on-exec TCP socket (IPv6 when ipv6 != 0).
int cposix_tcp_socket(int ipv6);
/// Whether host is an IPv6 literal.
int cposix_is_ipv6_literal(const char *host);
/// Binds fd to a numeric IPv4/IPv6 host and port; -1 with errno EINVAL for a non-numeric host.
int cposix_bind(int fd, const char *host, int port);
/// Connects fd to a numeric host and port.
int cposix_connect(int fd, const char *host, int port);
/// Writes the numeric local address of fd into out and its port into *port.
int cposix_local_address(int fd, char *out, size_t cap, int *port);
/// Writes the numeric peer address of fd into out and its port into *port.
int cposix_peer_address(int fd, char *out, size_t cap, int *port);
/// accept4(SOCK_NONBLOCK | SOCK_CLOEXEC) without the peer address.
int cposix_accept_nonblocking(int fd);
/// send() with MSG_NOSIGNAL.
ssize_t cposix_send(int fd, const void *bytes, size_t count);
/// sendmsg() of `count` pieces with MSG_NOSIGNAL: one system call for a gather write.
ssize_t cposix_sendv(int fd, const struct iovec *pieces, int count);

/// An array of epoll events allocated in C, so its stride matches the (packed) C layout.
struct epoll_event *cposix_epoll_events_alloc(int count);
void cposix_epoll_events_free(struct epoll_event *events);
uint64_t cposix_epoll_data_at(const struct epoll_event *events, int index);
uint32_t cposix_epoll_events_at(const struct epoll_event *events, int index);
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t cposix_monotonic_nanos(void);

/// CLOCK_REALTIME in seconds.
double cposix_wall_seconds(void);
/// Bytes in the socket's send queue not yet acknowledged by the peer (SIOCOUTQ), or -1.
int cposix_unsent_bytes(int fd);

extern const uint32_t cposix_EPOLLIN;
extern const uint32_t cposix_EPOLLOUT;
extern const uint32_t cposix_EPOLLRDHUP;
extern const uint32_t cposix_EPOLLHUP;
extern const uint32_t cposix_EPOLLERR;
extern const uint32_t cposix_EPOLLET;
extern const int cposix_SOCK_STREAM;
extern const int cposix_SOCK_NONBLOCK;
extern const int cposix_SOCK_CLOEXEC;
/// pthread_timedjoin_np with a relative timeout: 0 when joined, ETIMEDOUT while the thread still runs.
int cposix_timed_join(pthread_t thread, int milliseconds);

/// A minimal io_uring (CPosixUring.c) for harness-bench send-floor --uring.
typedef struct cposix_uring cposix_uring;
/// A ring of `entries` submissions, or NULL with errno set.
cposix_uring *cposix_uring_create(unsigned entries);
void cposix_uring_destroy(cposix_uring *ring);
/// Sends `length` bytes once on each of `count` sockets (MSG_NOSIGNAL | MSG_DONTWAIT), `batch` sends
/// per io_uring_enter; returns how many wrote all `length` bytes, or -errno.
long cposix_uring_send_each(cposix_uring *ring, const int *fds, long count, const void *bytes, unsigned length, unsigned batch);

#endif
