#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compares end-to-end message encryption (1 KiB JSON text -> base64 and back, `pubnub-harness crypto bench`)
# with raw AES-256-CBC in `openssl speed -evp aes-256-cbc -bytes 1024`, in the same run.
# Both divide by CPU time (openssl speed's default), so other load on the machine skews neither much.
# Each side runs ROUNDS times, alternating, and the best figure of each is kept.
# Usage: scripts/bench-crypto.sh [--bin PATH]... [seconds-per-measurement, default 2] [rounds, default 3]
# --bin PATH measures that binary instead of building the release one; several --bin (before and after a
# change) are measured in turn within every round, each against the same openssl figure.
# PUBNUB_HARNESS_BIN=PATH is the same as one --bin PATH;
# PUBNUB_HARNESS_BASE64_KERNEL=scalar|ssse3|avx2|avx512vbmi makes it use slower base64 code than its best;
# PUBNUB_HARNESS_AES_CODE=libcrypto encrypts with libcrypto instead of the AES-NI kernel.
set -euo pipefail
export LC_ALL=C
BINS=()
POSITIONAL=()
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BINS+=("$2"); shift 2 ;;
        --bin=*) BINS+=("${1#--bin=}"); shift ;;
        -h|--help) sed -n '3,12p' "$0"; exit 0 ;;
        *) POSITIONAL+=("$1"); shift ;;
    esac
done
SECONDS_PER=${POSITIONAL[0]:-2}
ROUNDS=${POSITIONAL[1]:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

if [ ${#BINS[@]} -eq 0 ]; then
    if [ -n "${PUBNUB_HARNESS_BIN:-}" ]; then
        BINS=("$PUBNUB_HARNESS_BIN")
    else
        swift build -c release --product pubnub-harness >/dev/null
        BINS=("$ROOT/.build/release/pubnub-harness")
    fi
fi
for bin in "${BINS[@]}"; do
    [ -x "$bin" ] || { echo "error: $bin is not an executable" >&2; exit 2; }
done
OUT_DIR=$(mktemp -d)
trap 'rm -rf "$OUT_DIR"' EXIT

best_openssl=0
for round in $(seq "$ROUNDS"); do
    # Last line: "AES-256-CBC  1021565.33k" (1000s of bytes per second).
    value=$(openssl speed -evp aes-256-cbc -bytes 1024 -seconds "$SECONDS_PER" 2>/dev/null | tail -1 | awk '{sub(/k$/, "", $NF); print $NF * 1000 / 1e6}')
    best_openssl=$(awk -v a="$best_openssl" -v b="$value" 'BEGIN { print (b > a ? b : a) }')
    for index in "${!BINS[@]}"; do
        "${BINS[$index]}" crypto bench --seconds "$SECONDS_PER" --size 1024 >>"$OUT_DIR/$index"
    done
done

echo "openssl speed -evp aes-256-cbc, 1024-byte blocks (encrypt): $best_openssl MB/s (best of $ROUNDS)"
for index in "${!BINS[@]}"; do
    ours="$OUT_DIR/$index"
    [ ${#BINS[@]} -gt 1 ] && echo "${BINS[$index]}:"
    echo "pubnub-harness crypto bench, 1024-byte messages, end to end (best of $ROUNDS; $(grep -m1 '^base64 code:' "$ours" || echo 'base64 code: not reported'); $(grep -m1 '^aes code:' "$ours" || echo 'aes code: libcrypto')):"
    awk -v ref="$best_openssl" '
        { for (i = 1; i <= NF; i++) if ($i == "MB/s") { key = $1 " " $2; if ($(i - 1) + 0 > best[key]) best[key] = $(i - 1) + 0 } }
        END {
            n = split("legacy legacy-random-iv aescbc", schemes, " ")
            for (s = 1; s <= n; s++) for (d = 1; d <= 2; d++) {
                key = (d == 1 ? "encrypt " : "decrypt ") schemes[s]
                if (key in best) printf "  %-26s %9.2f MB/s  ratio %.2f\n", key, best[key], best[key] / ref
            }
        }' "$ours"
done
echo "targets: encrypt ratio >= 0.90, decrypt ratio >= 1.20 (message throughput vs openssl's raw AES-256-CBC encryption)"
