#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Checks the JavaScript driver (Drivers/javascript) end to end:
#   1. the mini client (Drivers/javascript/mini-client.js) through the Node host and through the
#      browser host (headless Chromium), on the suites it passes fully;
#   2. when PUBNUB_JS_SDK points at the official SDK (a bundle such as dist/web/pubnub.js, or a
#      package folder), the whole catalog through the Node host with the SDK's expectation file
#      (Fixtures/expectations/javascript-sdk-<version>-node.json), and, unless --no-browser, through
#      the browser host (a bundle only) with Fixtures/expectations/javascript-sdk-<version>-chromium.json.
#
#   scripts/check-js-driver.sh [--bin PATH] [--no-browser]
#
# --bin defaults to $(swift build --show-bin-path)/pubnub-harness. Exit 0 when every run passed
# (failures only where the expectation file lists them); else non-zero with a one-line reason.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=""
BROWSER=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BIN="$2"; shift 2 ;;
        --no-browser) BROWSER=0; shift ;;
        -h|--help) sed -n 3,15p "$0"; exit 0 ;;
        *) echo "check-js-driver: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$BIN" ]; then
    BIN="$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null)/pubnub-harness"
fi
[ -x "$BIN" ] || { echo "check-js-driver: no harness binary at $BIN (build it or pass --bin)"; exit 2; }
command -v node >/dev/null 2>&1 || { echo "check-js-driver: node is not installed"; exit 2; }

MINI="$ROOT/Drivers/javascript/mini-client.js"
# The suites the mini client passes fully (skips allowed: it offers no groups, crypto, PAM v3...).
MINI_SUITES="--suite publish --suite subscribe --suite history"
OUT=$(mktemp -d /tmp/check-js-driver.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

run() { # name, command, extra args...
    name="$1"; command="$2"; shift 2
    if ! (cd "$ROOT" && timeout 900 "$BIN" run --client-command "$command" --client-name "$name" \
            --json "$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1); then
        reason=$(grep -m1 -E 'FAIL|error|Error' "$OUT/$name.log" | cut -c1-200)
        echo "check-js-driver: $name failed: ${reason:-see the run's output}"
        tail -20 "$OUT/$name.log" >&2
        exit 1
    fi
    echo "check-js-driver: $name: $(grep -E '^[0-9]+ cases:' "$OUT/$name.log")"
}

export PUBNUB_JS_SDK_SAVED="${PUBNUB_JS_SDK:-}"

# 1. the mini client, Node
PUBNUB_JS_SDK="$MINI" run js-mini-node "env PUBNUB_JS_SDK=$MINI node Drivers/javascript/node-host.mjs" $MINI_SUITES

# 1b. the mini client, Chromium
if [ "$BROWSER" = 1 ]; then
    command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 || { echo "check-js-driver: chromium is not installed (or pass --no-browser)"; exit 2; }
    # Two cases at a time: each warm host runs a Chromium of its own, and four of them on a 2-core
    # machine under CI load starved a page long enough for a case to miss its budget.
    run js-mini-chromium "node Drivers/javascript/browser-host.mjs --sdk $MINI" $MINI_SUITES --jobs 2
fi

# 2. the official SDK, when given
SDK="$PUBNUB_JS_SDK_SAVED"
if [ -n "$SDK" ] && [ "$SDK" != "$MINI" ]; then
    VERSION=$(cd "$ROOT" && printf '{"id":1,"type":"hello"}\n' | PUBNUB_JS_SDK="$SDK" timeout 30 node Drivers/javascript/node-host.mjs \
        | sed -n 's/.*"version":"\([^"]*\)".*/\1/p' | head -1)
    [ -n "$VERSION" ] || { echo "check-js-driver: the Node host cannot load PUBNUB_JS_SDK=$SDK"; exit 1; }
    EXPECT="Fixtures/expectations/javascript-sdk-$VERSION-node.json"
    [ -f "$ROOT/$EXPECT" ] || { echo "check-js-driver: no expectation file $EXPECT for SDK $VERSION"; exit 1; }
    PUBNUB_JS_SDK="$SDK" run "pubnub-js-$VERSION-node" "env PUBNUB_JS_SDK=$SDK node Drivers/javascript/node-host.mjs" \
        --expectations "$EXPECT"
    if [ "$BROWSER" = 1 ] && [ -f "$SDK" ]; then
        EXPECT="Fixtures/expectations/javascript-sdk-$VERSION-chromium.json"
        [ -f "$ROOT/$EXPECT" ] || { echo "check-js-driver: no expectation file $EXPECT for SDK $VERSION"; exit 1; }
        run "pubnub-js-$VERSION-chromium" "node Drivers/javascript/browser-host.mjs --sdk $SDK" --expectations "$EXPECT" --jobs 2
    fi
fi
echo "check-js-driver: ok"
