#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal client driver for pubnub-harness (docs/driver-protocol.md).

It implements the JSON-lines protocol with a small, real HTTP client (Python standard library
only) for a few operations: time, publish, signal, subscribe (handshake + long-poll loop),
unsubscribe and history. Every other operation is answered "unsupported", so the harness skips
those cases. Run it with:

    pubnub-harness run --client-command "python3 Examples/driver/fake_driver.py" --suite publish
"""
import json
import socket
import ssl
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

OUT = threading.Lock()


def emit(obj):
    """Writes one protocol line (thread-safe)."""
    with OUT:
        sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        sys.stdout.flush()


class RequestFailed(Exception):
    def __init__(self, category, status=None, detail=""):
        super().__init__(detail)
        self.category = category
        self.status = status


CATEGORY_BY_STATUS = {
    400: "PNBadRequestCategory",
    403: "PNAccessDeniedCategory",
    404: "PNResourceNotFoundCategory",
    414: "PNRequestURITooLongCategory",
    481: "PNMalformedFilterExpressionCategory",
}


class Client:
    def __init__(self, config):
        self.config = config
        scheme = "https" if config.get("tls") else "http"
        self.base = "%s://%s" % (scheme, config["origin"])
        self.context = None
        if config.get("tls"):
            self.context = ssl.create_default_context(cadata=config.get("caPEM") or None)
        self.channels = []
        self.groups = []
        self.generation = 0
        self.lock = threading.Lock()
        self.closed = False

    def url(self, path, query):
        query = dict(query)
        query["uuid"] = self.config["uuid"]
        query["pnsdk"] = "fake-driver/1.0"
        if self.config.get("authKey"):
            query["auth"] = self.config["authKey"]
        return self.base + path + "?" + urllib.parse.urlencode(query)

    def get(self, path, query=None, timeout_ms=None, method="GET", body=None):
        timeout = (timeout_ms or self.config["nonSubscribeTimeoutMs"]) / 1000.0
        request = urllib.request.Request(self.url(path, query or {}), data=body, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout, context=self.context) as response:
                status, data = response.status, response.read()
        except urllib.error.HTTPError as error:
            raise RequestFailed(CATEGORY_BY_STATUS.get(error.code, "PNUnknownCategory"), error.code, str(error))
        except ssl.SSLCertVerificationError as error:
            raise RequestFailed("PNTLSUntrustedCertificateCategory", None, str(error))
        except (socket.timeout, TimeoutError) as error:
            raise RequestFailed("PNTimeoutCategory", None, str(error))
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                raise RequestFailed("PNTimeoutCategory", None, str(error))
            if isinstance(error.reason, ssl.SSLCertVerificationError):
                raise RequestFailed("PNTLSUntrustedCertificateCategory", None, str(error))
            if isinstance(error.reason, ssl.SSLError):
                raise RequestFailed("PNTLSConnectionFailedCategory", None, str(error))
            raise RequestFailed("PNNetworkIssuesCategory", None, str(error))
        except (ConnectionError, OSError) as error:
            raise RequestFailed("PNNetworkIssuesCategory", None, str(error))
        try:
            return status, json.loads(data.decode("utf-8"))
        except ValueError as error:
            raise RequestFailed("PNMalformedResponseCategory", status, str(error))

    # Operations -------------------------------------------------------------------------

    def time(self, step):
        status, body = self.get("/time/0")
        if not isinstance(body, list) or not body:
            raise RequestFailed("PNMalformedResponseCategory", status, "unexpected time body")
        return {"statusCode": status, "data": {"timetoken": str(body[0])}}

    def publish(self, step, kind="publish"):
        c = self.config
        channel = urllib.parse.quote(step["channel"], safe="")
        message = json.dumps(step["message"], separators=(",", ":"))
        query = {}
        if step.get("meta") is not None:
            query["meta"] = json.dumps(step["meta"], separators=(",", ":"))
        if step.get("storeInHistory") is False:
            query["store"] = "0"
        path = "/%s/%s/%s/0/%s/0" % (kind, c["publishKey"], c["subscribeKey"], channel)
        if step.get("usePOST"):
            status, body = self.get(path, query, method="POST", body=message.encode("utf-8"))
        else:
            status, body = self.get(path + "/" + urllib.parse.quote(message, safe=""), query)
        if not isinstance(body, list) or len(body) < 3:
            raise RequestFailed("PNMalformedResponseCategory", status, "unexpected publish body")
        return {"category": "PNAcknowledgmentCategory", "statusCode": status, "data": {"timetoken": str(body[2])}}

    def signal(self, step):
        return self.publish(step, kind="signal")

    def history(self, step):
        query = {"include_token": "true" if step.get("includeTimetoken", True) else "false"}
        for name in ("start", "end", "count"):
            if step.get(name) is not None:
                query[name] = str(step[name])
        if step.get("reverse"):
            query["reverse"] = "true"
        channel = urllib.parse.quote(step["channel"], safe="")
        status, body = self.get("/v2/history/sub-key/%s/channel/%s" % (self.config["subscribeKey"], channel), query)
        if not isinstance(body, list) or len(body) < 3 or not isinstance(body[0], list):
            raise RequestFailed("PNMalformedResponseCategory", status, "unexpected history body")
        messages = []
        for entry in body[0]:
            if isinstance(entry, dict) and "message" in entry:
                messages.append({"message": entry["message"], "timetoken": str(entry.get("timetoken"))})
            else:
                messages.append({"message": entry})
        return {"statusCode": status, "data": {"messages": messages, "start": str(body[1]), "end": str(body[2])}}

    def subscribe(self, step):
        with self.lock:
            for name in step.get("channels", []):
                if name not in self.channels:
                    self.channels.append(name)
                if step.get("withPresence") and name + "-pnpres" not in self.channels:
                    self.channels.append(name + "-pnpres")
            for name in step.get("groups", []):
                if name not in self.groups:
                    self.groups.append(name)
            self.generation += 1
            generation = self.generation
        threading.Thread(target=self.loop, args=(generation, step.get("timetoken")), daemon=True).start()
        return {"category": None, "data": {}}

    def unsubscribe(self, step, everything=False):
        with self.lock:
            gone = list(self.channels) if everything else step.get("channels", [])
            self.channels = [c for c in self.channels if c not in gone and c[:-7] not in gone]
            gone_groups = list(self.groups) if everything else step.get("groups", [])
            self.groups = [g for g in self.groups if g not in gone_groups]
            self.generation += 1
            generation = self.generation
            remaining = bool(self.channels or self.groups)
        names = ",".join(urllib.parse.quote(c, safe="") for c in gone if not c.endswith("-pnpres")) or ","
        try:
            self.get("/v2/presence/sub-key/%s/channel/%s/leave" % (self.config["subscribeKey"], names))
        except RequestFailed as error:
            return {"category": error.category, "error": True, "statusCode": error.status}
        if remaining:
            threading.Thread(target=self.loop, args=(generation, None), daemon=True).start()
        else:
            emit({"type": "status", "category": "PNDisconnectedCategory", "operation": "unsubscribe"})
        return {"category": "PNAcknowledgmentCategory", "statusCode": 200}

    def unsubscribeAll(self, step):
        return self.unsubscribe(step, everything=True)

    # The subscribe loop -------------------------------------------------------------------

    def loop(self, generation, timetoken):
        cursor, region, connected = "0", None, False
        while not self.closed:
            with self.lock:
                if generation != self.generation:
                    return
                channels = ",".join(urllib.parse.quote(c, safe="") for c in self.channels) or ","
                groups = ",".join(self.groups)
            query = {"tt": cursor, "heartbeat": str(self.config["presenceHeartbeatValue"])}
            if region is not None:
                query["tr"] = str(region)
            if groups:
                query["channel-group"] = groups
            try:
                _, body = self.get("/v2/subscribe/%s/%s/0" % (self.config["subscribeKey"], channels), query,
                                   timeout_ms=self.config["subscribeTimeoutMs"])
                cursor, region = str(body["t"]["t"]), body["t"].get("r")
                envelopes = body.get("m", [])
            except RequestFailed as error:
                if generation == self.generation and not self.closed:
                    category = error.category
                    if category not in ("PNAccessDeniedCategory", "PNRequestURITooLongCategory",
                                        "PNMalformedFilterExpressionCategory"):
                        category = "PNUnexpectedDisconnectCategory"
                    emit({"type": "status", "category": category, "operation": "subscribe"})
                return
            except (KeyError, TypeError, AttributeError):
                if generation == self.generation:
                    emit({"type": "status", "category": "PNUnexpectedDisconnectCategory", "operation": "subscribe"})
                return
            if generation != self.generation:
                return
            if not connected:
                connected = True
                emit({"type": "status", "category": "PNConnectedCategory", "operation": "subscribe", "timetoken": cursor})
                if timetoken:
                    cursor = timetoken
                continue
            for envelope in envelopes:
                self.deliver(envelope)

    def deliver(self, envelope):
        channel = envelope.get("c", "")
        subscription = envelope.get("b")
        if channel.endswith("-pnpres"):
            data = envelope.get("d") or {}
            emit({"type": "presence", "channel": channel[:-7], "action": data.get("action"), "uuid": data.get("uuid"),
                  "occupancy": data.get("occupancy"), "state": data.get("data")})
            return
        line = {"type": "signal" if envelope.get("e") == 1 else "message", "channel": channel,
                "message": envelope.get("d"), "publisher": envelope.get("i"),
                "timetoken": str((envelope.get("p") or {}).get("t"))}
        if subscription and subscription != channel:
            line["subscription"] = subscription
        emit(line)


def main():
    client = None
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        step = json.loads(raw)
        ident, kind = step.get("id"), step.get("type")
        if kind == "configure":
            client = Client(step)
            emit({"id": ident, "type": "result"})
            continue
        if kind == "close":
            if client is not None:
                client.closed = True
            emit({"id": ident, "type": "result"})
            return
        handler = getattr(client, kind, None) if client is not None and kind in OPERATIONS else None
        if handler is None:
            emit({"id": ident, "type": "unsupported", "detail": kind})
            continue
        try:
            reply = handler(step)
            reply.update({"id": ident, "type": "result"})
            reply.setdefault("error", False)
            if reply.get("category") is None:
                reply.pop("category", None)
            emit(reply)
        except RequestFailed as error:
            emit({"id": ident, "type": "result", "category": error.category, "error": True, "statusCode": error.status,
                  "data": {"detail": str(error)}})


OPERATIONS = {"time", "publish", "signal", "subscribe", "unsubscribe", "unsubscribeAll", "history"}

if __name__ == "__main__":
    main()
