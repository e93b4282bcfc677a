#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pubnub-harness driver for the official PubNub Python SDK (`pip install pubnub`).

Speaks the JSON-lines driver protocol (docs/driver-protocol.md) on stdin/stdout and maps every
operation to the SDK's own API, so the harness measures the SDK, not this file. Two flavours:

    --flavour sync      PubNub (threads; the native subscription manager)
    --flavour asyncio   PubNubAsyncio (an asyncio event loop; the SDK's default subscription manager)

It feature-detects what differs between SDK majors (4.x ... 10.x): configuration attribute
names, crypto modules, reconnection policies, status categories as integers or enums. Settings
the SDK has no equivalent for are ignored (and listed in the `hello` profile); operations it
lacks are answered `unsupported`.

Both flavours serve many cases in one process when the runner asks (docs/driver-protocol.md,
"Reuse"): `close` with `"reuse": true` stops the case's SDK object, shuts its sockets down, waits for
its threads (and, asyncio, its tasks and executor), and answers `reusable` only when nothing of the
case is left; the next `configure` makes a fresh SDK object.
"""
import argparse
import json
import math
import os
import sys
import tempfile
import threading
import traceback

OUT = threading.Lock()
# stdout carries the protocol only. Some SDK releases print to stdout themselves (5.x prints every
# fetch-messages response in `PNFetchMessagesResult.from_json`): everything the process prints
# goes to stderr, protocol lines to the real stdout.
PROTOCOL = sys.stdout
sys.stdout = sys.stderr


def emit(obj):
    """Writes one protocol line (thread-safe)."""
    line = json.dumps(obj, separators=(",", ":"), default=str)
    with OUT:
        PROTOCOL.write(line + "\n")
        PROTOCOL.flush()


def log(text):
    sys.stderr.write(text.rstrip() + "\n")
    sys.stderr.flush()


# Ending one case inside a reused process (Drivers/common); without it the driver serves one case.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "common"))
try:
    import case_cleanup
except ImportError:
    case_cleanup = None


# --- SDK import and feature detection ------------------------------------------------------

try:
    import pubnub as _pubnub_package
    from pubnub.pnconfiguration import PNConfiguration
    from pubnub.callbacks import SubscribeCallback
    from pubnub.enums import PNStatusCategory
    from pubnub.exceptions import PubNubException
except ImportError as error:  # the SDK is not installed in this interpreter
    PNConfiguration = None
    SubscribeCallback = object
    IMPORT_ERROR = str(error)
else:
    IMPORT_ERROR = None

try:
    from pubnub.enums import PNReconnectionPolicy
except ImportError:
    PNReconnectionPolicy = None

def sdk_version():
    """The installed distribution's version (the SDK's own constant lags behind in 10.x)."""
    if IMPORT_ERROR is not None:
        return "missing"
    try:
        from importlib.metadata import version
        return version("pubnub")
    except Exception:
        return getattr(_pubnub_package, "__version__", "unknown")


def sdk_major():
    try:
        return int(sdk_version().split(".")[0])
    except ValueError:
        return 0


def category_name(category):
    """The 4.x name of an SDK status category (an Enum member in 7.x+, an int before)."""
    if category is None:
        return None
    name = getattr(category, "name", None)
    if isinstance(name, str):
        return name
    for attribute in dir(PNStatusCategory):
        if attribute.startswith("PN") and getattr(PNStatusCategory, attribute) == category:
            return attribute
    return "PNUnknownCategory"


def timetoken_text(value):
    return None if value is None else str(int(value))


def seconds(ms):
    """The SDK's timeouts are whole seconds: round milliseconds up, at least 1."""
    return max(1, int(math.ceil(ms / 1000.0)))


def has_crypto_modules():
    try:
        from pubnub.crypto import AesCbcCryptoModule, LegacyCryptoModule  # noqa: F401
        return True
    except ImportError:
        return False


def has_token_api():
    """Access Manager v3 (grant_token, revoke_token, set_token, parse_token): SDK 5.x and later."""
    try:
        from pubnub.models.consumer.v3.channel import Channel  # noqa: F401
        from pubnub.pubnub_core import PubNubCore
        return all(hasattr(PubNubCore, name) for name in ("grant_token", "revoke_token", "set_token", "parse_token"))
    except ImportError:
        return False


# Permission bits of a v3 grant (docs/driver-protocol.md) and the SDK's resource setters.
TOKEN_BITS = ((1, "read"), (2, "write"), (4, "manage"), (8, "delete"), (16, "create"), (32, "get"), (64, "update"),
              (128, "join"))


def token_resources(kind, names, pattern):
    """SDK resource objects (Channel, Group, UUID) for {name: mask}."""
    out = []
    for name, mask in sorted((names or {}).items()):
        resource = kind.pattern(name) if pattern else kind.id(name)
        for bit, setter in TOKEN_BITS:
            if int(mask) & bit:
                if hasattr(resource, setter):
                    getattr(resource, setter)()
                else:
                    # Group and UUID lack setters for bits the service does not use on them.
                    setattr(resource, "_" + setter, True)
        out.append(resource)
    return out


def token_masks(entries):
    """{name: {read: True, ...}} (parse_token) → {name: mask}."""
    masks = {}
    for name, flags in (entries or {}).items():
        masks[name] = sum(bit for bit, flag in TOKEN_BITS if flags.get(flag))
    return masks


def parsed_token_data(parsed):
    def side(values):
        return {kind: token_masks(entries) for kind, entries in (values or {}).items() if entries}
    return {"version": parsed.get("version"), "timestamp": parsed.get("timestamp"), "ttl": parsed.get("ttl"),
            "authorizedUUID": parsed.get("authorized_uuid"), "resources": side(parsed.get("resources")),
            "patterns": side(parsed.get("patterns")), "meta": parsed.get("meta")}


# The driver protocol version this driver is written for (docs/driver-protocol.md, "Protocol versions").
PROTOCOL_VERSION = 9


def capabilities(flavour="sync"):
    """What this SDK offers, as the harness's capability names: each one checked against what
    the installed SDK has (the driver maps every operation; an SDK without the API cannot serve it)."""
    caps = ["tls", "encryption", "presence", "history", "channelGroups", "accessManager"]
    # The asyncio flavour's event engine (8.x on) takes a linear or exponential policy with its
    # delay and retry count (pnconfiguration.py: reconnect_policy, reconnection_interval,
    # maximum_reconnection_retries); the threaded flavour has none.
    if flavour == "asyncio" and sdk_major() >= 8 and PNConfiguration is not None \
            and hasattr(PNConfiguration(), "reconnection_interval"):
        caps.append("eventEngine")
    if has_token_api():
        caps.append("accessTokens")
    if PNReconnectionPolicy is not None:
        caps.append("reconnection")
    try:
        from pubnub.pubnub_core import PubNubCore
    except ImportError:
        PubNubCore = None
    if PubNubCore is not None:
        for capability, method in (("files", "send_file"), ("objects", "set_uuid_metadata"), ("push", "add_channels_to_push")):
            if hasattr(PubNubCore, method):
                caps.append(capability)
    if has_custom_message_types():
        caps.append("messageTypes")
    if fetch_reports_custom_message_type():
        caps.append("historyMessageTypes")
    if PNConfiguration is not None and hasattr(PNConfiguration(), "filter_expression"):
        caps.append("filters")
    if has_message_actions():
        caps.append("messageActions")
    # A wildcard is a channel name to the SDK; the listener reports the subscription it arrived through.
    caps.append("wildcardSubscribe")
    return caps


def has_custom_message_types():
    """Whether publish and signal take a custom message type (10.x)."""
    try:
        from pubnub.endpoints.pubsub.publish import Publish
        from pubnub.endpoints.signal import Signal
    except ImportError:
        return False
    return hasattr(Publish, "custom_message_type") and hasattr(Signal, "custom_message_type")


def has_message_actions():
    """Whether the SDK adds, lists and removes message actions, fetches messages with their
    actions and has a listener callback for action events (4.1 and later)."""
    try:
        from pubnub.pubnub_core import PubNubCore
        from pubnub.endpoints.fetch_messages import FetchMessages
    except ImportError:
        return False
    return (all(hasattr(PubNubCore, m) for m in ("add_message_action", "get_message_actions", "remove_message_action"))
            and hasattr(FetchMessages, "include_message_actions") and hasattr(SubscribeCallback, "message_action"))


def fetch_reports_custom_message_type():
    """Whether a fetched message exposes its `custom_message_type`: the SDK can ask for it
    (`include_custom_message_type`), but 10.8.0's result drops it from every item."""
    try:
        from pubnub.models.consumer.history import PNFetchMessagesResult
        result = PNFetchMessagesResult.from_json(
            {"channels": {"c": [{"message": "m", "timetoken": "1", "custom_message_type": "t"}]}})
        items = result.channels.get("c") or []
        return bool(items) and getattr(items[0], "custom_message_type", None) == "t"
    except Exception:  # noqa: BLE001 - an SDK whose parser differs does not report it either
        return False


def profile(flavour):
    """How this SDK family behaves where clients legitimately differ (docs/driver-protocol.md)."""
    event_engine = flavour == "asyncio" and sdk_major() >= 8
    return {
        # 10.x sync pings /time/0 after a failure, with a linear or exponential delay (jittered,
        # 2 s by default); the asyncio event engine retries the subscribe itself.
        "reconnection": "retry-policy" if event_engine else "time-ping-jittered",
        "unsubscribeAllStatus": "PNAcknowledgmentCategory",
        "listChangeStatus": "PNSubscriptionChangedCategory" if event_engine else "none",
        "subscribeTimeout": "silent-restart",
        # Threads announce the failed long-poll's own status; the event engine retries the
        # request first and stays silent while its retries last.
        "subscribeFaultStatus": "none" if event_engine else "PNUnknownCategory",
        "malformedResponse": "exception",
        "handshake": "tt=0",
        "heartbeat": "subscribe-query",
        "timeoutResolutionMs": 1000,
        "settingsIgnored": ignored_settings(),
    }


def ignored_settings():
    """`configure` settings this SDK has no equivalent for."""
    ignored = ["catchUpOnSubscriptionRestore", "keepTimeTokenOnListChange", "requestMessageCountThreshold"]
    if IMPORT_ERROR is None and "reconnection_interval" not in PNConfiguration().__dict__:
        ignored.append("reconnectPingIntervalMs")
    if PNReconnectionPolicy is None:
        ignored.append("restoreSubscription")
    return ignored


# --- Configuration ---------------------------------------------------------------------------

class Unsupported(Exception):
    pass


CA_FILE = None
CA_PEM = None


def trust_ca(pem):
    """Makes every HTTP stack the SDK may use (httpx, requests, aiohttp/ssl) trust the harness CA."""
    global CA_FILE, CA_PEM
    if CA_FILE is None or CA_PEM != pem:  # a reused process may meet another CA
        handle = tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False)
        handle.write(pem)
        handle.close()
        CA_FILE, CA_PEM = handle.name, pem
    for name in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        os.environ[name] = CA_FILE


def set_if(config, name, value):
    if hasattr(config, name) or name in getattr(config, "__dict__", {}):
        setattr(config, name, value)
        return True
    return False


def make_configuration(fields):
    config = PNConfiguration()
    config.subscribe_key = fields["subscribeKey"]
    config.publish_key = fields["publishKey"]
    if not set_if(config, "user_id", fields["uuid"]):
        config.uuid = fields["uuid"]
    config.origin = fields["origin"]
    config.ssl = bool(fields.get("tls"))
    # The run's CA comes with every case when the run has a TLS listener: trusted from the first
    # case on, whether or not it uses TLS, so a warm process's trust does not depend on which
    # cases it served before, and the SDK's HTTP client loads one certificate for its TLS
    # context instead of the system's whole bundle (tens of milliseconds of CPU per case).
    if fields.get("caPEM"):
        trust_ca(fields["caPEM"])
    if fields.get("authKey"):
        config.auth_key = fields["authKey"]
    if fields.get("secretKey"):
        config.secret_key = fields["secretKey"]
    if fields.get("filterExpression"):
        config.filter_expression = fields["filterExpression"]

    scheme = fields.get("cipherScheme")
    key = fields.get("cipherKey")
    if key:
        if scheme == "aescbc":
            if not has_crypto_modules():
                raise Unsupported("cipher scheme aescbc (no crypto modules before 7.2)")
            from pubnub.crypto import AesCbcCryptoModule
            config.cipher_key = key
            config.use_random_initialization_vector = True
            config.crypto_module = AesCbcCryptoModule(config)
        elif scheme in ("legacy", "legacy-random-iv", None):
            random_iv = scheme == "legacy-random-iv"
            if random_iv and not hasattr(config, "use_random_initialization_vector"):
                raise Unsupported("cipher scheme legacy-random-iv")
            # The legacy schemes are the SDK's classic cipher_key path (no crypto module).
            config.cipher_key = key
            set_if(config, "use_random_initialization_vector", random_iv)
        else:
            raise Unsupported("cipher scheme %s" % scheme)

    config.non_subscribe_request_timeout = seconds(fields["nonSubscribeTimeoutMs"])
    config.subscribe_request_timeout = seconds(fields["subscribeTimeoutMs"])
    set_if(config, "connect_timeout", seconds(fields["nonSubscribeTimeoutMs"]))

    # Presence: heartbeat= on subscribe, and separate heartbeats when an interval is asked for.
    value = int(fields.get("presenceHeartbeatValue", 0) or 0)
    interval_ms = int(fields.get("presenceHeartbeatIntervalMs", 0) or 0)
    if value > 0:
        interval = seconds(interval_ms) if interval_ms > 0 else max(1, value // 2 - 1)
        if hasattr(config, "set_presence_timeout_with_custom_interval"):
            config.set_presence_timeout_with_custom_interval(value, interval)
        else:
            config.set_presence_timeout(value)
    set_if(config, "enable_presence_heartbeat", interval_ms > 0)

    # Reconnection: the SDK's policies stand in for "restore"; the ping interval becomes the
    # linear policy's delay where the SDK lets it be set.
    if PNReconnectionPolicy is not None:
        if fields.get("restoreSubscription", True):
            config.reconnect_policy = PNReconnectionPolicy.LINEAR
            interval = fields.get("reconnectPingIntervalMs")
            if interval and "reconnection_interval" in config.__dict__:
                config.reconnection_interval = interval / 1000.0
            set_if(config, "maximum_reconnection_retries", -1)
        else:
            config.reconnect_policy = PNReconnectionPolicy.NONE
    if fields.get("eventEngine"):
        configure_event_engine(config, fields)
    set_if(config, "daemon", True)
    return config


def configure_event_engine(config, fields):
    """The case's retry policy on the event engine (driver protocol 9). The SDK adds up to 1 s of
    random jitter to every delay (managers.py LinearDelay/ExponentialDelay.calculate) and has no
    list of excluded endpoints: a policy with `excluded` is unsupported."""
    policy = fields.get("retryPolicy") or {}
    if policy.get("excluded"):
        raise Unsupported("the SDK's retry policy excludes no endpoint (pnconfiguration.py has no such setting)")
    kinds = {"none": PNReconnectionPolicy.NONE, "linear": PNReconnectionPolicy.LINEAR,
             "exponential": PNReconnectionPolicy.EXPONENTIAL}
    if policy.get("kind", "exponential") not in kinds:
        raise Unsupported("retry policy kind %s" % policy.get("kind"))
    config.reconnect_policy = kinds[policy.get("kind", "exponential")]
    config.maximum_reconnection_retries = int(policy.get("maximumRetries", 6))
    config.reconnection_interval = policy.get("delayMs", 2000) / 1000.0
    set_if(config, "maximum_reconnection_interval", policy.get("maximumDelayMs", 150000) / 1000.0)
    config.suppress_leave_events = bool(fields.get("suppressLeaveEvents"))


# --- Listener --------------------------------------------------------------------------------

class Listener(SubscribeCallback):
    def status(self, pubnub, status):
        name = category_name(getattr(status, "category", None))
        if name is None:
            return
        line = {"type": "status", "category": name}
        operation = getattr(status, "operation", None)
        if operation is not None:
            line["operation"] = str(operation)
        emit(line)

    def _deliver(self, message, kind):
        channel = getattr(message, "channel", None) or getattr(message, "actual_channel", None)
        subscription = getattr(message, "subscription", None) or getattr(message, "subscribed_channel", None)
        line = {"type": kind, "channel": channel, "message": message.message,
                "publisher": getattr(message, "publisher", None),
                "timetoken": timetoken_text(getattr(message, "timetoken", None))}
        if subscription and subscription != channel:
            line["subscription"] = subscription
        if getattr(message, "error", None) is not None:
            line["decryptionFailed"] = True
        if getattr(message, "custom_message_type", None):
            line["customMessageType"] = message.custom_message_type
        emit(line)

    def message(self, pubnub, message):
        self._deliver(message, "message")

    def signal(self, pubnub, signal):
        self._deliver(signal, "signal")

    def file(self, pubnub, file_message):
        content = {"file": {"id": file_message.file_id, "name": file_message.file_name, "url": file_message.file_url}}
        if file_message.message is not None:
            content["message"] = file_message.message
        line = {"type": "file", "channel": file_message.channel, "message": content,
                "publisher": getattr(file_message, "publisher", None),
                "timetoken": timetoken_text(getattr(file_message, "timetoken", None))}
        subscription = getattr(file_message, "subscription", None)
        if subscription and subscription != file_message.channel:
            line["subscription"] = subscription
        emit(line)

    def presence(self, pubnub, presence):
        channel = getattr(presence, "channel", None) or getattr(presence, "actual_channel", "")
        if channel.endswith("-pnpres"):
            channel = channel[:-7]
        line = {"type": "presence", "channel": channel, "action": presence.event, "uuid": presence.uuid,
                "occupancy": presence.occupancy}
        if getattr(presence, "state", None) is not None:
            line["state"] = presence.state
        emit(line)

    # App Context events (e = 2). The SDK's results carry the event and its data but not the
    # channel it arrived on: the line names the channel the service routes it to (the object's id;
    # for memberships the channel's id).
    def _app_context(self, result, entity):
        data = getattr(result, "data", None) or {}
        if entity == "membership":
            channel = (data.get("channel") or {}).get("id")
        else:
            channel = data.get("id")
        emit({"type": "appContext", "channel": channel, "event": getattr(result, "event", None), "entity": entity, "data": data})

    def uuid(self, pubnub, uuid):
        self._app_context(uuid, "uuid")

    def channel(self, pubnub, channel):
        self._app_context(channel, "channel")

    def membership(self, pubnub, membership):
        self._app_context(membership, "membership")

    # Message-action events (e = 3). The SDK hands the listener the action only
    # (`SubscribeMessageWorker._process_incoming_payload` keeps `d["data"]` and drops `d["event"]`,
    # pubnub/workers.py:196-202 in 10.8.0), so whether it was added or removed is unknown here:
    # `event` is reported as the result's `event` attribute if a release has one, else null.
    def message_action(self, pubnub, message_action):
        emit({"type": "messageAction", "channel": getattr(message_action, "channel", None),
              "event": getattr(message_action, "event", None), "action": message_action_data(message_action)})


class GatedListener(Listener):
    """One case's listener in a reusable process: silent once its case is closed. Every public
    callback the SDK calls (status, message, presence, signal and any other) runs through the
    case's gate."""

    def __init__(self, gate):
        super().__init__()
        self.gate = gate

    def __getattribute__(self, name):
        attribute = object.__getattribute__(self, name)
        if name.startswith("_") or name == "gate" or not callable(attribute):
            return attribute
        gate = object.__getattribute__(self, "gate")
        return lambda *args, **kwargs: gate.call(attribute, *args, **kwargs)


# --- Operations ------------------------------------------------------------------------------

def status_reply(status, data=None):
    reply = {"category": category_name(getattr(status, "category", None)),
             "error": bool(status.is_error()) if status is not None else False}
    code = getattr(status, "status_code", None)
    if code:
        reply["statusCode"] = int(code)
    if data is not None:
        reply["data"] = data
    return reply


def result_reply(status, data):
    reply = {"category": None, "error": False, "data": data}
    code = getattr(status, "status_code", None)
    if code:
        reply["statusCode"] = int(code)
    return reply


def builder_call(builder, method, *args):
    """Calls a builder setter when the SDK has it; returns whether it did."""
    setter = getattr(builder, method, None)
    if setter is None:
        return False
    setter(*args)
    return True


class Operations:
    """Builds an SDK call for each protocol operation and turns its result into reply data."""

    def __init__(self, pubnub):
        self.pubnub = pubnub

    LOCAL = ("setToken", "parseToken")

    def local(self, step):
        """The operations answered without a request: set_token and parse_token."""
        if step["type"] == "setToken":
            self.pubnub.set_token(step.get("token") or None)
            return {"category": None, "error": False, "data": {}}
        try:
            parsed = self.pubnub.parse_token(step["token"])
        except Exception as error:  # the SDK raises PubNubException or a base64 error
            return {"category": "PNBadRequestCategory", "error": True,
                    "data": {"information": "%s: %s" % (type(error).__name__, str(error)[:200])}}
        return {"category": None, "error": False, "data": parsed_token_data(parsed)}

    def need(self, name):
        if not hasattr(self.pubnub, name):
            raise Unsupported("%s() is not in this SDK version" % name)
        return getattr(self.pubnub, name)()

    def build(self, step):
        """(builder, convert) for a request/response operation; convert(result, status) → reply."""
        kind = step["type"]
        p = self.pubnub
        if kind == "time":
            return p.time(), lambda r, s: result_reply(s, {"timetoken": timetoken_text(int(r))})
        if kind in ("publish", "fire"):
            builder = (p.publish() if kind == "publish" else self.need("fire")).channel(step["channel"]).message(step["message"])
            if step.get("meta") is not None:
                builder.meta(step["meta"])
            if step.get("storeInHistory") is not None and kind == "publish":
                builder.should_store(bool(step["storeInHistory"]))
            if step.get("usePOST"):
                builder.use_post(True)
            if step.get("customMessageType") is not None and not builder_call(builder, "custom_message_type", step["customMessageType"]):
                raise Unsupported("custom_message_type is not in this SDK version")
            return builder, lambda r, s: status_reply(s, {"timetoken": timetoken_text(r.timetoken)})
        if kind == "signal":
            builder = self.need("signal").channel(step["channel"]).message(step["message"])
            if step.get("customMessageType") is not None and not builder_call(builder, "custom_message_type", step["customMessageType"]):
                raise Unsupported("custom_message_type is not in this SDK version")
            return builder, lambda r, s: status_reply(s, {"timetoken": timetoken_text(r.timetoken)})
        if kind == "hereNow":
            builder = p.here_now().channels(step.get("channels", []))
            if step.get("groups"):
                builder.channel_groups(step["groups"])
            builder.include_uuids(bool(step.get("includeUUIDs", True)))
            builder.include_state(bool(step.get("includeState", False)))
            return builder, lambda r, s: result_reply(s, self.here_now_data(r, step))
        if kind == "whereNow":
            builder = p.where_now()
            if step.get("uuid"):
                builder.uuid(step["uuid"])
            return builder, lambda r, s: result_reply(s, {"channels": list(r.channels)})
        if kind == "setState":
            builder = p.set_state().channels(step.get("channels", [])).state(step.get("state") or {})
            if step.get("groups"):
                builder.channel_groups(step["groups"])
            return builder, lambda r, s: status_reply(s, {"state": getattr(r, "state", None)})
        if kind == "getState":
            builder = p.get_state().channels(step.get("channels", []))
            if step.get("groups"):
                builder.channel_groups(step["groups"])
            if step.get("uuid"):
                builder.uuid(step["uuid"])
            return builder, lambda r, s: result_reply(s, {"channels": dict(r.channels or {})})
        if kind == "history":
            builder = p.history().channel(step["channel"])
            for name, setter in (("start", "start"), ("end", "end")):
                if step.get(name) is not None:
                    getattr(builder, setter)(int(step[name]))
            if step.get("count") is not None:
                builder.count(int(step["count"]))
            builder.reverse(bool(step.get("reverse", False)))
            builder.include_timetoken(bool(step.get("includeTimetoken", True)))
            return builder, self.history_reply
        if kind == "fetchMessages":
            builder = self.need("fetch_messages").channels(step["channels"])
            if step.get("start") is not None:
                builder.start(int(step["start"]))
            if step.get("end") is not None:
                builder.end(int(step["end"]))
            if step.get("max") is not None:
                builder.maximum_per_channel(int(step["max"]))
            if step.get("includeCustomMessageType") and not builder_call(builder, "include_custom_message_type", True):
                raise Unsupported("fetch_messages().include_custom_message_type() is not in this SDK version")
            if step.get("includeMessageActions") and not builder_call(builder, "include_message_actions", True):
                raise Unsupported("fetch_messages().include_message_actions() is not in this SDK version")
            if getattr(self.pubnub.config, "cipher_key", None) or getattr(self.pubnub.config, "crypto_module", None):
                builder_call(builder, "decrypt_messages", True)  # 10.x decrypts fetched messages only when asked
            return builder, self.fetch_reply
        if kind == "messageCounts":
            builder = self.need("message_counts").channel(step["channels"])
            builder.channel_timetokens([int(t) for t in step["timetokens"]])
            return builder, lambda r, s: result_reply(s, {"channels": dict(r.channels)})
        if kind == "deleteMessages":
            builder = self.need("delete_messages").channel(step["channel"])
            if step.get("start") is not None:
                builder.start(int(step["start"]))
            if step.get("end") is not None:
                builder.end(int(step["end"]))
            return builder, lambda r, s: status_reply(s, {})
        if kind == "addChannelsToGroup":
            builder = p.add_channel_to_channel_group().channels(step["channels"]).channel_group(step["group"])
            return builder, lambda r, s: status_reply(s, {})
        if kind == "removeChannelsFromGroup":
            builder = p.remove_channel_from_channel_group().channels(step["channels"]).channel_group(step["group"])
            return builder, lambda r, s: status_reply(s, {})
        if kind == "listChannelsInGroup":
            builder = p.list_channels_in_channel_group().channel_group(step["group"])
            return builder, lambda r, s: result_reply(s, {"channels": list(r.channels)})
        if kind == "deleteGroup":
            builder = p.remove_channel_group().channel_group(step["group"])
            return builder, lambda r, s: status_reply(s, {})
        if kind == "grantToken":
            from pubnub.models.consumer.v3.channel import Channel
            from pubnub.models.consumer.v3.group import Group
            from pubnub.models.consumer.v3.uuid import UUID
            if not getattr(p.config, "secret_key", None):
                raise Unsupported("grantToken needs secretKey in configure")
            builder = p.grant_token().ttl(int(step["ttl"]))
            builder.channels(token_resources(Channel, step.get("channels"), False)
                             + token_resources(Channel, step.get("channelPatterns"), True))
            builder.groups(token_resources(Group, step.get("groups"), False)
                           + token_resources(Group, step.get("groupPatterns"), True))
            builder.uuids(token_resources(UUID, step.get("uuids"), False)
                          + token_resources(UUID, step.get("uuidPatterns"), True))
            if step.get("authorizedUUID"):
                builder.authorized_uuid(step["authorizedUUID"])
            if step.get("meta"):
                builder.meta(step["meta"])
            return builder, lambda r, s: result_reply(s, {"token": r.token})
        if kind == "revokeToken":
            if not getattr(p.config, "secret_key", None):
                raise Unsupported("revokeToken needs secretKey in configure")
            return p.revoke_token(step["token"]), lambda r, s: status_reply(s, {})
        if kind in FILE_OPERATIONS:
            return self.build_file(step)
        if kind == "grant":
            if not getattr(p.config, "secret_key", None):
                raise Unsupported("grant needs secretKey in configure")
            builder = p.grant().channels(step.get("channels", [])).channel_groups(step.get("groups", []))
            if step.get("authKeys"):
                builder.auth_keys(step["authKeys"])
            builder.read(bool(step.get("read"))).write(bool(step.get("write"))).manage(bool(step.get("manage")))
            if step.get("ttl") is not None:
                builder.ttl(int(step["ttl"]))
            return builder, lambda r, s: status_reply(s, {})
        if kind in APP_CONTEXT_OPERATIONS:
            return build_app_context(p, step)
        if kind in PUSH_OPERATIONS:
            return self.push(kind, step)
        if kind in MESSAGE_ACTION_OPERATIONS:
            return self.message_actions(kind, step)
        raise Unsupported(kind)

    def build_file(self, step):
        """File sharing (docs/driver-protocol.md): send, publish a file message, list, URL, download, delete."""
        kind, p = step["type"], self.pubnub
        if kind == "sendFile":
            unit = step["content"].encode("utf-8")
            size = step.get("sizeBytes")
            data = unit if size is None or not unit else (unit * (size // len(unit) + 1))[:size]
            builder = self.need("send_file").channel(step["channel"]).file_name(step["name"]).file_object(data)
            if step.get("message") is not None:
                builder.message(step["message"])
            if step.get("customMessageType") is not None and not builder_call(builder, "custom_message_type", step["customMessageType"]):
                raise Unsupported("send_file().custom_message_type() is not in this SDK version")
            return builder, lambda r, s: status_reply(s, {"id": r.file_id, "name": r.name, "timetoken": timetoken_text(r.timestamp)})
        if kind == "publishFileMessage":
            builder = p.publish_file_message().channel(step["channel"]).file_id(step["fileID"]).file_name(step["fileName"])
            if step.get("message") is not None:
                builder.message(step["message"])
            if step.get("customMessageType") is not None and not builder_call(builder, "custom_message_type", step["customMessageType"]):
                raise Unsupported("publish_file_message().custom_message_type() is not in this SDK version")
            return builder, lambda r, s: status_reply(s, {"timetoken": timetoken_text(r.timestamp)})
        if kind == "listFiles":
            builder = p.list_files().channel(step["channel"])
            if step.get("limit") is not None:
                builder.limit(int(step["limit"]))
            if step.get("next") is not None:
                builder.next(step["next"])

            def listed(r, s):
                files = [{"id": f.get("id"), "name": f.get("name"), "size": f.get("size"), "created": f.get("created")}
                         for f in (r.data or [])]
                return result_reply(s, {"files": files, "next": r.next, "count": r.count})
            return builder, listed
        builder = {"getFileURL": p.get_file_url, "downloadFile": p.download_file, "deleteFile": p.delete_file}[kind]()
        builder.channel(step["channel"]).file_id(step["fileID"]).file_name(step["fileName"])
        if kind == "getFileURL":
            return builder, lambda r, s: result_reply(s, {"url": r.file_url})
        if kind == "downloadFile":
            def downloaded(r, s):
                data = r.data if isinstance(r.data, (bytes, bytearray)) else bytes(r.data or b"")
                return result_reply(s, {"name": step["fileName"], "size": len(data), "content": data.decode("utf-8", "replace")})
            return builder, downloaded
        return builder, lambda r, s: status_reply(s, {})

    def push(self, kind, step):
        """The push registration operations: the SDK's add/remove/list/remove-device builders."""
        from pubnub.enums import PNPushType
        push_type = {"apns": PNPushType.APNS, "apns2": PNPushType.APNS2, "gcm": PNPushType.GCM,
                     "fcm": getattr(PNPushType, "FCM", None)}.get(step.get("pushType"))
        if push_type is None:
            raise Unsupported("push type %s" % step.get("pushType"))
        method = {"addPushChannels": "add_channels_to_push", "removePushChannels": "remove_channels_from_push",
                  "listPushChannels": "list_push_channels", "removePushDevice": "remove_device_from_push"}[kind]
        builder = self.need(method).device_id(step["deviceToken"]).push_type(push_type)
        if step.get("channels") is not None:
            builder.channels(step["channels"])
        if step.get("topic") is not None:
            builder.topic(step["topic"])
        if step.get("environment") is not None:
            builder.environment(step["environment"])
        if kind == "listPushChannels":
            return builder, lambda r, s: result_reply(s, {"channels": list(r.channels or [])})
        return builder, lambda r, s: status_reply(s, {})

    def message_actions(self, kind, step):
        """Message actions (docs/driver-protocol.md): add, get with start/end/limit, remove."""
        if kind == "addMessageAction":
            from pubnub.models.consumer.message_actions import PNMessageAction
            action = PNMessageAction()
            action.type, action.value = step["action"]["type"], step["action"]["value"]
            action.message_timetoken = str(step["messageTimetoken"])
            builder = self.need("add_message_action").channel(step["channel"]).message_action(action)
            return builder, lambda r, s: status_reply(s, message_action_data(r))
        if kind == "getMessageActions":
            builder = self.need("get_message_actions").channel(step["channel"])
            # The builder's setters take strings (they assert it); it sends `end` only without `start`.
            for name in ("start", "end", "limit"):
                if step.get(name) is not None:
                    getattr(builder, name)(str(step[name]))

            def listed(r, s):
                data = {"actions": [message_action_data(a) for a in (r.actions or [])]}
                # The result keeps the service's answer (`_result`) but offers no accessor for its
                # `more` (pubnub/models/consumer/message_actions.py, PNGetMessageActionsResult): read there.
                more = (getattr(r, "_result", None) or {}).get("more")
                if more:
                    data["more"] = {key: (str(more[key]) if key in ("start", "end") else more[key])
                                    for key in ("start", "end", "limit", "url") if more.get(key) is not None}
                return result_reply(s, data)
            return builder, listed
        builder = self.need("remove_message_action").channel(step["channel"])
        builder.message_timetoken(int(step["messageTimetoken"])).action_timetoken(int(step["actionTimetoken"]))
        return builder, lambda r, s: status_reply(s, {})

    @staticmethod
    def here_now_data(result, step):
        channels = {}
        for data in result.channels or []:
            occupants = []
            for occupant in data.occupants or []:
                entry = {"uuid": occupant.uuid}
                if step.get("includeState") and occupant.state is not None:
                    entry["state"] = occupant.state
                occupants.append(entry)
            channels[data.channel_name] = {"occupancy": data.occupancy, "uuids": occupants}
        return {"totalOccupancy": result.total_occupancy, "channels": channels}

    @staticmethod
    def history_reply(result, status):
        messages, failed = [], False
        for item in result.messages:
            entry = {"message": item.entry}
            if getattr(item, "timetoken", None) is not None:
                entry["timetoken"] = timetoken_text(item.timetoken)
            if getattr(item, "error", None) is not None:
                failed = True
            messages.append(entry)
        reply = result_reply(status, {"messages": messages, "start": timetoken_text(result.start_timetoken),
                                      "end": timetoken_text(result.end_timetoken)})
        if failed:
            reply["category"] = "PNDecryptionErrorCategory"
        return reply

    @staticmethod
    def fetch_reply(result, status):
        def fetched_entry(item):
            entry = {"message": item.message, "timetoken": timetoken_text(item.timetoken)}
            if getattr(item, "custom_message_type", None):
                entry["customMessageType"] = item.custom_message_type
            if getattr(item, "actions", None):
                entry["actions"] = item.actions  # the service's type → value → [{uuid, actionTimetoken}]
            return entry

        channels, failed = {}, False
        for name, items in (result.channels or {}).items():
            channels[name] = [fetched_entry(item) for item in items]
            failed = failed or any(getattr(item, "error", None) is not None for item in items)
        reply = result_reply(status, {"channels": channels})
        if failed:
            reply["category"] = "PNDecryptionErrorCategory"
        return reply

    # Subscription changes: answered once the SDK has taken them.
    def subscribe(self, step):
        builder = self.pubnub.subscribe().channels(step.get("channels", []))
        if step.get("groups"):
            builder.channel_groups(step["groups"])
        if step.get("withPresence"):
            builder.with_presence()
        if step.get("timetoken"):
            builder.with_timetoken(int(step["timetoken"]))
        builder.execute()
        return {"category": None, "error": False, "data": {}}

    def unsubscribe(self, step):
        builder = self.pubnub.unsubscribe().channels(step.get("channels", []))
        if step.get("groups"):
            builder.channel_groups(step["groups"])
        builder.execute()
        return {"category": None, "error": False, "data": {}}

    def unsubscribeAll(self, step):
        self.pubnub.unsubscribe_all()
        return {"category": None, "error": False, "data": {}}

    def reconnect(self, step):
        if step.get("timetoken"):
            raise Unsupported("reconnect() takes no timetoken in this SDK (pubnub_core.py reconnect)")
        self.pubnub.reconnect()
        return {"category": None, "error": False, "data": {}}

    def disconnect(self, step):
        raise Unsupported("PubNubCore has no disconnect() (pubnub_core.py: reconnect only)")


# --- App Context ---------------------------------------------------------------------------

APP_CONTEXT_OPERATIONS = (
    "getUUIDMetadata", "setUUIDMetadata", "removeUUIDMetadata", "getAllUUIDMetadata",
    "getChannelMetadata", "setChannelMetadata", "removeChannelMetadata", "getAllChannelMetadata",
    "getMemberships", "setMemberships", "removeMemberships", "manageMemberships",
    "getMembers", "setMembers", "removeMembers", "manageMembers",
)


def app_context_object(result, status):
    return result_reply(status, {"data": getattr(result, "data", None)})


def app_context_list(result, status):
    data = {"data": list(getattr(result, "data", None) or [])}
    if getattr(result, "total_count", None) is not None:
        data["totalCount"] = result.total_count
    for key in ("next", "prev"):
        page = getattr(result, key, None)
        if page is not None:
            data[key] = page.hash
    return result_reply(status, data)


def sort_keys(names):
    """`field[:asc|desc]` → the SDK's PNSortKey (it knows id, name and updated only)."""
    from pubnub.models.consumer.objects_v2.sort import PNSortKey, PNSortKeyValue
    keys = []
    for name in names or []:
        field, _, direction = name.partition(":")
        value = {"id": PNSortKeyValue.ID, "name": PNSortKeyValue.NAME, "updated": PNSortKeyValue.UPDATED}.get(field)
        if value is None:
            raise Unsupported("sort key %s (the SDK sorts by id, name and updated only)" % field)
        keys.append(PNSortKey.desc(value) if direction == "desc" else PNSortKey.asc(value))
    return keys


def list_options(builder, step, includes=None):
    """limit, filter, count, sort, page cursor; `includes` (a PNIncludes) for memberships/members."""
    from pubnub.models.consumer.objects_v2.page import Next, Previous
    if step.get("limit") is not None:
        builder.limit(int(step["limit"]))
    if step.get("filter") is not None:
        builder.filter(step["filter"])
    if step.get("includeCount"):
        builder.include_total_count(True)
    if step.get("sort"):
        builder.sort(*sort_keys(step["sort"]))
    if step.get("start"):
        builder.page(Next(step["start"]))
    elif step.get("end"):
        builder.page(Previous(step["end"]))
    if includes is not None:
        builder.include(includes)
    return builder


def object_includes(builder, include):
    builder.include_custom("custom" in include)
    builder.include_status("status" in include)
    builder.include_type("type" in include)
    return builder


def membership_includes(include, prefix):
    """The `include` tokens as the SDK's MembershipIncludes / MemberIncludes."""
    from pubnub.models.consumer.objects_v2.common import MembershipIncludes, MemberIncludes
    flags = dict(custom="custom" in include, status="status" in include, type="type" in include)
    if prefix == "channel":
        return MembershipIncludes(channel=any(t.startswith("channel") for t in include),
                                  channel_custom="channel.custom" in include, channel_type="channel.type" in include,
                                  channel_status="channel.status" in include, **flags)
    return MemberIncludes(user=any(t.startswith("uuid") for t in include), user_custom="uuid.custom" in include,
                          user_type="uuid.type" in include, user_status="uuid.status" in include, **flags)


def build_app_context(p, step):
    from pubnub.models.consumer.objects_v2.memberships import PNChannelMembership
    from pubnub.models.consumer.objects_v2.channel_members import PNUserMember
    kind = step["type"]
    include = step.get("include") or []
    metadata = step.get("metadata") or {}
    if kind in ("getUUIDMetadata", "setUUIDMetadata", "removeUUIDMetadata"):
        builder = {"getUUIDMetadata": p.get_uuid_metadata, "setUUIDMetadata": p.set_uuid_metadata,
                   "removeUUIDMetadata": p.remove_uuid_metadata}[kind]()
        if step.get("uuid"):
            builder.uuid(step["uuid"])
        if kind == "removeUUIDMetadata":
            return builder, lambda r, s: status_reply(s, {})
        object_includes(builder, include)
        if kind == "setUUIDMetadata":
            for field, setter in (("name", "set_name"), ("email", "email"), ("externalId", "external_id"),
                                  ("profileUrl", "profile_url"), ("status", "set_status"), ("type", "set_type")):
                if field in metadata:
                    getattr(builder, setter)(metadata[field])
            if "custom" in metadata:
                builder.custom(metadata["custom"])
                builder.include_custom("custom" in include)
            if step.get("ifMatchesETag"):
                builder.if_matches_etag(step["ifMatchesETag"])
        return builder, app_context_object
    if kind in ("getChannelMetadata", "setChannelMetadata", "removeChannelMetadata"):
        builder = {"getChannelMetadata": p.get_channel_metadata, "setChannelMetadata": p.set_channel_metadata,
                   "removeChannelMetadata": p.remove_channel_metadata}[kind]().channel(step["channel"])
        if kind == "removeChannelMetadata":
            return builder, lambda r, s: status_reply(s, {})
        object_includes(builder, include)
        if kind == "setChannelMetadata":
            for field, setter in (("name", "set_name"), ("description", "description"), ("status", "set_status"),
                                  ("type", "set_type")):
                if field in metadata:
                    getattr(builder, setter)(metadata[field])
            if "custom" in metadata:
                builder.custom(metadata["custom"])
                builder.include_custom("custom" in include)
            if step.get("ifMatchesETag"):
                builder.if_matches_etag(step["ifMatchesETag"])
        return builder, app_context_object
    if kind in ("getAllUUIDMetadata", "getAllChannelMetadata"):
        builder = (p.get_all_uuid_metadata() if kind == "getAllUUIDMetadata" else p.get_all_channel_metadata())
        object_includes(builder, include)
        return list_options(builder, step), app_context_list
    memberships = kind.endswith("Memberships")
    includes = membership_includes(include, "channel" if memberships else "uuid")

    def channel_item(item):
        return PNChannelMembership(item["id"], custom=item.get("custom"), status=item.get("status"), type=item.get("type"))

    def member_item(item):
        return PNUserMember(item["id"], type=item.get("type"), status=item.get("status"), custom=item.get("custom"))

    sets = step.get("set") or []
    removes = step.get("remove") or []
    if memberships:
        if kind == "getMemberships":
            builder = p.get_memberships()
        elif kind == "setMemberships":
            builder = p.set_memberships().channel_memberships([channel_item(i) for i in sets])
        elif kind == "removeMemberships":
            builder = p.remove_memberships().channel_memberships([PNChannelMembership(c) for c in removes])
        else:
            builder = p.manage_memberships().set([channel_item(i) for i in sets]).remove(
                [PNChannelMembership(c) for c in removes])
        if step.get("uuid"):
            builder.uuid(step["uuid"])
    else:
        if kind == "getMembers":
            builder = p.get_channel_members()
        elif kind == "setMembers":
            builder = p.set_channel_members().uuids([member_item(i) for i in sets])
        elif kind == "removeMembers":
            builder = p.remove_channel_members().uuids([PNUserMember(u) for u in removes])
        else:
            builder = p.manage_channel_members().set([member_item(i) for i in sets]).remove(
                [PNUserMember(u) for u in removes])
        builder.channel(step["channel"])
    return list_options(builder, step, includes), app_context_list
FILE_OPERATIONS = ("sendFile", "publishFileMessage", "listFiles", "getFileURL", "downloadFile", "deleteFile")
# send_file and download_file run with sync() in the threaded flavour: their pn_async
# (`async_file_based_operation`, request_handlers/httpx.py l.260-268) calls the callback with one
# argument when the operation raises, so a failure would never complete.
SYNC_ONLY = ("sendFile", "downloadFile")


def exception_reply(error):
    """An SDK exception: its status when it carries one; else the SDK raised without a status."""
    status = getattr(error, "status", None)
    if status is not None and getattr(status, "category", None) is not None:
        reply = status_reply(status, {"detail": str(error)[:300]})
        reply["error"] = True
        return reply
    reply = {"category": "PNInternalExceptionCategory", "error": True,
             "data": {"exception": "%s: %s" % (type(error).__name__, str(error)[:300])}}
    # File operations raise PubNubException without a status but with the HTTP status code.
    code = getattr(error, "_status_code", None)
    if isinstance(code, int) and code > 0:
        reply["statusCode"] = code
    return reply


# --- Sync flavour ------------------------------------------------------------------------------

def reset_process_wide_sdk_state():
    """Undoes what a case leaves in the SDK's class-level state, so that a warm process starts the
    next case as a fresh process would. `ObjectsEndpoint._custom_headers` is a class attribute, one
    dict shared by every App Context request of the process
    (pubnub/endpoints/objects_v2/objects_endpoint.py:22), and `if_matches_etag()` adds `If-Match`
    to it (:43-45): without this, a later case's App Context writes carry an earlier case's eTag
    and get 412. Within one case the SDK's behaviour is left as it is."""
    try:
        from pubnub.endpoints.objects_v2.objects_endpoint import ObjectsEndpoint
    except ImportError:
        return
    headers = getattr(ObjectsEndpoint, "_custom_headers", None)
    if isinstance(headers, dict):
        headers.clear()


class SyncDriver:
    def __init__(self):
        self.pubnub = None
        self.ops = None
        self.gate = None
        # What a closed case must leave behind: the threads of the process before any case.
        self.baseline = set(threading.enumerate())

    def configure(self, fields):
        from pubnub.pubnub import PubNub
        if self.pubnub is not None:
            raise RuntimeError("configure before the previous case's close")
        reset_process_wide_sdk_state()
        pubnub = PubNub(make_configuration(fields))
        self.gate = case_cleanup.CaseGate() if case_cleanup is not None else None
        pubnub.add_listener(GatedListener(self.gate) if self.gate is not None else Listener())
        self.pubnub = pubnub
        # Build the HTTP session (TLS context, connection pool) now, not inside the case's first
        # request: that is process start-up, not the SDK's protocol behaviour.
        handler = getattr(self.pubnub, "_request_handler", None)
        try:
            if hasattr(handler, "_ensure_session"):
                handler._ensure_session()
        except Exception:
            pass
        self.ops = Operations(self.pubnub)

    def perform(self, step):
        if step["type"] in ("subscribe", "unsubscribe", "unsubscribeAll", "reconnect", "disconnect"):
            return getattr(self.ops, step["type"])(step)
        if step["type"] in Operations.LOCAL:
            return self.ops.local(step)
        builder, convert = self.ops.build(step)
        if not hasattr(builder, "pn_async") or step["type"] in SYNC_ONLY:
            try:
                envelope = builder.sync()
            except PubNubException as error:
                return exception_reply(error)
            return convert(envelope.result, envelope.status)
        # The callback form hands over the SDK's own status (category, HTTP status) for
        # failures too; sync() raises an exception that may have lost it.
        done = threading.Event()
        outcome = {}

        def callback(result, status):
            outcome["result"], outcome["status"] = result, status
            done.set()

        builder.pn_async(callback)
        if not done.wait(120):
            raise RuntimeError("the SDK never completed %s" % step["type"])
        status = outcome["status"]
        if status is not None and status.is_error():
            if getattr(status, "category", None) is None:
                return exception_reply(getattr(getattr(status, "error_data", None), "exception", None) or Exception("error"))
            reply = status_reply(status, {"detail": str(getattr(getattr(status, "error_data", None), "information", ""))[:300]})
            reply["error"] = True
            return reply
        if outcome["result"] is None and status is None:
            return exception_reply(Exception("no result and no status"))
        return convert(outcome["result"], status)

    def close(self):
        if self.pubnub is not None:
            threading.Thread(target=self.pubnub.stop, daemon=True).start()

    def close_for_reuse(self):
        """Ends the case so that the process can serve another: None when nothing of it is left
        (no listener call, thread, timer or socket), else why not."""
        gate, pubnub = self.gate, self.pubnub
        self.gate = self.pubnub = self.ops = None
        if gate is not None:
            gate.shut()
        if pubnub is not None:
            # No new long-poll, heartbeat or reconnection from here on: the subscription manager's
            # own stop (it marks the running long-poll cancelled, so its answer starts nothing).
            manager = getattr(pubnub, "_subscription_manager", None)
            if manager is not None:
                try:
                    manager.stop()
                except Exception as error:
                    log("subscription manager stop: %s" % error)
            # Sockets next, until every request thread has ended: a read blocked on a socket that
            # the SDK's stop() closes never wakes up (Linux), a shut-down one ends at once; and a
            # request that opened a new connection after one shutdown gets it shut down too.
            # Only the HTTP handler's own wall-clock watchdog may stay: stop() ends it.
            handler = getattr(pubnub, "_request_handler", None)
            watchdog = getattr(getattr(handler, "_watchdog", None), "_thread", None)
            case_cleanup.quiesce(self.baseline, {watchdog} if watchdog is not None else set(), 2.0)
            stopper = threading.Thread(target=stop_quietly, args=(pubnub,), daemon=True)
            stopper.start()
            stopper.join(2.0)
        del pubnub
        return case_cleanup.settle(self.baseline, 3.0)

    def run(self):
        if case_cleanup is not None and IMPORT_ERROR is None:
            # What every case imports, imported once and then kept out of the collector's scans:
            # the garbage collection that ends a case looks at the case's own objects only.
            try:
                import pubnub.pubnub  # noqa: F401 (the sync client and its endpoints)
                import httpx  # noqa: F401
            except ImportError:
                pass
            case_cleanup.freeze_process_objects()
        for raw in sys.stdin:
            raw = raw.strip()
            if not raw:
                continue
            step = json.loads(raw)
            kind = step.get("type")
            if kind == "close":
                if step.get("reuse") and case_cleanup is not None:
                    problem = self.close_for_reuse()
                    data = {"reusable": problem is None}
                    if problem is not None:
                        data["detail"] = problem
                        log("not reusable: " + problem)
                    emit({"id": step.get("id"), "type": "result", "data": data})
                    if problem is None:
                        continue
                    return
                self.close()
                emit({"id": step.get("id"), "type": "result"})
                return
            if kind in ("hello", "configure"):
                handle(self, step)
                continue
            if self.pubnub is None:
                # A late operation of a closed case (the runner refuses them; never reaches an SDK object).
                emit({"id": step.get("id"), "type": "error", "detail": "no case is configured"})
                continue
            # Operations may block (timeouts, hangs): each runs on its own thread so `close`
            # is always answered at once.
            threading.Thread(target=handle, args=(self, step, self.gate), daemon=True).start()


def stop_quietly(pubnub):
    try:
        pubnub.stop()
    except Exception as error:  # e.g. no subscription manager in this configuration
        log("stop: %s" % error)


def handle(driver, step, gate=None):
    """Answers one request; with a case's `gate`, the reply is dropped once that case is closed."""
    ident = step.get("id")
    guarded = gate.call if gate is not None else (lambda function, *args: function(*args))
    try:
        if answer_control(driver, step, driver.flavour):
            return
        guarded(emit_operation_reply, ident, driver.perform(step))
    except Exception as error:
        guarded(emit_operation_error, ident, error)


def answer_control(driver, step, flavour):
    """Answers `hello` and `configure` (both flavours alike); False for an operation."""
    ident, kind = step.get("id"), step.get("type")
    if kind == "hello":
        emit(hello_reply(ident, flavour))
        return True
    if kind != "configure":
        return False
    if IMPORT_ERROR is not None:
        emit({"id": ident, "type": "error", "detail": "pubnub is not installed: " + IMPORT_ERROR})
        return True
    driver.configure(step)
    emit({"id": ident, "type": "result"})
    return True


def emit_operation_reply(ident, reply):
    reply.update({"id": ident, "type": "result"})
    if reply.get("category") is None:
        reply.pop("category", None)
    emit(reply)


def emit_operation_error(ident, error):
    if isinstance(error, Unsupported):
        emit({"id": ident, "type": "unsupported", "detail": str(error)})
        return
    # A bug in this driver or an SDK crash: the case fails with why.
    log(traceback.format_exc())
    emit({"id": ident, "type": "result", "category": "PNInternalExceptionCategory", "error": True,
          "data": {"exception": "%s: %s" % (type(error).__name__, str(error)[:300])}})


def hello_reply(ident, flavour):
    return {"id": ident, "type": "result",
            "data": {"protocol": PROTOCOL_VERSION, "client": "pubnub-python", "version": sdk_version(), "flavour": flavour,
                     # Starting Python and importing the SDK takes a few hundred ms of CPU per
                     # case: on a busy machine `configure` may need more than the default 5 s.
                     "controlTimeoutMs": 15000,
                     "capabilities": capabilities(flavour), "profile": profile(flavour),
                     # One process serves many cases (its close can prove the case gone). Offered
                     # for 10.x, the major compared case by case with one process per case
                     # (docs/performance.md); older majors keep one process per case.
                     "reuse": case_cleanup is not None and sdk_major() >= 10,
                     "operations": sorted(OPERATIONS)}}


OPERATIONS = {"time", "publish", "fire", "signal", "subscribe", "unsubscribe", "unsubscribeAll", "hereNow",
              "whereNow", "setState", "getState", "history", "fetchMessages", "messageCounts",
              "deleteMessages", "addChannelsToGroup", "removeChannelsFromGroup", "listChannelsInGroup",
              "deleteGroup", "grant", "grantToken", "revokeToken", "setToken", "parseToken", "reconnect", "disconnect"} \
    | {"addPushChannels", "removePushChannels", "listPushChannels", "removePushDevice"} \
    | {"addMessageAction", "getMessageActions", "removeMessageAction"}

PUSH_OPERATIONS = {"addPushChannels", "removePushChannels", "listPushChannels", "removePushDevice"}

MESSAGE_ACTION_OPERATIONS = {"addMessageAction", "getMessageActions", "removeMessageAction"}


def message_action_data(action):
    """An SDK message action (`PNMessageAction` and its subclasses) as the driver protocol shows it."""
    data = {"type": action.type, "value": action.value, "uuid": action.uuid}
    for key, attribute in (("messageTimetoken", "message_timetoken"), ("actionTimetoken", "action_timetoken")):
        value = getattr(action, attribute, None)
        if value is not None:
            data[key] = str(value)
    return data


# --- Asyncio flavour ---------------------------------------------------------------------------

class AsyncioDriver:
    def __init__(self, loop):
        self.loop = loop
        self.pubnub = None
        self.ops = None
        self.gate = None
        self.executor = None
        # What a closed case must leave behind: the threads before any case (main, stdin reader),
        # and the loop's own wake-up sockets.
        self.baseline = set(threading.enumerate())
        if case_cleanup is not None:
            case_cleanup.keep_current_sockets()

    def configure(self, fields):
        # The configuration first: it points SSL_CERT_FILE at the harness CA, and aiohttp (the
        # 4.x-9.x asyncio transport) builds its default TLS context when it is first imported.
        if self.pubnub is not None:
            raise RuntimeError("configure before the previous case's close")
        reset_process_wide_sdk_state()
        config = make_configuration(fields)
        from pubnub.pubnub_asyncio import PubNubAsyncio
        if case_cleanup is not None:
            # The case's own default executor (name resolution runs there), ended with the case.
            from concurrent.futures import ThreadPoolExecutor
            self.executor = ThreadPoolExecutor()
            self.loop.set_default_executor(self.executor)
        try:
            self.pubnub = PubNubAsyncio(config, custom_event_loop=self.loop)
        except TypeError:
            self.pubnub = PubNubAsyncio(config)
        self.gate = case_cleanup.CaseGate() if case_cleanup is not None else None
        self.pubnub.add_listener(GatedListener(self.gate) if self.gate is not None else Listener())
        self.ops = Operations(self.pubnub)

    async def close_for_reuse(self):
        """Ends the case so that the process can serve another: None when nothing of it is left
        (no listener call, task, thread or socket), else why not."""
        import asyncio
        gate, pubnub, executor = self.gate, self.pubnub, self.executor
        self.gate = self.pubnub = self.ops = self.executor = None
        if gate is not None:
            gate.shut()
        case_cleanup.shut_down_sockets()
        if pubnub is not None:
            try:
                await asyncio.wait_for(pubnub.stop(), 2.0)
            except Exception as error:
                log("stop: %s" % error)
        current = asyncio.current_task()
        others = [task for task in asyncio.all_tasks(self.loop) if task is not current]
        for task in others:
            task.cancel()
        if others:
            await asyncio.wait(others, timeout=2.0)
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        del pubnub, others  # the SDK object's connections close with it
        return await case_cleanup.settle_async(self.baseline, 3.0)

    async def perform(self, step):
        if step["type"] in ("subscribe", "unsubscribe", "unsubscribeAll", "reconnect", "disconnect"):
            return getattr(self.ops, step["type"])(step)
        if step["type"] in Operations.LOCAL:
            return self.ops.local(step)
        builder, convert = self.ops.build(step)
        try:
            envelope = await builder.future()
        except PubNubException as error:
            return exception_reply(error)
        if envelope.is_error():
            status = envelope.status
            value = getattr(envelope, "value", None)
            value = value() if callable(value) else value
            if status is None or getattr(status, "category", None) is None:
                return exception_reply(value or Exception("error without status"))
            reply = status_reply(status, {"detail": str(value)[:300]})
            reply["error"] = True
            return reply
        return convert(envelope.result, envelope.status)

    async def handle(self, step, gate=None):
        """Answers one request; with a case's `gate`, the reply is dropped once that case is closed."""
        ident = step.get("id")
        guarded = gate.call if gate is not None else (lambda function, *args: function(*args))
        try:
            if answer_control(self, step, "asyncio"):
                return
            guarded(emit_operation_reply, ident, await self.perform(step))
        except Exception as error:
            guarded(emit_operation_error, ident, error)

    async def run(self, lines):
        import asyncio
        tasks = set()
        while True:
            raw = await lines.get()
            if raw is None:
                return
            raw = raw.strip()
            if not raw:
                continue
            step = json.loads(raw)
            if step.get("type") == "close":
                if step.get("reuse") and case_cleanup is not None:
                    problem = await self.close_for_reuse()
                    data = {"reusable": problem is None}
                    if problem is not None:
                        data["detail"] = problem
                        log("not reusable: " + problem)
                    emit({"id": step.get("id"), "type": "result", "data": data})
                    if problem is None:
                        continue
                    return
                emit({"id": step.get("id"), "type": "result"})
                if self.pubnub is not None:
                    try:
                        await asyncio.wait_for(self.pubnub.stop(), 1.0)
                    except Exception:
                        pass
                return
            if step.get("type") not in ("hello", "configure") and self.pubnub is None:
                # A late operation of a closed case (the runner refuses them; never reaches an SDK object).
                emit({"id": step.get("id"), "type": "error", "detail": "no case is configured"})
                continue
            task = self.loop.create_task(self.handle(step, self.gate))
            tasks.add(task)
            task.add_done_callback(tasks.discard)


def run_asyncio():
    import asyncio
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    lines = asyncio.Queue()

    def reader():
        for raw in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, raw)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=reader, daemon=True).start()
    driver = AsyncioDriver(loop)
    loop.run_until_complete(driver.run(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flavour", choices=["sync", "asyncio"], default="sync")
    args = parser.parse_args()
    if args.flavour == "asyncio":
        run_asyncio()
    else:
        driver = SyncDriver()
        driver.flavour = "sync"
        driver.run()
    PROTOCOL.flush()
    os._exit(0)  # SDK threads (timers, workers) must not keep the process alive


if __name__ == "__main__":
    main()
