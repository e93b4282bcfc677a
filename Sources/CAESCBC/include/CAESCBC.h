// SPDX-License-Identifier: MIT
// AES-256-CBC encryption with AES-NI on x86-64, fused with base64: each finished group of three blocks
// (48 bytes → 64 characters) is encoded while the next blocks' rounds run, so only the last group's
// encoding follows the dependent CBC chain. Chosen at run time from CPUID; on other CPUs (or
// architectures) `caescbc_available` is 0 and the caller uses libcrypto instead.
#ifndef CAESCBC_H
#define CAESCBC_H
#include <stddef.h>
#include <stdint.h>

/// The base64 code the kernel runs between blocks. Values are stable (Swift passes them in) and equal
/// CBase64's path numbers: SSSE3 or less means "no encoding in the loop" (the caller encodes it all).
enum {
    CAESCBC_BASE64_NONE = 0,
    CAESCBC_BASE64_AVX2 = 2,
    CAESCBC_BASE64_AVX512VBMI = 3,
};

/// The 15 AES-256 encryption round keys (FIPS-197 key expansion), 16-byte aligned.
typedef struct {
    _Alignas(16) uint8_t bytes[15 * 16];
} caescbc_round_keys;

/// 1 when this CPU has AES-NI (the kernel can run), else 0.
int caescbc_available(void);

/// The best base64 code this CPU can run inside the loop (`CAESCBC_BASE64_*`).
int caescbc_best_base64(void);

/// Expands the 32-byte `key` into `keys`. Returns 0 (nothing written) when AES-NI is missing.
int caescbc_expand_key(const uint8_t *key, caescbc_round_keys *keys);

/// AES-256-CBC-encrypts `count` bytes of `in` with PKCS#7 padding (1...16 bytes) and the 16-byte `iv` into
/// `out` (`count / 16 * 16 + 16` bytes, not overlapping `in`); returns the bytes written.
///
/// When `text` is not NULL and `base64` names a group code, the bytes from `encode_from` (at or before `out`:
/// a header and IV the caller wrote already) to the end of the ciphertext are base64-encoded (standard
/// alphabet, with padding) into `text`: each whole 48-byte group as soon as its blocks are written, the last
/// 0-47 bytes after the last block; `*encoded` receives the bytes encoded (all of them, so the text is
/// `(*encoded + 2) / 3 * 4` characters). With `CAESCBC_BASE64_NONE` (or no `text`) nothing is encoded and
/// `*encoded` is 0. `text` may lie before `encode_from` by at least a third of the encoded length (in-place
/// encoding: each group is read before the store that could reach it).
/// The loop branches on lengths only, never on key or data bytes. Does nothing and returns 0 without
/// AES-NI (or with a `base64` code this CPU lacks).
size_t caescbc_encrypt(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count,
                       uint8_t *out, const uint8_t *encode_from, uint8_t *text, int base64, size_t *encoded);

#endif
