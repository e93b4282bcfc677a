// SPDX-License-Identifier: MIT
// Linux system calls that Glibc's Swift module does not export (epoll, eventfd, accept4, timerfd).
#ifndef CPOSIX_H
#define CPOSIX_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

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

extern const uint32_t cposix_EPOLLIN;
extern const uint32_t cposix_EPOLLOUT;
extern const uint32_t cposix_EPOLLRDHUP;
extern const uint32_t cposix_EPOLLHUP;
extern const uint32_t cposix_EPOLLERR;
extern const uint32_t cposix_EPOLLET;
extern const int cposix_SOCK_NONBLOCK;
extern const int cposix_SOCK_CLOEXEC;
#endif
