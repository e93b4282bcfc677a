#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Checks the pusher-js driver (Drivers/pusher-js) without pusher-js, and with it when given:
#   1. both hosts without a bundle (or with a missing one) print one line and exit 3;
#   2. both hosts with the mini client (Drivers/pusher-js/mini-client.js) answer `hello`
#      ("protocol":"pusher") and `configure` as the protocol says;
#   3. the mini client through both hosts on the basic Pusher suites (connection, channels, auth,
#      presence, client-events), `run --family pusher`;
#   4. when PUSHER_JS_SDK names pusher-js's Node bundle (dist/node/pusher.js), the whole Pusher
#      catalog through the Node host; when PUSHER_JS_WEB_SDK names a web bundle
#      (dist/web/pusher-with-encryption.js or pusher.js), through the Chromium host; each with
#      Fixtures/expectations/pusher-js-<version>-<host>.json when that file exists;
#   5. Drivers/pusher-js/contract-check.mjs (sign-in, user events, watchlist, encrypted channels,
#      cache misses against a scripted server) with the mini client (only what it declares) and
#      with each pusher-js bundle given.
#
#   scripts/check-pusher-js-driver.sh [--bin PATH] [--no-browser]
#
# --bin defaults to $(swift build --show-bin-path)/pubnub-harness. Exit 0 when every check passed;
# else non-zero with a one-line reason.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=""
BROWSER=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BIN="$2"; shift 2 ;;
        --no-browser) BROWSER=0; shift ;;
        -h|--help) sed -n 3,21p "$0"; exit 0 ;;
        *) echo "check-pusher-js-driver: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$BIN" ]; then
    BIN="$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null)/pubnub-harness"
fi
[ -x "$BIN" ] || { echo "check-pusher-js-driver: no harness binary at $BIN (build it or pass --bin)"; exit 2; }
command -v node >/dev/null 2>&1 || { echo "check-pusher-js-driver: node is not installed"; exit 2; }
if [ "$BROWSER" = 1 ]; then
    command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 || { echo "check-pusher-js-driver: chromium is not installed (or pass --no-browser)"; exit 2; }
fi

NODE_HOST="node Drivers/pusher-js/node-host.mjs"
BROWSER_HOST="node Drivers/pusher-js/browser-host.mjs"
MINI="$ROOT/Drivers/pusher-js/mini-client.js"
OUT=$(mktemp -d /tmp/check-pusher-js-driver.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
fail() { echo "check-pusher-js-driver: $*"; exit 1; }

# 1. no bundle: one line on stderr, exit 3
no_bundle() { # label, command
    (cd "$ROOT" && env -u PUSHER_JS_SDK sh -c "$2" </dev/null >"$OUT/stdout" 2>"$OUT/stderr")
    status=$?
    [ "$status" = 3 ] || fail "$1: exit status $status, not 3"
    [ "$(wc -l <"$OUT/stderr")" = 1 ] || fail "$1: not one line on stderr: $(head -c 300 "$OUT/stderr")"
    [ ! -s "$OUT/stdout" ] || fail "$1: wrote to stdout"
    echo "check-pusher-js-driver: $1: exit 3, $(cat "$OUT/stderr")"
}
no_bundle "node host, no bundle" "$NODE_HOST"
no_bundle "node host, missing bundle" "$NODE_HOST --sdk /nonexistent/pusher.js"
if [ "$BROWSER" = 1 ]; then
    no_bundle "browser host, no bundle" "$BROWSER_HOST"
    no_bundle "browser host, missing bundle" "$BROWSER_HOST --sdk /nonexistent/pusher.js"
fi

# 2. hello and configure, straight JSON lines
handshake() { # label, command
    CONFIGURE='{"id":2,"type":"configure","host":"127.0.0.1","port":9,"appKey":"k","appSecret":"s","authEndpoint":"http://127.0.0.1:9/__admin/pusher/auth/k/ann","userAuthEndpoint":"http://127.0.0.1:9/__admin/pusher/user-auth/k/ann","userID":"ann","userInfo":{"name":"ann"},"reconnectDelayMs":1000,"protocolVersion":7}'
    (cd "$ROOT" && { printf '%s\n%s\n' '{"id":1,"type":"hello"}' "$CONFIGURE"; sleep 25; } \
        | timeout 30 sh -c "$2" >"$OUT/lines" 2>"$OUT/stderr") &
    pid=$!
    for _ in $(seq 1 250); do
        [ "$(grep -c '"id":2' "$OUT/lines" 2>/dev/null)" -ge 1 ] && break
        sleep 0.1
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    grep -q '"id":1,"type":"result".*"protocol":"pusher"' "$OUT/lines" || fail "$1: no hello result with protocol pusher: $(head -c 300 "$OUT/lines") $(tail -3 "$OUT/stderr")"
    grep -q '"id":2,"type":"result"' "$OUT/lines" || fail "$1: configure not answered with a result: $(tail -c 300 "$OUT/lines") $(tail -3 "$OUT/stderr")"
    echo "check-pusher-js-driver: $1: hello and configure answered"
}
handshake "node host, mini client" "$NODE_HOST --sdk $MINI"
[ "$BROWSER" = 1 ] && handshake "browser host, mini client" "$BROWSER_HOST --sdk $MINI"

# 3./4. runs
run() { # name, command, extra args...
    name="$1"; command="$2"; shift 2
    if ! (cd "$ROOT" && timeout 900 "$BIN" run --family pusher --client-command "$command" --client-name "$name" \
            --json "$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1); then
        reason=$(grep -m1 -E 'FAIL|error|Error' "$OUT/$name.log" | cut -c1-200)
        echo "check-pusher-js-driver: $name failed: ${reason:-see the run's output}"
        tail -20 "$OUT/$name.log" >&2
        exit 1
    fi
    echo "check-pusher-js-driver: $name: $(grep -E '^[0-9]+ cases:' "$OUT/$name.log")"
}
BASIC="--suite pusher.connection --suite pusher.channels --suite pusher.auth --suite pusher.presence --suite pusher.client-events"
run pusher-mini-node "$NODE_HOST --sdk $MINI" $BASIC
# Two cases at a time: each warm host runs a Chromium of its own (see check-js-driver.sh).
[ "$BROWSER" = 1 ] && run pusher-mini-chromium "$BROWSER_HOST --sdk $MINI" $BASIC --jobs 2

version_of() { # bundle
    sed -n '1,10s/.*Pusher JavaScript Library v\([0-9][0-9.]*\).*/\1/p' "$1" | head -1
}
with_expectations() { # version, host
    file="Fixtures/expectations/pusher-js-$1-$2.json"
    [ -f "$ROOT/$file" ] && echo "--expectations $file"
}
contract() { # label, command: the newer features against contract-check.mjs's scripted server
    if ! (cd "$ROOT" && timeout 120 node Drivers/pusher-js/contract-check.mjs -- $2 >"$OUT/contract.log" 2>"$OUT/contract.err"); then
        cat "$OUT/contract.log"
        fail "$1: the contract check failed"
    fi
    echo "check-pusher-js-driver: $1: $(tail -1 "$OUT/contract.log" | sed 's/^contract-check: //')"
}
contract "contract check, node host, mini client" "$NODE_HOST --sdk $MINI"
if [ -n "${PUSHER_JS_SDK:-}" ]; then
    [ -f "$PUSHER_JS_SDK" ] || fail "PUSHER_JS_SDK=$PUSHER_JS_SDK: no such file"
    VERSION=$(version_of "$PUSHER_JS_SDK")
    run "pusher-js-$VERSION-node" "$NODE_HOST --sdk $PUSHER_JS_SDK" $(with_expectations "$VERSION" node)
    contract "contract check, pusher-js $VERSION, node host" "$NODE_HOST --sdk $PUSHER_JS_SDK"
fi
if [ "$BROWSER" = 1 ] && [ -n "${PUSHER_JS_WEB_SDK:-}" ]; then
    [ -f "$PUSHER_JS_WEB_SDK" ] || fail "PUSHER_JS_WEB_SDK=$PUSHER_JS_WEB_SDK: no such file"
    VERSION=$(version_of "$PUSHER_JS_WEB_SDK")
    run "pusher-js-$VERSION-chromium" "$BROWSER_HOST --sdk $PUSHER_JS_WEB_SDK" $(with_expectations "$VERSION" chromium) --jobs 2
    contract "contract check, pusher-js $VERSION, chromium host" "$BROWSER_HOST --sdk $PUSHER_JS_WEB_SDK"
fi
echo "check-pusher-js-driver: ok"
