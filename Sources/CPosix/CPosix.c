// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CPosix.h"
#include <unistd.h>

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

const uint32_t cposix_EPOLLIN = EPOLLIN;
const uint32_t cposix_EPOLLOUT = EPOLLOUT;
const uint32_t cposix_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t cposix_EPOLLHUP = EPOLLHUP;
const uint32_t cposix_EPOLLERR = EPOLLERR;
const uint32_t cposix_EPOLLET = EPOLLET;
const int cposix_SOCK_NONBLOCK = SOCK_NONBLOCK;
const int cposix_SOCK_CLOEXEC = SOCK_CLOEXEC;
