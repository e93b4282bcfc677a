// SPDX-License-Identifier: MIT
// AES-256-CBC encryption with AES-NI, fused with base64 (see include/CAESCBC.h for the contract).
//
// CBC encryption is one dependent chain: block i is E(P_i ⊕ C_{i-1}), 14 rounds whose latency the
// processor cannot overlap with the next block's. Work that does not depend on the chain runs beside
// it for free, so each 48-byte group of finished ciphertext (three blocks, or the header, IV and the
// first blocks) is base64-encoded inside the loop, and only the last group's encoding is left after
// the last block. The round keys stay in registers (or are memory operands of the round instructions,
// off the chain); the plaintext is read in place and the last, padded block is built on the stack.
//
// Key expansion (FIPS-197 §5.2 for Nk = 8) with AESKEYGENASSIST: even round keys 2, 4, ... take
// RotWord(SubWord(w)) ⊕ Rcon of the previous round key's last word (dword 3 of the assist), odd ones
// SubWord(w) of the new even key's last word (dword 2); each adds the running XOR of the key two back.
//
// The base64 groups use the same lane layout as CBase64's kernels: a byte permute (VBMI) or shuffle
// (AVX2) places [b a c b] per 32-bit lane for each 3-byte group a b c, the four 6-bit fields are moved
// to their own bytes (multishift, or masks and multiplies) and mapped to characters (a 64-byte table
// permute, or an offset looked up by range).
#include "CAESCBC.h"

#if defined(__x86_64__)
#include <CBase64.h>
#include <immintrin.h>
#include <string.h>

#define AES_TARGET __attribute__((target("aes")))
#define AVX2_TARGET __attribute__((target("aes,avx2")))
#define VBMI_TARGET __attribute__((target("aes,avx2,bmi2,avx512f,avx512bw,avx512vbmi")))
#define ALWAYS_INLINE __attribute__((always_inline)) static inline

/// -1 before the first call, 0 without AES-NI, else 1 + the best `CAESCBC_BASE64_*` code.
static int cached_support = -1;

/// This CPU's support, detected once (racing first callers compute the same value; an int store is atomic on
/// x86-64).
static int support(void) {
    int value = __atomic_load_n(&cached_support, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        int base64;
        switch (cbase64_best_path()) {
        case CBASE64_PATH_AVX512VBMI: base64 = CAESCBC_BASE64_AVX512VBMI; break;
        case CBASE64_PATH_AVX2: base64 = CAESCBC_BASE64_AVX2; break;
        default: base64 = CAESCBC_BASE64_NONE; break;
        }
        value = __builtin_cpu_supports("aes") ? 1 + base64 : 0;
        __atomic_store_n(&cached_support, value, __ATOMIC_RELAXED);
    }
    return value;
}

int caescbc_available(void) { return support() > 0; }

int caescbc_best_base64(void) {
    int value = support();
    return value > 0 ? value - 1 : CAESCBC_BASE64_NONE;
}

// MARK: Key expansion

ALWAYS_INLINE AES_TARGET __m128i running_xor(__m128i key) {
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    key = _mm_xor_si128(key, _mm_slli_si128(key, 4));
    return _mm_xor_si128(key, _mm_slli_si128(key, 4));
}

#define EVEN_KEY(i, rcon) \
    keys[i] = _mm_xor_si128(running_xor(keys[(i) - 2]), _mm_shuffle_epi32(_mm_aeskeygenassist_si128(keys[(i) - 1], rcon), 0xFF))
#define ODD_KEY(i) \
    keys[i] = _mm_xor_si128(running_xor(keys[(i) - 2]), _mm_shuffle_epi32(_mm_aeskeygenassist_si128(keys[(i) - 1], 0x00), 0xAA))

AES_TARGET static void expand(const uint8_t *key, caescbc_round_keys *out) {
    __m128i keys[15];
    keys[0] = _mm_loadu_si128((const __m128i *)key);
    keys[1] = _mm_loadu_si128((const __m128i *)(key + 16));
    EVEN_KEY(2, 0x01); ODD_KEY(3);
    EVEN_KEY(4, 0x02); ODD_KEY(5);
    EVEN_KEY(6, 0x04); ODD_KEY(7);
    EVEN_KEY(8, 0x08); ODD_KEY(9);
    EVEN_KEY(10, 0x10); ODD_KEY(11);
    EVEN_KEY(12, 0x20); ODD_KEY(13);
    EVEN_KEY(14, 0x40);
    for (int i = 0; i < 15; i++) _mm_store_si128((__m128i *)(out->bytes + 16 * i), keys[i]);
    // The key schedule is key material: leave no copy on the stack.
    __asm__ volatile("" : : "r"(keys) : "memory");
    memset(keys, 0, sizeof keys);
    __asm__ volatile("" : : "r"(keys) : "memory");
}

int caescbc_expand_key(const uint8_t *key, caescbc_round_keys *keys) {
    if (!caescbc_available()) return 0;
    expand(key, keys);
    return 1;
}

// MARK: Base64 groups (48 bytes → 64 characters)

ALWAYS_INLINE VBMI_TARGET void encode_group_vbmi(const uint8_t *in, uint8_t *out) {
    // Lane i (of 16) takes bytes 3i+1, 3i, 3i+2, 3i+1 of the 48.
    const __m512i spread = _mm512_setr_epi32(
        0x01020001, 0x04050304, 0x07080607, 0x0A0B090A, 0x0D0E0C0D, 0x10110F10, 0x13141213, 0x16171516,
        0x191A1819, 0x1C1D1B1C, 0x1F201E1F, 0x22232122, 0x25262425, 0x28292728, 0x2B2C2A2B, 0x2E2F2D2E);
    // Per 64-bit word: the fields of its two lanes, at bit offsets 10, 4, 22, 16 and 32 more.
    const __m512i shifts = _mm512_set1_epi64(0x3036242A1016040ALL);
    const __m512i characters = _mm512_loadu_si512((const void *)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    // A masked load reads exactly the group's 48 bytes (the next block may not be written yet).
    __m512i bytes = _mm512_maskz_loadu_epi8((__mmask64)0x0000FFFFFFFFFFFFULL, in);
    __m512i indices = _mm512_multishift_epi64_epi8(shifts, _mm512_permutexvar_epi8(spread, bytes));
    _mm512_storeu_si512((void *)out, _mm512_permutexvar_epi8(indices, characters));
}

/// The last 0-47 bytes with padding: (count + 2) / 3 * 4 characters. The bytes past `count` load as zero, which
/// is what the padded encoding of a partial group starts from; the characters past the last significant one
/// become `=`.
ALWAYS_INLINE VBMI_TARGET void encode_tail_vbmi(const uint8_t *in, size_t count, uint8_t *out) {
    const __m512i spread = _mm512_setr_epi32(
        0x01020001, 0x04050304, 0x07080607, 0x0A0B090A, 0x0D0E0C0D, 0x10110F10, 0x13141213, 0x16171516,
        0x191A1819, 0x1C1D1B1C, 0x1F201E1F, 0x22232122, 0x25262425, 0x28292728, 0x2B2C2A2B, 0x2E2F2D2E);
    const __m512i shifts = _mm512_set1_epi64(0x3036242A1016040ALL);
    const __m512i characters = _mm512_loadu_si512((const void *)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    __m512i bytes = _mm512_maskz_loadu_epi8((__mmask64)_bzhi_u64(~0ULL, (unsigned)count), in);
    __m512i indices = _mm512_multishift_epi64_epi8(shifts, _mm512_permutexvar_epi8(spread, bytes));
    __m512i text = _mm512_permutexvar_epi8(indices, characters);
    unsigned significant = (unsigned)((count * 4 + 2) / 3), total = (unsigned)((count + 2) / 3 * 4);
    __mmask64 padding = (__mmask64)(_bzhi_u64(~0ULL, total) & ~_bzhi_u64(~0ULL, significant));
    text = _mm512_mask_blend_epi8(padding, text, _mm512_set1_epi8('='));
    _mm512_mask_storeu_epi8(out, (__mmask64)_bzhi_u64(~0ULL, total), text);
}

/// The last 0-47 bytes with padding, one group at a time.
ALWAYS_INLINE void encode_tail_scalar(const uint8_t *in, size_t count, uint8_t *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (; count >= 3; in += 3, out += 4, count -= 3) {
        uint32_t group = (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
        out[0] = (uint8_t)alphabet[group >> 18];
        out[1] = (uint8_t)alphabet[(group >> 12) & 63];
        out[2] = (uint8_t)alphabet[(group >> 6) & 63];
        out[3] = (uint8_t)alphabet[group & 63];
    }
    if (count > 0) {
        uint32_t group = (uint32_t)in[0] << 16 | (count == 2 ? (uint32_t)in[1] << 8 : 0);
        out[0] = (uint8_t)alphabet[group >> 18];
        out[1] = (uint8_t)alphabet[(group >> 12) & 63];
        out[2] = count == 2 ? (uint8_t)alphabet[(group >> 6) & 63] : '=';
        out[3] = '=';
    }
}

/// 24 bytes (two 12-byte halves, each at bytes 0-11 of its 128-bit lane after `spread`) → 32 characters.
ALWAYS_INLINE AVX2_TARGET __m256i encode_lanes_avx2(__m256i lanes) {
    const __m256i offsets = _mm256_setr_epi8(71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '+' - 62, '/' - 63, 65, 0, 0,
                                             71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '+' - 62, '/' - 63, 65, 0, 0);
    __m256i indices = _mm256_or_si256(
        _mm256_mulhi_epu16(_mm256_and_si256(lanes, _mm256_set1_epi32(0x0FC0FC00)), _mm256_set1_epi32(0x04000040)),
        _mm256_mullo_epi16(_mm256_and_si256(lanes, _mm256_set1_epi32(0x003F03F0)), _mm256_set1_epi32(0x01000010)));
    // 0 for 26-51, 1-10 for 52-61, 11 for 62, 12 for 63, 13 for 0-25.
    __m256i range = _mm256_subs_epu8(indices, _mm256_set1_epi8(51));
    range = _mm256_or_si256(range, _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(26), indices), _mm256_set1_epi8(13)));
    return _mm256_add_epi8(indices, _mm256_shuffle_epi8(offsets, range));
}

ALWAYS_INLINE AVX2_TARGET void encode_group_avx2(const uint8_t *in, uint8_t *out) {
#define SPREAD(o) (o) + 1, (o) + 0, (o) + 2, (o) + 1, (o) + 4, (o) + 3, (o) + 5, (o) + 4, \
                  (o) + 7, (o) + 6, (o) + 8, (o) + 7, (o) + 10, (o) + 9, (o) + 11, (o) + 10
    const __m256i spread = _mm256_setr_epi8(SPREAD(0), SPREAD(0));
    // The second half's upper 12 bytes (36-47) are loaded from byte 32, so that nothing past 48 is read.
    const __m256i spread_shifted = _mm256_setr_epi8(SPREAD(0), SPREAD(4));
#undef SPREAD
    __m256i first = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)in)),
                                            _mm_loadu_si128((const __m128i *)(in + 12)), 1);
    __m256i second = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(in + 24))),
                                             _mm_loadu_si128((const __m128i *)(in + 32)), 1);
    _mm256_storeu_si256((__m256i *)out, encode_lanes_avx2(_mm256_shuffle_epi8(first, spread)));
    _mm256_storeu_si256((__m256i *)(out + 32), encode_lanes_avx2(_mm256_shuffle_epi8(second, spread_shifted)));
}

// MARK: The CBC loop

/// E(chain ⊕ plain): the plaintext is whitened with round key 0 first, off the chain, so that one XOR (not
/// two) precedes the rounds on the chain.
ALWAYS_INLINE AES_TARGET __m128i encrypt_block(__m128i chain, __m128i plain, const __m128i *k) {
    __m128i whitened = _mm_xor_si128(plain, k[0]);
    // An empty asm makes `whitened` opaque, so the compiler cannot reassociate the XORs onto the chain.
    __asm__("" : "+x"(whitened));
    __m128i block = _mm_xor_si128(chain, whitened);
    block = _mm_aesenc_si128(block, k[1]);
    block = _mm_aesenc_si128(block, k[2]);
    block = _mm_aesenc_si128(block, k[3]);
    block = _mm_aesenc_si128(block, k[4]);
    block = _mm_aesenc_si128(block, k[5]);
    block = _mm_aesenc_si128(block, k[6]);
    block = _mm_aesenc_si128(block, k[7]);
    block = _mm_aesenc_si128(block, k[8]);
    block = _mm_aesenc_si128(block, k[9]);
    block = _mm_aesenc_si128(block, k[10]);
    block = _mm_aesenc_si128(block, k[11]);
    block = _mm_aesenc_si128(block, k[12]);
    block = _mm_aesenc_si128(block, k[13]);
    return _mm_aesenclast_si128(block, k[14]);
}

/// Encrypts the last block: the plaintext's last 0-15 bytes and PKCS#7 padding (the pad length in every
/// pad byte), built on the stack; returns the ciphertext's total length.
ALWAYS_INLINE AES_TARGET size_t encrypt_last_block(__m128i chain, const uint8_t *in, size_t count, uint8_t *out, const __m128i *k) {
    size_t blocks = count / 16;
    size_t rest = count % 16;
    uint8_t last[16];
    memset(last, (int)(16 - rest), sizeof last);
    if (rest > 0) memcpy(last, in + 16 * blocks, rest);
    chain = encrypt_block(chain, _mm_loadu_si128((const __m128i *)last), k);
    _mm_storeu_si128((__m128i *)(out + 16 * blocks), chain);
    return 16 * blocks + 16;
}

// One copy of the loop per group code (each in its own target, so the AVX2 copy holds no AVX-512
// instruction). After block i is stored, every whole group up to its end is encoded: that work does
// not depend on the chain and runs while block i + 1's rounds wait for block i.
#define ENCRYPT_LOOP(encode_group, encode_tail)                                                                   \
    const __m128i *k = (const __m128i *)keys->bytes;                                                    \
    __m128i chain = _mm_loadu_si128((const __m128i *)iv);                                               \
    size_t blocks = count / 16;                                                                         \
    const uint8_t *from = encode_from;                                                                  \
    uint8_t *to = text;                                                                                 \
    for (size_t i = 0; i < blocks; i++) {                                                               \
        chain = encrypt_block(chain, _mm_loadu_si128((const __m128i *)(in + 16 * i)), k); \
        _mm_storeu_si128((__m128i *)(out + 16 * i), chain);                                             \
        for (; out + 16 * (i + 1) - from >= 48; from += 48, to += 64) encode_group(from, to);           \
    }                                                                                                   \
    size_t total = encrypt_last_block(chain, in, count, out, k);                                        \
    for (; out + total - from >= 48; from += 48, to += 64) encode_group(from, to);                      \
    encode_tail(from, (size_t)(out + total - from), to);                                                \
    *encoded = (size_t)(out + total - encode_from);                                                     \
    return total;

VBMI_TARGET static size_t encrypt_vbmi(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count, uint8_t *out,
                                       const uint8_t *encode_from, uint8_t *text, size_t *encoded) {
    ENCRYPT_LOOP(encode_group_vbmi, encode_tail_vbmi)
}

AVX2_TARGET static size_t encrypt_avx2(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count, uint8_t *out,
                                       const uint8_t *encode_from, uint8_t *text, size_t *encoded) {
    ENCRYPT_LOOP(encode_group_avx2, encode_tail_scalar)
}

#undef ENCRYPT_LOOP

/// Encryption only (AES-NI and SSE2).
AES_TARGET static size_t encrypt_plain(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count, uint8_t *out) {
    const __m128i *k = (const __m128i *)keys->bytes;
    __m128i chain = _mm_loadu_si128((const __m128i *)iv);
    size_t blocks = count / 16;
    for (size_t i = 0; i < blocks; i++) {
        chain = encrypt_block(chain, _mm_loadu_si128((const __m128i *)(in + 16 * i)), k);
        _mm_storeu_si128((__m128i *)(out + 16 * i), chain);
    }
    return encrypt_last_block(chain, in, count, out, k);
}

size_t caescbc_encrypt(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count, uint8_t *out,
                       const uint8_t *encode_from, uint8_t *text, int base64, size_t *encoded) {
    *encoded = 0;
    int supported = support();
    if (supported == 0) return 0;
    if (text == NULL || base64 == CAESCBC_BASE64_NONE) return encrypt_plain(keys, iv, in, count, out);
    if (base64 > supported - 1) return 0;
    switch (base64) {
    case CAESCBC_BASE64_AVX512VBMI: return encrypt_vbmi(keys, iv, in, count, out, encode_from, text, encoded);
    case CAESCBC_BASE64_AVX2: return encrypt_avx2(keys, iv, in, count, out, encode_from, text, encoded);
    default: return 0;
    }
}

#else  // Other architectures: libcrypto does the work.

int caescbc_available(void) { return 0; }

int caescbc_best_base64(void) { return CAESCBC_BASE64_NONE; }

int caescbc_expand_key(const uint8_t *key, caescbc_round_keys *keys) {
    (void)key; (void)keys;
    return 0;
}

size_t caescbc_encrypt(const caescbc_round_keys *keys, const uint8_t *iv, const uint8_t *in, size_t count, uint8_t *out,
                       const uint8_t *encode_from, uint8_t *text, int base64, size_t *encoded) {
    (void)keys; (void)iv; (void)in; (void)count; (void)out; (void)encode_from; (void)text; (void)base64;
    *encoded = 0;
    return 0;
}

#endif
