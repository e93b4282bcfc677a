#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the portable release: a stripped `pubnub-harness` with the Swift runtime and Foundation
# linked in (--static-swift-stdlib), packed with LICENSE and README as
# dist/pubnub-harness-<version>-linux-<arch>.tar.gz (+ .sha256). Then verifies the tarball the way
# a CI job would use it: unpacked in a fresh directory outside the checkout, run with an empty
# environment (env -i), it must run the whole catalog (every encryption vector case included) with
# no new failure, and ldd must show no Swift library (only glibc, libssl/libcrypto, zlib, libcbor, libsodium, libstdc++).
# Needs: swift, strip (binutils), tar, sha256sum, ldd, python3. Usage: scripts/release.sh [--no-verify]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
die() { echo "release: $*" >&2; exit 1; }

echo "release: building (release, static Swift runtime)"
swift build -c release --static-swift-stdlib --product pubnub-harness
BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/pubnub-harness"
[ -x "$BIN" ] || die "no binary at $BIN"
VERSION=$("$BIN" --version)
ARCH=$(uname -m)
NAME="pubnub-harness-$VERSION-linux-$ARCH"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir "$STAGE/$NAME"
cp "$BIN" "$STAGE/$NAME/pubnub-harness"
strip "$STAGE/$NAME/pubnub-harness"
cp LICENSE README.md "$STAGE/$NAME/"
mkdir -p dist
tar -C "$STAGE" -czf "dist/$NAME.tar.gz" "$NAME"
(cd dist && sha256sum "$NAME.tar.gz" > "$NAME.tar.gz.sha256")
echo "release: dist/$NAME.tar.gz ($(du -h "dist/$NAME.tar.gz" | cut -f1); binary $(du -h "$STAGE/$NAME/pubnub-harness" | cut -f1) stripped)"

[ "${1:-}" = "--no-verify" ] && exit 0

echo "release: verifying in a fresh directory outside the checkout, with an empty environment"
TRY=$(mktemp -d)
trap 'rm -rf "$STAGE" "$TRY"' EXIT
tar -C "$TRY" -xzf "dist/$NAME.tar.gz"
cd "$TRY"
HARNESS="$TRY/$NAME/pubnub-harness"

echo "release: ldd $NAME/pubnub-harness"
ldd "$HARNESS" | sed 's/^/    /'
if ldd "$HARNESS" | grep -Eq 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu'; then
    die "the binary still needs a Swift or Foundation library"
fi

# The catalog the fixtures give (built-in suites + one case per vector group of Fixtures/crypto).
EXPECTED=$("$HARNESS" list --family pubnub --ids-only --vectors "$ROOT/Fixtures/crypto" | wc -l)
VECTOR_CASES=$("$HARNESS" list --family pubnub --ids-only --vectors "$ROOT/Fixtures/crypto" | grep -c '^encryption\.vectors\.')
env -i "$HARNESS" run --json "$TRY/out/report.json" --junit "$TRY/out/report.junit.xml" > "$TRY/run.log" 2>&1 \
    || { tail -30 "$TRY/run.log"; die "the relocated binary's run failed"; }
head -2 "$TRY/run.log" | sed 's/^/    /'
tail -2 "$TRY/run.log" | sed 's/^/    /'
python3 - "$TRY/out/report.json" "$EXPECTED" "$VECTOR_CASES" <<'PY'
import json, sys
report, expected, vectors = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
ran = [c["id"] for c in report["cases"]]
vector_cases = [i for i in ran if i.startswith("encryption.vectors.")]
s = report["summary"]
problems = []
if s["total"] != expected: problems.append(f"ran {s['total']} cases, the catalog has {expected}")
if len(vector_cases) != vectors: problems.append(f"ran {len(vector_cases)} encryption vector cases, expected {vectors}")
if s["newFailures"] != 0: problems.append(f"{s['newFailures']} new failures")
if problems: sys.exit("release: " + "; ".join(problems))
print(f"release: relocated run: {s['total']} cases ({len(vector_cases)} encryption vector cases), "
      f"{s['passed']} passed, {s['failed']} failed, {s['skipped']} skipped")
PY
echo "release: ok"
