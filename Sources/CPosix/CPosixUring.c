// SPDX-License-Identifier: MIT
// A minimal io_uring for one job: the same bytes sent once on each of many sockets, many sends per
// system call (harness-bench send-floor --uring). No liburing: the rings are mapped by hand.
#include "CPosix.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <linux/io_uring.h>

struct cposix_uring {
    int fd;
    unsigned entries;
    void *sq_map;
    size_t sq_map_size;
    void *cq_map;
    size_t cq_map_size;
    struct io_uring_sqe *sqes;
    size_t sqes_size;
    unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct io_uring_cqe *cqes;
};

cposix_uring *cposix_uring_create(unsigned entries) {
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    int fd = (int)syscall(__NR_io_uring_setup, entries, &params);
    if (fd < 0) return NULL;
    cposix_uring *ring = calloc(1, sizeof *ring);
    if (ring == NULL) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    ring->fd = fd;
    ring->entries = params.sq_entries;
    ring->sq_map_size = params.sq_off.array + params.sq_entries * sizeof(unsigned);
    ring->cq_map_size = params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe);
    if (params.features & IORING_FEAT_SINGLE_MMAP) {
        if (ring->cq_map_size > ring->sq_map_size) ring->sq_map_size = ring->cq_map_size;
        ring->cq_map_size = ring->sq_map_size;
    }
    ring->sq_map = mmap(NULL, ring->sq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
    if (ring->sq_map == MAP_FAILED) goto fail;
    if (params.features & IORING_FEAT_SINGLE_MMAP) {
        ring->cq_map = ring->sq_map;
    } else {
        ring->cq_map = mmap(NULL, ring->cq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
        if (ring->cq_map == MAP_FAILED) goto fail;
    }
    ring->sqes_size = params.sq_entries * sizeof(struct io_uring_sqe);
    ring->sqes = mmap(NULL, ring->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
    if (ring->sqes == MAP_FAILED) goto fail;
    char *sq = ring->sq_map;
    ring->sq_head = (unsigned *)(sq + params.sq_off.head);
    ring->sq_tail = (unsigned *)(sq + params.sq_off.tail);
    ring->sq_mask = (unsigned *)(sq + params.sq_off.ring_mask);
    ring->sq_array = (unsigned *)(sq + params.sq_off.array);
    char *cq = ring->cq_map;
    ring->cq_head = (unsigned *)(cq + params.cq_off.head);
    ring->cq_tail = (unsigned *)(cq + params.cq_off.tail);
    ring->cq_mask = (unsigned *)(cq + params.cq_off.ring_mask);
    ring->cqes = (struct io_uring_cqe *)(cq + params.cq_off.cqes);
    return ring;
fail:
    cposix_uring_destroy(ring);
    return NULL;
}

void cposix_uring_destroy(cposix_uring *ring) {
    if (ring == NULL) return;
    if (ring->sqes != NULL && ring->sqes != MAP_FAILED) munmap(ring->sqes, ring->sqes_size);
    if (ring->cq_map != NULL && ring->cq_map != MAP_FAILED && ring->cq_map != ring->sq_map) munmap(ring->cq_map, ring->cq_map_size);
    if (ring->sq_map != NULL && ring->sq_map != MAP_FAILED) munmap(ring->sq_map, ring->sq_map_size);
    close(ring->fd);
    free(ring);
}

long cposix_uring_send_each(cposix_uring *ring, const int *fds, long count, const void *bytes, unsigned length, unsigned batch) {
    if (batch == 0 || batch > ring->entries) batch = ring->entries;
    long complete = 0;
    long next = 0;
    while (next < count) {
        unsigned n = (unsigned)((count - next) < (long)batch ? (count - next) : (long)batch);
        unsigned tail = *ring->sq_tail;
        for (unsigned i = 0; i < n; i++) {
            unsigned slot = (tail + i) & *ring->sq_mask;
            struct io_uring_sqe *sqe = &ring->sqes[slot];
            memset(sqe, 0, sizeof *sqe);
            sqe->opcode = IORING_OP_SEND;
            sqe->fd = fds[next + i];
            sqe->addr = (unsigned long)bytes;
            sqe->len = length;
            sqe->msg_flags = MSG_NOSIGNAL | MSG_DONTWAIT;
            sqe->user_data = (unsigned long)(next + i);
            ring->sq_array[slot] = slot;
        }
        __atomic_store_n(ring->sq_tail, tail + n, __ATOMIC_RELEASE);
        long entered = syscall(__NR_io_uring_enter, ring->fd, n, n, IORING_ENTER_GETEVENTS, NULL, 0);
        if (entered < 0) return -errno;
        // Reap the n completions (io_uring_enter waited for them).
        unsigned reaped = 0;
        while (reaped < n) {
            unsigned head = *ring->cq_head;
            unsigned ready = __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE);
            if (head == ready) {
                if (syscall(__NR_io_uring_enter, ring->fd, 0, n - reaped, IORING_ENTER_GETEVENTS, NULL, 0) < 0) return -errno;
                continue;
            }
            while (head != ready) {
                if (ring->cqes[head & *ring->cq_mask].res == (int)length) complete++;
                head++;
                reaped++;
            }
            __atomic_store_n(ring->cq_head, head, __ATOMIC_RELEASE);
        }
        next += n;
    }
    return complete;
}
