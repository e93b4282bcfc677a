# SPDX-License-Identifier: MIT
"""Ending one case inside a reusable driver process (docs/driver-protocol.md, "Reuse").

A driver that declares `"reuse": true` in `hello` may be sent the next case's `configure` after it
answered `close`. Before it answers a `close` that carries `"reuse": true`, everything of the case
must be gone: no listener may write another line, no thread of the case may run, no socket may be
open. `CaseGate` silences a case's callbacks; `quiesce()` shuts the case's sockets down until its
request threads have ended (before the client closes its own connections: a socket closed under
a blocked read never wakes it); `settle()` ends what is left and says whether the process is as
clean as it was before the case (only then may the driver answer `reusable: true`);
`freeze_process_objects()` keeps what exists before the first case out of the collections
`settle()` makes.
Standard library only; Linux (`/proc/self/fd`).
"""
import gc
import os
import socket
import stat
import threading
import time


class CaseGate:
    """Lets one case's callbacks write lines only while the case is open."""

    def __init__(self):
        self._lock = threading.RLock()  # a gated callback may call another gated one
        self._open = True

    @property
    def open(self):
        return self._open

    def call(self, function, *args, **kwargs):
        """Runs `function` if the case is still open; once `shut()` has returned it never runs."""
        with self._lock:
            if self._open:
                return function(*args, **kwargs)
        return None

    def shut(self):
        with self._lock:
            self._open = False


def socket_descriptors():
    """The process's open socket descriptors."""
    found = []
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return found
    for name in names:
        try:
            fd = int(name)
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                found.append(fd)
        except (ValueError, OSError):
            continue
    return found


# Sockets the process had before any case: inherited from the parent (a harness whose own
# sockets lack close-on-exec), and the driver's own (an asyncio loop's wake-up socket pair, see
# `keep_current_sockets`): never a case's to touch.
INHERITED = set(socket_descriptors())


def keep_current_sockets():
    """Counts the sockets open now as the process's own (call before the first case, e.g. once an
    asyncio event loop exists: its self-pipe is a socket pair)."""
    INHERITED.update(socket_descriptors())


def case_sockets():
    """The socket descriptors opened since the process started."""
    return [fd for fd in socket_descriptors() if fd not in INHERITED]


def shut_down_sockets():
    """Shuts down (both ways) every socket the process opened: a thread blocked reading one wakes
    up with an end of stream, as if the process had been ended. The descriptors stay with their
    owners, who close them; inherited ones are left alone."""
    for fd in case_sockets():
        try:
            sock = socket.socket(fileno=fd)
        except OSError:
            continue
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        finally:
            sock.detach()


def _leftovers(baseline, me):
    extra = [t for t in threading.enumerate() if t not in baseline and t is not me and t.is_alive()]
    for thread in extra:
        if isinstance(thread, threading.Timer):
            thread.cancel()
    shut_down_sockets()
    return extra


def _problem(extra, sockets):
    return "%d thread(s) still running (%s), %d socket(s) still open" % (
        len(extra), ", ".join(sorted(t.name for t in extra))[:200], len(sockets))


async def settle_async(baseline, timeout):
    """`settle()` for a driver running an asyncio loop: waits without blocking the loop, so the
    case's last callbacks can run to their end."""
    import asyncio
    deadline = time.monotonic() + timeout
    rounds = 0
    while True:
        extra = _leftovers(baseline, threading.current_thread())
        if rounds % 5 == 0:
            gc.collect()
        sockets = case_sockets()
        if not extra and not sockets:
            return None
        if time.monotonic() >= deadline:
            return _problem(extra, sockets)
        rounds += 1
        await asyncio.sleep(0.01)


def freeze_process_objects():
    """Moves every object alive now (the interpreter, the imported SDK) out of the garbage
    collector's reach: a later `gc.collect()` then scans only what cases made (milliseconds
    instead of tens of milliseconds with an SDK imported). Call once, before the first case."""
    gc.collect()
    if hasattr(gc, "freeze"):
        gc.freeze()


def _wait_a_little(extra, deadline):
    """Waits until the first of `extra` threads ends, at most 10 ms (at once when it already
    has), or 2 ms when there is no thread to wait for."""
    remaining = max(0.0, deadline - time.monotonic())
    if extra:
        extra[0].join(min(0.01, remaining))
    else:
        time.sleep(min(0.002, remaining))


def quiesce(baseline, allowed, timeout):
    """Shuts down every socket the process opened, again and again, until no thread is alive but
    the `baseline` ones and those in `allowed` (at most `timeout` seconds): a thread that opens a
    connection meanwhile has it shut down as well. Called before a client closes its own
    connections, so that none is closed under a blocked read (which would never wake up).
    Returns whether it got there."""
    deadline = time.monotonic() + timeout
    me = threading.current_thread()
    while True:
        extra = [t for t in _leftovers(baseline, me) if t not in allowed]
        if not extra:
            return True
        if time.monotonic() >= deadline:
            return False
        _wait_a_little(extra, deadline)


def settle(baseline, timeout):
    """Ends what a closed case left: cancels its timers, shuts its sockets down, and waits (at most
    `timeout` seconds) until only the `baseline` threads are alive and no socket is open.
    Returns None when the process is clean, else why not."""
    deadline = time.monotonic() + timeout
    me = threading.current_thread()
    rounds = 0
    while True:
        extra = _leftovers(baseline, me)
        sockets = case_sockets()
        if not extra and not sockets:
            return None
        if time.monotonic() >= deadline:
            return _problem(extra, sockets)
        if sockets and (not extra or rounds % 5 == 4):
            gc.collect()  # sockets only garbage still holds are closed by their finalizers
            if not extra and not case_sockets():
                return None
        rounds += 1
        _wait_a_little(extra, deadline)
