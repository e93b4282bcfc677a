// SPDX-License-Identifier: MIT
// Vector (SSSE3 / AVX2 / AVX-512 VBMI) kernels for base64 (RFC 4648) on x86-64, chosen at run time from CPUID.
// The kernels handle whole groups only and report how far they got; the caller (HarnessPrimitives'
// Base64) finishes the rest with its scalar code, which is also the whole path on CPUs (or
// architectures) without these instructions.
#ifndef CBASE64_H
#define CBASE64_H
#include <stddef.h>
#include <stdint.h>

/// The kernel families. Values are stable: Swift passes them back in.
enum {
    CBASE64_PATH_SCALAR = 0,
    CBASE64_PATH_SSSE3 = 1,
    CBASE64_PATH_AVX2 = 2,
    /// AVX-512 VBMI for encoding (48 bytes per step); decoding uses the AVX2 kernel on such CPUs.
    CBASE64_PATH_AVX512VBMI = 3,
};

/// The fastest path this CPU and operating system support (AVX2 needs OS-enabled YMM state, AVX-512
/// the opmask and ZMM state as well).
int cbase64_best_path(void);

/// Whether `path` can run here (CBASE64_PATH_SCALAR always can).
int cbase64_path_available(int path);

/// Encodes every whole 3-byte group of `in` (`count / 3 * 3` bytes: vector blocks of 12 or 24 bytes,
/// then single groups) into `out`, without padding; the caller encodes the last 1-2 bytes.
///
/// Returns the input bytes consumed; `out` receives 4/3 as many characters (exactly that many bytes
/// are written). `url` selects the base64url alphabet (`-`, `_`) instead of `+`, `/`.
/// Reads only `in[0..<count]`. `in` may lie inside `out` at offset `count / 3` or later (in-place
/// encoding): every group is loaded before the store that could reach it. CBASE64_PATH_SCALAR, or a
/// path this CPU lacks, consumes nothing.
size_t cbase64_encode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, int url);

/// Decodes the longest prefix of `in` (standard alphabet, no padding or other characters) that
/// `path` handles in whole groups into `out`, which has room for `capacity` bytes.
///
/// Returns the characters consumed, a multiple of 4; `out` receives 3/4 as many bytes (a vector
/// store may write up to `capacity` bytes, never more). Sets `*invalid` to 1 if a consumed group held
/// a character outside the alphabet (the output is then meaningless) and leaves it alone otherwise.
/// CBASE64_PATH_SCALAR, or a path this CPU lacks, consumes nothing.
size_t cbase64_decode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, size_t capacity, int *invalid);

#endif
