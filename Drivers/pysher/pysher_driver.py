#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pubnub-harness driver for pysher (`pip install pysher`), the Python Pusher Channels client.

Speaks the driver protocol's Pusher operations and events (docs/driver-protocol.md, "Pusher") on
stdin/stdout. Every operation is one call of pysher's own API (`Pusher(...)`, `connect`,
`subscribe`, `unsubscribe`, `Channel.trigger`, `disconnect`): the driver never queues, retries
or re-authorizes on pysher's behalf, so the harness measures pysher, not this file.

What the driver observes, and where from:
- `connected`: the `pusher:connection_established` binding (pysher's own connection callback).
- `disconnected`: pysher's `_on_close` (websocket-client passes the close code; None without a
  close frame), wrapped before the first connect; pysher itself ignores the code.
- channel events, `subscribed`, members: pysher's channel event handler (`Pusher._connection_handler`),
  wrapped so every event is seen, not only the names an app binds.
- `error`: the `pusher:error` binding (code and message as sent).
- `subscriptionError`: an exception raised by `subscribe` (pysher's way of reporting a refused
  authorization: it asserts the endpoint answered 200).

`configure` with `tls` and `caPEM` connects with `wss` (pysher's `secure=True`), trusting the
harness's test CA through websocket-client's `sslopt`, as an app pinning its own CA would.
`activityTimeoutMs`/`pongTimeoutMs` are not applied and `clientPing` is not declared: pysher has
no public setting for them (only its connection's `ping_interval`/`pong_timeout` attributes).
One process serves many cases when the runner asks (docs/driver-protocol.md, "Reuse"): `close`
with `"reuse": true` disconnects the case's `Pusher` object, shuts its socket down, waits for its
threads, and answers `reusable` only when nothing of the case is left; the next `configure` makes
a fresh `Pusher` object.
"""
import json
import os
import sys
import tempfile
import threading
import traceback

OUT = threading.Lock()
PROTOCOL = sys.stdout
sys.stdout = sys.stderr


def emit(obj):
    line = json.dumps(obj, separators=(",", ":"))
    with OUT:
        PROTOCOL.write(line + "\n")
        PROTOCOL.flush()


def emit_event(obj, gate):
    """An event of the case whose gate is `gate`: dropped once that case is closed."""
    if gate is None:
        emit(obj)
    else:
        gate.call(emit, obj)


# Ending one case inside a reused process; without it the driver serves one case per process.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "common"))
try:
    import case_cleanup
except ImportError:
    case_cleanup = None


try:
    import logging
    import pysher
    from importlib import metadata
    VERSION = metadata.version("pysher")
    IMPORT_ERROR = None
except ImportError as error:
    pysher = None
    VERSION = None
    IMPORT_ERROR = str(error)


def decoded(data):
    """pysher hands events' data to the app as received (a string); JSON text is parsed for the
    report, anything else stays the string."""
    if isinstance(data, str):
        try:
            value = json.loads(data)
        except ValueError:
            return data
        return value if isinstance(value, (dict, list)) else data
    return data


class Session:
    def __init__(self, request):
        self.gate = case_cleanup.CaseGate() if case_cleanup is not None else None
        self.config = request
        self.members = {}
        user_data = {"user_id": request["userID"], "user_info": request.get("userInfo", {})}
        self.client = pysher.Pusher(
            request["appKey"],
            secure=bool(request.get("tls", False)),
            custom_host=request["host"],
            port=request["port"],
            auth_endpoint=request["authEndpoint"],
            user_data=user_data,
            reconnect_interval=max(request.get("reconnectDelayMs", 1000), 0) / 1000.0,
            auto_sub=True,
            log_level=logging.WARNING,
        )
        connection = self.client.connection
        self.ca_file = None
        if request.get("caPEM"):
            # wss trusting the harness's test CA: websocket-client takes it through run_forever's sslopt.
            handle, self.ca_file = tempfile.mkstemp(suffix=".pem")
            with os.fdopen(handle, "w") as ca:
                ca.write(request["caPEM"])
            connection.socket_kwargs["sslopt"] = {"ca_certs": self.ca_file}
        connection.bind("pusher:connection_established", self.on_established)
        connection.bind("pusher:error", self.on_error)
        original_close = connection._on_close

        def on_close(*args):
            code = args[1] if len(args) > 1 and isinstance(args[1], int) else None
            self.emit({"type": "disconnected", "code": code})
            original_close(*args)
        connection._on_close = on_close
        original_handler = connection.event_handler

        def on_channel_event(event, data, channel):
            self.on_channel_event(event, data, channel)
            original_handler(event, data, channel)
        connection.event_handler = on_channel_event
        self.started = False
        # pysher's timer thread (PysherScheduler) sleeps up to 30 s between checks, so it outlives a
        # disconnect by that long. The same waits on an event let `close_for_reuse` end it at once:
        # during the case every wait lasts exactly as long as pysher's own `sleep_max_n`.
        self.stopping = threading.Event()
        scheduler = getattr(connection, "timeout_scheduler", None)
        if case_cleanup is not None and scheduler is not None and hasattr(scheduler, "delayfunc"):
            limit = min(getattr(connection, name, 30) for name in ("pong_timeout", "connection_timeout", "ping_interval"))

            def wait(seconds):
                if self.stopping.wait(max(0, min(limit, seconds))):
                    for event in list(scheduler.queue):
                        try:
                            scheduler.cancel(event)
                        except ValueError:
                            pass
            scheduler.delayfunc = wait

    def on_established(self, data):
        try:
            self.emit({"type": "connected", "socketID": json.loads(data)["socket_id"]})
        except Exception:
            traceback.print_exc()

    def on_error(self, data):
        data = decoded(data)
        if isinstance(data, dict):
            self.emit({"type": "error", "code": data.get("code"), "message": data.get("message") or ""})
        else:
            self.emit({"type": "error", "code": None, "message": str(data)})

    def on_channel_event(self, event, data, channel):
        value = decoded(data)
        if event == "pusher_internal:subscription_succeeded":
            self.emit({"type": "subscribed", "channel": channel})
            if channel.startswith("presence-") and isinstance(value, dict):
                ids = [str(i) for i in value.get("presence", {}).get("ids", [])]
                self.members[channel] = ids
                self.emit({"type": "members", "channel": channel, "userIDs": ids})
        elif event == "pusher_internal:member_added" and isinstance(value, dict):
            user = str(value.get("user_id"))
            self.members.setdefault(channel, []).append(user)
            self.emit({"type": "memberAdded", "channel": channel, "userID": user})
            self.emit({"type": "members", "channel": channel, "userIDs": self.members[channel]})
        elif event == "pusher_internal:member_removed" and isinstance(value, dict):
            user = str(value.get("user_id"))
            self.members[channel] = [m for m in self.members.get(channel, []) if m != user]
            self.emit({"type": "memberRemoved", "channel": channel, "userID": user})
            self.emit({"type": "members", "channel": channel, "userIDs": self.members[channel]})
        elif not event.startswith("pusher"):
            line = {"type": "event", "channel": channel, "event": event, "data": value}
            self.emit(line)

    def perform(self, request):
        kind = request["type"]
        if kind == "connect":
            if self.started:
                return {"type": "error", "detail": "pysher connects once per Pusher object"}
            self.started = True
            self.client.connect()
        elif kind == "disconnect":
            # Connection.disconnect joins pysher's thread: bounded, off the request loop.
            threading.Thread(target=self.client.disconnect, kwargs={"timeout": 2}, daemon=True).start()
        elif kind == "subscribe":
            try:
                self.client.subscribe(request["channel"])
            except Exception as error:
                # pysher reports a refused authorization by raising from subscribe (an assert on
                # the endpoint's status in Pusher._generate_auth_token): that is its report to the app.
                self.emit({"type": "subscriptionError", "channel": request["channel"],
                      "message": "%s: %s" % (type(error).__name__, error)})
        elif kind == "unsubscribe":
            self.client.unsubscribe(request["channel"])
        elif kind == "trigger":
            channel = self.client.channel(request["channel"])
            if channel is None:
                return {"type": "error", "detail": "not subscribed to " + request["channel"]}
            channel.trigger(request["event"], request.get("data"))
        else:
            return {"type": "unsupported", "detail": kind}
        return {"type": "result"}

    def emit(self, obj):
        emit_event(obj, self.gate)

    def close(self):
        if self.started:
            threading.Thread(target=self.client.disconnect, kwargs={"timeout": 1}, daemon=True).start()
        if self.ca_file:
            try:
                os.unlink(self.ca_file)
            except OSError:
                pass

    def close_for_reuse(self, baseline):
        """Ends the case so that the process can serve another: None when nothing of it is left
        (no callback, thread, timer or socket), else why not."""
        if self.gate is not None:
            self.gate.shut()
        # Reconnection off first, as pysher's `disconnect` does before anything else (a socket that
        # ends under a connected pysher makes it reconnect); then the sockets are shut down (the
        # event loop polls its socket, and a socket closed under a poll never wakes it up, which
        # `disconnect` alone risks); the loop ends by itself; then `disconnect` cleans up.
        connection = getattr(self.client, "connection", None)
        if self.started and connection is not None:
            connection.needs_reconnect = False
            connection.disconnect_called = True
        case_cleanup.shut_down_sockets()
        if self.started and connection is not None and connection.is_alive():
            connection.join(2.0)  # the loop ends on the end of stream, before `disconnect` closes anything
        if self.started:
            stopper = threading.Thread(target=self.disconnect_quietly, daemon=True)
            stopper.start()
            stopper.join(2.0)
        self.stopping.set()
        self.client = None
        if self.ca_file:
            try:
                os.unlink(self.ca_file)
            except OSError:
                pass
            self.ca_file = None
        return case_cleanup.settle(baseline, 3.0)

    def disconnect_quietly(self):
        try:
            self.client.disconnect(timeout=1)
        except Exception as error:
            sys.stderr.write("disconnect: %s\n" % error)


def main():
    session = None
    if case_cleanup is not None:
        case_cleanup.freeze_process_objects()  # the collection that ends a case scans the case's objects only
    # What a closed case must leave behind: the threads of the process before any case.
    baseline = set(threading.enumerate())
    for raw in sys.stdin:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw)
        except ValueError:
            sys.stderr.write("unreadable request: %r\n" % raw)
            continue
        reply = {"id": request.get("id")}
        try:
            kind = request.get("type")
            if kind == "hello":
                reply.update({"type": "result", "data": {
                    "protocol": "pusher", "client": "pysher", "version": VERSION or "not installed",
                    "capabilities": ["privateChannels", "presence", "clientEvents", "reconnection", "tls"],
                    # spec §2.3, §5: pysher acts on pusher:error codes only, and re-subscribes
                    # private channels without auth after a reconnect.
                    "profile": {"closeCodes": "error-events-only", "resubscribe": "no-auth"},
                    "reuse": case_cleanup is not None}})
            elif kind == "configure":
                if pysher is None:
                    reply.update({"type": "error", "detail": "pysher is not installed: " + IMPORT_ERROR})
                elif session is not None:
                    reply.update({"type": "error", "detail": "configure before the previous case's close"})
                else:
                    session = Session(request)
                    reply["type"] = "result"
            elif kind == "close" and request.get("reuse") and case_cleanup is not None:
                problem = session.close_for_reuse(baseline) if session is not None else case_cleanup.settle(baseline, 3.0)
                session = None
                reply.update({"type": "result", "data": {"reusable": problem is None}})
                if problem is not None:
                    reply["data"]["detail"] = problem
                    sys.stderr.write("not reusable: %s\n" % problem)
                emit(reply)
                if problem is not None:
                    break
                continue
            elif kind == "close":
                if session is not None:
                    session.close()
                reply["type"] = "result"
                emit(reply)
                break
            elif session is None:
                reply.update({"type": "error", "detail": "configure first"})
            else:
                reply.update(session.perform(request))
        except Exception as error:
            traceback.print_exc()
            reply.update({"type": "error", "detail": "%s: %s" % (type(error).__name__, error)})
        emit(reply)
    sys.stderr.flush()


if __name__ == "__main__":
    main()
