#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generates Fixtures/crypto/*.json with the `openssl` command-line tool (not the project's code), so the vectors
# are independent of the implementation they test. Deterministic: IVs are derived from the vector ids and the
# binary plaintexts come from a fixed AES-CTR keystream, so re-running produces identical files.
# Needs: bash, openssl, xxd, jq. Usage: scripts/make-crypto-vectors.sh [output-dir]
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/Fixtures/crypto}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STATIC_IV_HEX=30313233343536373839303132333435   # ASCII "0123456789012345"
ACRH_PREFIX_HEX=504e45440141435248                 # "PNED" 01 "ACRH"

die() { echo "make-crypto-vectors: $*" >&2; exit 1; }
for tool in openssl xxd jq; do command -v "$tool" >/dev/null || die "$tool is required"; done

sha_hex() { printf %s "$1" | openssl dgst -sha256 -hex | awk '{print $NF}'; }
# Legacy key: the ASCII text of the first 32 lowercase hex characters of SHA-256(key), as key bytes.
legacy_key_hex() { printf %s "$(sha_hex "$1" | cut -c1-32)" | xxd -p -c 64; }
hex2bin() { xxd -r -p; }
to_hex() { xxd -p "$1" | tr -d '\n'; }
b64() { openssl base64 -A -in "$1"; }
# A deterministic 16-byte IV per vector id.
iv_for() { sha_hex "iv:$1" | cut -c1-32; }
aes_enc() { openssl enc -aes-256-cbc -K "$1" -iv "$2" -in "$3"; }   # key-hex iv-hex plaintext-file
# Deterministic pseudo-random bytes: an AES-128-CTR keystream under an all-zero key.
bytes_file() {
    head -c "$1" /dev/zero | openssl enc -aes-128-ctr -K 00000000000000000000000000000000 \
        -iv 00000000000000000000000000000000 >"$2"
}
# A JSON string message of exactly $1 bytes ($1 >= 2): "abc...".
json_string_file() {
    local body
    body=$(yes 'The quick brown fox jumps over the lazy dog 0123456789.' | tr -d '\n' | head -c $(($1 - 2)) || true)
    printf '"%s"' "$body" >"$2"
}

# wire SCHEME KEY IVHEX PLAINTEXT-FILE OUT-FILE: the encrypted bytes in the scheme's format.
wire() {
    local scheme=$1 key=$2 iv=$3 pt=$4 out=$5
    case $scheme in
        legacy) aes_enc "$(legacy_key_hex "$key")" "$STATIC_IV_HEX" "$pt" >"$out" ;;
        legacy-random-iv) { printf %s "$iv" | hex2bin; aes_enc "$(legacy_key_hex "$key")" "$iv" "$pt"; } >"$out" ;;
        aescbc) { printf %s "${ACRH_PREFIX_HEX}10$iv" | hex2bin; aes_enc "$(sha_hex "$key")" "$iv" "$pt"; } >"$out" ;;
        *) die "unknown scheme $scheme" ;;
    esac
}

# vector FILE ID SCHEME KEY KIND [field=value...]: appends one vector object to $WORK/FILE.jsonl.
# Fields: pt=PATH (UTF-8 text), pthex=PATH (binary plaintext, written as hex), iv=HEX, ct=PATH (bytes, written
# as base64), ctb64=TEXT (literal ciphertext text), error=KIND, fallback=MODE, decryptOnly=true, note=TEXT.
vector() {
    local file=$1 id=$2 scheme=$3 key=$4 kind=$5
    shift 5
    local args=(--arg id "$id" --arg scheme "$scheme" --arg key "$key" --arg kind "$kind")
    local expr='{id: $id, scheme: $scheme, cipherKey: $key, kind: $kind}'
    local field value
    for pair in "$@"; do
        field=${pair%%=*}
        value=${pair#*=}
        case $field in
            pt) args+=(--rawfile pt "$value"); expr+=' + {plaintext: $pt}' ;;
            pthex) to_hex "$value" >"$WORK/hex.tmp"; args+=(--rawfile pthex "$WORK/hex.tmp"); expr+=' + {plaintextHex: $pthex}' ;;
            iv) args+=(--arg iv "$value"); expr+=' + {iv: $iv}' ;;
            ct) b64 "$value" >"$WORK/b64.tmp"; args+=(--rawfile ct "$WORK/b64.tmp"); expr+=' + {ciphertext: $ct}' ;;
            ctb64) args+=(--arg ct "$value"); expr+=' + {ciphertext: $ct}' ;;
            error) args+=(--arg error "$value"); expr+=' + {error: $error}' ;;
            fallback) args+=(--arg fallback "$value"); expr+=' + {legacyFallback: $fallback}' ;;
            decryptOnly) expr+=' + {decryptOnly: true}' ;;
            note) args+=(--arg note "$value"); expr+=' + {note: $note}' ;;
            *) die "unknown field $field" ;;
        esac
    done
    jq -c -n "${args[@]}" "$expr" >>"$WORK/$file.jsonl"
}

# finish FILE DESCRIPTION: writes $OUT/FILE.json.
finish() {
    jq -s --arg d "$2" '{description: $d, schemeVersion: 1, vectors: .}' "$WORK/$1.jsonl" >"$WORK/$1.json"
}

# positive FILE ID SCHEME KEY KIND PLAINTEXT-FILE [extra fields]: encrypts with openssl and records the vector.
positive() {
    local file=$1 id=$2 scheme=$3 key=$4 kind=$5 pt=$6
    shift 6
    local iv="" fields=()
    [ "$scheme" != legacy ] && iv=$(iv_for "$id") && fields+=("iv=$iv")
    wire "$scheme" "$key" "$iv" "$pt" "$WORK/ct.bin"
    if [ "$kind" = message ]; then fields+=("pt=$pt"); else fields+=("pthex=$pt"); fi
    vector "$file" "$id" "$scheme" "$key" "$kind" "${fields[@]}" "ct=$WORK/ct.bin" "$@"
}

text_file() { printf %s "$1" >"$WORK/$2"; echo "$WORK/$2"; }

# ---------------------------------------------------------------------------------------------------------
# Known answers from crypto.md (checked here against literal values, so a derivation mistake stops the script).
KA=known-answers
wire legacy enigma "" "$(text_file 'yay!' yay.txt)" "$WORK/yay.bin"
[ "$(b64 "$WORK/yay.bin")" = "q/xJqqN6qbiZMXYmiQC1Fw==" ] || die "legacy known answer mismatch"
vector $KA legacy-yay-enigma legacy enigma message "pt=$WORK/yay.txt" "ct=$WORK/yay.bin" \
    note="crypto.md §0: 'yay!' with key enigma (c-sharp/go/python vector)"
ACRH_B64=UE5FRAFBQ1JIEALf+E65kseYJwTw2J6BUk9MePHiCcBCS+8ykXLkBIOA
ACRH_IV=$(printf %s "$ACRH_B64" | openssl base64 -d -A | xxd -p -s 10 -l 16)
wire aescbc enigma "$ACRH_IV" "$(text_file '"test"' test.txt)" "$WORK/acrh.bin"
[ "$(b64 "$WORK/acrh.bin")" = "$ACRH_B64" ] || die "ACRH known answer mismatch"
vector $KA aescbc-test-enigma aescbc enigma message "pt=$WORK/test.txt" "iv=$ACRH_IV" "ctb64=$ACRH_B64" \
    note="crypto.md §0: go/c-sharp CryptoModule vector, key enigma -> the JSON string \"test\""
wire legacy pubnubenigma "" "$(text_file '' empty.txt)" "$WORK/empty.bin"
[ "$(b64 "$WORK/empty.bin")" = "vcDulu6I+UXfh0WuNnVQwg==" ] || die "legacy empty known answer mismatch"
vector $KA legacy-empty-pubnubenigma legacy pubnubenigma message "pt=$WORK/empty.txt" "ct=$WORK/empty.bin" \
    note="crypto.md §2: python legacy encrypts the empty string to one padding block"
for pair in 'escaped:"\u6f22\u8a9e":+BY5/miAA8aeuhVl4d13Kg==:c-sharp/go (non-ASCII escaped before encrypting)' \
    'raw:"漢語":WvztVJ5SPNOcwrKsDrGlWQ==:old javascript (raw UTF-8)'; do
    IFS=: read -r name text expected origin <<<"$pair"
    wire legacy enigma "" "$(text_file "$text" "kanji-$name.txt")" "$WORK/kanji.bin"
    [ "$(b64 "$WORK/kanji.bin")" = "$expected" ] || die "legacy $name kanji known answer mismatch"
    vector $KA "legacy-kanji-$name-enigma" legacy enigma message "pt=$WORK/kanji-$name.txt" "ct=$WORK/kanji.bin" \
        note="crypto.md §1: $origin vector for the message 漢語"
done
vector $KA legacy-yay-unpadded-base64 legacy enigma message "pt=$WORK/yay.txt" ctb64="q/xJqqN6qbiZMXYmiQC1Fw" \
    decryptOnly=true note="base64 without its final padding is accepted when decrypting"
finish $KA "Known answers quoted in the crypto spec, reproduced with openssl enc"

# ---------------------------------------------------------------------------------------------------------
# Per scheme: binary sizes around the block size, JSON-string messages of the same sizes, text and JSON.
SIZES="0 1 15 16 17 31 32 33"
KEYS=(enigma "clé-🔑 with spaces" "a-much-longer-cipher-key-0123456789-0123456789-0123456789")
printf %s '"Grüße aus Köln, ça va? 漢語 — Ελληνικά"' >"$WORK/nonascii.txt"
printf %s '"emoji 🙃👍🏽 and a flag 🇺🇦"' >"$WORK/emoji.txt"
printf %s '{"text":"hello","n":42,"ok":true,"none":null,"nested":{"list":[1,2.5,-3e2],"s":"quote \" and \\ slash /"}}' >"$WORK/object.txt"
printf %s '["hi","hi2","hi3",{"k":"v"},[],{}]' >"$WORK/array.txt"
printf %s '{"pn_other":"secret","pn_apns":{"aps":{"alert":"hello"}}}' >"$WORK/push.txt"
printf %s '42' >"$WORK/number.txt"
printf %s '"\u6f22\u8a9e"' >"$WORK/escaped.txt"
printf %s '7' >"$WORK/message-1.txt"
for scheme in legacy legacy-random-iv aescbc; do
    for n in $SIZES; do
        bytes_file "$n" "$WORK/bin-$n.bin"
        if [ "$scheme" = aescbc ] && [ "$n" = 0 ]; then
            vector "$scheme" "$scheme-binary-0" "$scheme" enigma binary "pthex=$WORK/bin-0.bin" iv="$(iv_for aescbc-binary-0)" \
                error=emptyData note="every CryptoModule refuses to encrypt empty data"
            continue
        fi
        positive "$scheme" "$scheme-binary-$n" "$scheme" enigma binary "$WORK/bin-$n.bin"
        [ "$n" = 0 ] && continue
        [ "$n" = 1 ] && cp "$WORK/message-1.txt" "$WORK/msg-$n.txt" || json_string_file "$n" "$WORK/msg-$n.txt"
        positive "$scheme" "$scheme-message-$n" "$scheme" enigma message "$WORK/msg-$n.txt"
    done
    for name in nonascii emoji object array push number escaped; do
        positive "$scheme" "$scheme-$name" "$scheme" enigma message "$WORK/$name.txt"
    done
    for index in 1 2; do
        positive "$scheme" "$scheme-key-$index" "$scheme" "${KEYS[$index]}" message "$WORK/object.txt"
    done
    finish "$scheme" "Scheme $scheme: sizes 0-33 bytes (binary and JSON-string messages), non-ASCII, emoji, JSON values, keys"
done

# ---------------------------------------------------------------------------------------------------------
json_string_file 65536 "$WORK/large.txt"
for scheme in legacy legacy-random-iv aescbc; do
    positive large "$scheme-message-64KiB" "$scheme" enigma message "$WORK/large.txt"
done
finish large "64 KiB messages (JSON strings) for each scheme"

# ---------------------------------------------------------------------------------------------------------
# Data one scheme writes and another module reads (CryptoModule dispatch).
IX=interop
wire legacy enigma "" "$WORK/object.txt" "$WORK/ix-static.bin"
wire legacy-random-iv enigma "$(iv_for ix-riv)" "$WORK/object.txt" "$WORK/ix-riv.bin"
wire aescbc enigma "$(iv_for ix-acrh)" "$WORK/object.txt" "$WORK/ix-acrh.bin"
vector $IX aescbc-reads-legacy-random-iv aescbc enigma message "pt=$WORK/object.txt" "ct=$WORK/ix-riv.bin" decryptOnly=true \
    note="headerless data goes to the legacy cryptor, random IV by default"
vector $IX aescbc-reads-legacy-static-iv aescbc enigma message "pt=$WORK/object.txt" "ct=$WORK/ix-static.bin" \
    fallback=static-iv decryptOnly=true note="legacy cryptor configured with the static IV"
vector $IX legacy-reads-acrh legacy enigma message "pt=$WORK/object.txt" "ct=$WORK/ix-acrh.bin" decryptOnly=true \
    note="legacyCryptoModule also registers the ACRH cryptor"
vector $IX legacy-random-iv-reads-acrh legacy-random-iv enigma message "pt=$WORK/object.txt" "ct=$WORK/ix-acrh.bin" decryptOnly=true
{ printf %s "${ACRH_PREFIX_HEX}ff0010$(iv_for ix-acrh)" | hex2bin; tail -c +27 "$WORK/ix-acrh.bin"; } >"$WORK/ix-long.bin"
vector $IX aescbc-reads-3-byte-length-header aescbc enigma message "pt=$WORK/object.txt" "ct=$WORK/ix-long.bin" decryptOnly=true \
    note="cryptor-data length written as 0xFF + 2 bytes big-endian (python/kotlin/go encoding)"
finish $IX "Cross-format decryption: CryptoModule header dispatch and the legacy fallback"

# ---------------------------------------------------------------------------------------------------------
# Negative vectors: every error kind the implementation raises for bad input.
ER=errors
ERR_IV=$(iv_for errors)
aes_enc "$(sha_hex enigma)" "$ERR_IV" "$WORK/object.txt" >"$WORK/er-ct.bin"     # real ACRH ciphertext body
bad() { # bad ID SCHEME KIND ERROR HEXBYTES [extra]
    local id=$1 scheme=$2 kind=$3 error=$4 hex=$5
    shift 5
    printf %s "$hex" | hex2bin >"$WORK/bad.bin"
    vector $ER "$id" "$scheme" enigma "$kind" "ct=$WORK/bad.bin" "error=$error" "$@"
}
vector $ER empty-key-encrypt legacy "" message "pt=$WORK/object.txt" error=emptyKey
vector $ER empty-key-decrypt aescbc "" message ctb64="$ACRH_B64" error=emptyKey
for scheme in legacy legacy-random-iv aescbc; do
    vector $ER "$scheme-decrypt-empty-message" "$scheme" enigma message ctb64="" error=emptyData
    vector $ER "$scheme-decrypt-empty-binary" "$scheme" enigma binary ctb64="" error=emptyData
done
vector $ER aescbc-encrypt-empty-message aescbc enigma message "pt=$WORK/empty.txt" error=emptyData
n=0
for text in "q/xJqqN6qbiZMXYmiQC1Fw=" "q/xJqqN6qbiZ MXYmiQC1Fw==" "q_xJqqN6qbiZMXYmiQC1Fw==" "@@@@" "q" "q/xJqqN6qbiZMXYmiQC1Fw===" "=q/x"; do
    n=$((n + 1))
    vector $ER "invalid-base64-$n" legacy enigma message ctb64="$text" error=invalidBase64
done
CT16=$(xxd -p -l 16 "$WORK/er-ct.bin" | tr -d '\n')
CTALL=$(to_hex "$WORK/er-ct.bin")
bad header-sentinel-only aescbc binary truncatedHeader 504e4544
bad header-no-cryptor-id aescbc binary truncatedHeader 504e454401
bad header-short-cryptor-id aescbc binary truncatedHeader 504e45440141435248 note="PNED 01 ACR: 8 bytes"
bad header-short-iv aescbc binary truncatedHeader "${ACRH_PREFIX_HEX}10${ERR_IV:0:16}"
bad header-short-long-length aescbc binary truncatedHeader "${ACRH_PREFIX_HEX}ff00"
bad header-version-10 aescbc binary unknownVersion "504e45440a41435248 10${ERR_IV}${CTALL}"
bad header-version-0 aescbc binary unknownVersion "504e45440041435248 10${ERR_IV}${CTALL}"
bad header-version-2-only aescbc message unknownVersion 504e454402
bad header-unknown-cryptor aescbc binary unknownCryptor "504e45440141435242 10${ERR_IV}${CTALL}" note="cryptor id ACRB"
bad header-unknown-cryptor-legacy-module legacy binary unknownCryptor "504e4544015a5a5a5a 10${ERR_IV}${CTALL}"
bad aescbc-headerless-without-legacy-cryptor aescbc binary unknownCryptor "$(to_hex "$WORK/ix-static.bin")" fallback=none
bad header-acrh-8-byte-iv aescbc binary invalidIV "${ACRH_PREFIX_HEX}08${ERR_IV:0:16}${CT16}"
bad legacy-random-iv-short-iv legacy-random-iv binary invalidIV "${ERR_IV:0:20}"
bad aescbc-fallback-short-iv aescbc binary invalidIV "${ERR_IV:0:20}"
vector $ER legacy-random-iv-encrypt-15-byte-iv legacy-random-iv enigma message "pt=$WORK/object.txt" iv="${ERR_IV:0:30}" error=invalidIV
vector $ER aescbc-encrypt-17-byte-iv aescbc enigma binary "pthex=$WORK/bin-16.bin" iv="${ERR_IV}00" error=invalidIV
vector $ER legacy-encrypt-non-static-iv legacy enigma message "pt=$WORK/object.txt" iv="$ERR_IV" error=invalidIV \
    note="the legacy scheme has no IV to choose"
bad legacy-17-bytes legacy binary invalidBlockSize "${CTALL:0:34}"
bad legacy-15-bytes legacy message invalidBlockSize "${CTALL:0:30}"
bad acrh-no-ciphertext aescbc binary invalidBlockSize "${ACRH_PREFIX_HEX}10${ERR_IV}" note="header and IV only"
bad acrh-20-byte-ciphertext aescbc binary invalidBlockSize "${ACRH_PREFIX_HEX}10${ERR_IV}${CTALL:0:40}"
bad legacy-random-iv-iv-only legacy-random-iv binary invalidBlockSize "$ERR_IV"
bad legacy-random-iv-24-byte-ciphertext legacy-random-iv message invalidBlockSize "${ERR_IV}${CTALL:0:48}"
# Wrong keys: openssl itself must fail to decrypt, so the padding is really invalid.
expect_bad_decrypt() { # key-hex iv-hex ciphertext-file
    if openssl enc -d -aes-256-cbc -K "$1" -iv "$2" -in "$3" >/dev/null 2>&1; then die "wrong-key vector decrypts in openssl"; fi
}
expect_bad_decrypt "$(legacy_key_hex not-enigma)" "$STATIC_IV_HEX" "$WORK/ix-static.bin"
vector $ER legacy-wrong-key legacy not-enigma message "ct=$WORK/ix-static.bin" error=wrongKeyOrPadding
tail -c +17 "$WORK/ix-riv.bin" >"$WORK/riv-body.bin"
expect_bad_decrypt "$(legacy_key_hex not-enigma)" "$(iv_for ix-riv)" "$WORK/riv-body.bin"
vector $ER legacy-random-iv-wrong-key legacy-random-iv not-enigma message "ct=$WORK/ix-riv.bin" error=wrongKeyOrPadding
tail -c +27 "$WORK/ix-acrh.bin" >"$WORK/acrh-body.bin"
expect_bad_decrypt "$(sha_hex not-enigma)" "$(iv_for ix-acrh)" "$WORK/acrh-body.bin"
vector $ER aescbc-wrong-key aescbc not-enigma message "ct=$WORK/ix-acrh.bin" error=wrongKeyOrPadding
expect_bad_decrypt "$(legacy_key_hex enigma)" "$STATIC_IV_HEX" "$WORK/acrh-body.bin"
vector $ER acrh-body-read-as-legacy legacy enigma message "ct=$WORK/acrh-body.bin" error=wrongKeyOrPadding \
    note="ACRH ciphertext without its header, under the legacy key"
printf '\xff\xfe\xfd "not utf-8"' >"$WORK/notutf8.bin"
for scheme in legacy legacy-random-iv aescbc; do
    wire "$scheme" enigma "$(iv_for "$scheme-utf8")" "$WORK/notutf8.bin" "$WORK/notutf8.ct"
    vector $ER "$scheme-invalid-utf8-message" "$scheme" enigma message "ct=$WORK/notutf8.ct" error=invalidUTF8
done
finish $ER "Negative vectors: each must raise exactly its error kind"

mkdir -p "$OUT"
for file in "$WORK"/*.json; do cp "$file" "$OUT/"; done
echo "wrote $(ls "$WORK"/*.json | wc -l) files to $OUT: $(cat "$WORK"/*.jsonl | wc -l) vectors"
# The binary carries the fixtures as Swift source: regenerate it when the default fixtures changed.
if [ "$OUT" = "$ROOT/Fixtures/crypto" ]; then "$ROOT/scripts/embed-crypto-vectors.sh"; fi
