// SPDX-License-Identifier: MIT
// SSSE3 and AVX2 base64 kernels (see include/CBase64.h for the contract).
//
// Encoding, per 32-bit lane holding one 3-byte group a b c: a byte shuffle places [b a c b] in the
// lane, so that the four 6-bit fields sit at bits 10-15 (a >> 2), 4-9 ((a & 3) << 4 | b >> 4),
// 22-27 ((b & 15) << 2 | c >> 6) and 16-21 (c & 63). Two masks and two 16-bit multiplies (high half
// for the first and third field, low half for the second and fourth) move each field to the bottom
// of its own byte. An index 0-63 becomes a character by adding an offset that depends only on its
// range (A-Z, a-z, 0-9, then the two last characters); a saturating subtract and one compare turn the
// index into a 4-bit range number, and a byte shuffle looks the offset up.
//
// With AVX-512 VBMI the same [b a c b] lanes come from one byte permute of 48 bytes; a multishift
// picks each 6-bit field (bit offsets 10, 4, 22, 16 in the lane) into its own byte, and a second byte
// permute, which only reads the low 6 bits of each index, looks the 64 characters up directly.
//
// Decoding, per character: the low and high nibbles each look up a bit set in a 16-entry table; the
// character is invalid exactly when the two sets share a bit (one bit per class of high nibble, set in
// the low-nibble table for the low nibbles that class does not allow). The value is the character
// plus an offset looked up by high nibble ('/' moved to a slot of its own). Multiply-adds pack four
// 6-bit values into 24 bits per 32-bit lane and a shuffle puts the three bytes in order.
#include "CBase64.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

static int detect_path(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return CBASE64_PATH_SCALAR;
    int path = (ecx & (1u << 9)) ? CBASE64_PATH_SSSE3 : CBASE64_PATH_SCALAR;
    int osxsave = (ecx & (1u << 27)) != 0;
    int avx = (ecx & (1u << 28)) != 0;
    if (path == CBASE64_PATH_SSSE3 && osxsave && avx && __get_cpuid_max(0, 0) >= 7) {
        unsigned low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6u) == 6u) {  // the OS saves XMM and YMM state
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if (ebx & (1u << 5)) path = CBASE64_PATH_AVX2;
            // AVX512F (EBX 16), AVX512BW (EBX 30), AVX512VBMI (ECX 1), and the OS saving opmask and ZMM state.
            int avx512 = (ebx & (1u << 16)) && (ebx & (1u << 30)) && (ecx & (1u << 1));
            if (path == CBASE64_PATH_AVX2 && avx512 && (low & 0xE6u) == 0xE6u) path = CBASE64_PATH_AVX512VBMI;
        }
    }
    return path;
}

// MARK: SSSE3

__attribute__((target("ssse3"))) static inline __m128i encode_indices_128(__m128i bytes) {
    const __m128i spread = _mm_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    __m128i lanes = _mm_shuffle_epi8(bytes, spread);
    __m128i first_third = _mm_mulhi_epu16(_mm_and_si128(lanes, _mm_set1_epi32(0x0FC0FC00)), _mm_set1_epi32(0x04000040));
    __m128i second_fourth = _mm_mullo_epi16(_mm_and_si128(lanes, _mm_set1_epi32(0x003F03F0)), _mm_set1_epi32(0x01000010));
    return _mm_or_si128(first_third, second_fourth);
}

__attribute__((target("ssse3"))) static inline __m128i encode_characters_128(__m128i indices, __m128i offsets) {
    // 0 for 26-51, 1-10 for 52-61, 11 for 62, 12 for 63, 13 for 0-25.
    __m128i range = _mm_subs_epu8(indices, _mm_set1_epi8(51));
    __m128i upper = _mm_cmpgt_epi8(_mm_set1_epi8(26), indices);
    range = _mm_or_si128(range, _mm_and_si128(upper, _mm_set1_epi8(13)));
    return _mm_add_epi8(indices, _mm_shuffle_epi8(offsets, range));
}

/// Character minus index for each range number of `encode_characters_128`.
__attribute__((target("ssse3"))) static inline __m128i encode_offsets_128(int url) {
    return url ? _mm_setr_epi8(71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '-' - 62, '_' - 63, 65, 0, 0)
               : _mm_setr_epi8(71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '+' - 62, '/' - 63, 65, 0, 0);
}

__attribute__((target("ssse3"))) static size_t encode_ssse3(const uint8_t *in, size_t count, uint8_t *out, int url) {
    const __m128i offsets = encode_offsets_128(url);
    size_t read = 0, written = 0;
    // 16 bytes loaded, 12 used.
    while (read + 16 <= count) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(in + read));
        __m128i characters = encode_characters_128(encode_indices_128(bytes), offsets);
        _mm_storeu_si128((__m128i *)(out + written), characters);
        read += 12;
        written += 16;
    }
    return read;
}

// Low-nibble and high-nibble class tables for validation, and the offsets by high nibble.
#define DECODE_LOW_CLASSES 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A
#define DECODE_HIGH_CLASSES 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10
#define DECODE_OFFSETS 0, 63 - '/', 62 - '+', 52 - '0', -'A', -'A', 26 - 'a', 26 - 'a', 0, 0, 0, 0, 0, 0, 0, 0

__attribute__((target("ssse3"))) static inline __m128i decode_values_128(__m128i characters, __m128i *invalid) {
    const __m128i low_classes = _mm_setr_epi8(DECODE_LOW_CLASSES);
    const __m128i high_classes = _mm_setr_epi8(DECODE_HIGH_CLASSES);
    const __m128i offsets = _mm_setr_epi8(DECODE_OFFSETS);
    __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i high = _mm_and_si128(_mm_srli_epi32(characters, 4), nibble);
    __m128i low = _mm_and_si128(characters, nibble);
    *invalid = _mm_or_si128(*invalid, _mm_and_si128(_mm_shuffle_epi8(low_classes, low), _mm_shuffle_epi8(high_classes, high)));
    __m128i slash = _mm_cmpeq_epi8(characters, _mm_set1_epi8('/'));
    return _mm_add_epi8(characters, _mm_shuffle_epi8(offsets, _mm_add_epi8(high, slash)));
}

/// Four 6-bit values per 32-bit lane → the 3 bytes at the start of each lane's 4 (fourth byte zero).
__attribute__((target("ssse3"))) static inline __m128i decode_pack_128(__m128i values) {
    __m128i pairs = _mm_maddubs_epi16(values, _mm_set1_epi32(0x01400140));
    __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00011000));
    return _mm_shuffle_epi8(quads, _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
}

__attribute__((target("ssse3"))) static size_t decode_ssse3(const uint8_t *in, size_t count, uint8_t *out, size_t capacity, int *invalid) {
    __m128i bad = _mm_setzero_si128();
    size_t read = 0, written = 0;
    // 16 characters → 12 bytes, stored with one 16-byte store.
    while (read + 16 <= count && written + 16 <= capacity) {
        __m128i values = decode_values_128(_mm_loadu_si128((const __m128i *)(in + read)), &bad);
        _mm_storeu_si128((__m128i *)(out + written), decode_pack_128(values));
        read += 16;
        written += 12;
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF) *invalid = 1;
    return read;
}

/// The whole 3-byte groups the vector loops leave (fewer than 28 bytes), one at a time.
static size_t encode_groups_scalar(const uint8_t *in, size_t count, uint8_t *out, int url) {
    static const char standard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const char *characters = url ? safe : standard;
    size_t read = 0, written = 0;
    while (read + 3 <= count) {
        uint32_t group = (uint32_t)in[read] << 16 | (uint32_t)in[read + 1] << 8 | in[read + 2];
        out[written] = (uint8_t)characters[group >> 18];
        out[written + 1] = (uint8_t)characters[(group >> 12) & 63];
        out[written + 2] = (uint8_t)characters[(group >> 6) & 63];
        out[written + 3] = (uint8_t)characters[group & 63];
        read += 3;
        written += 4;
    }
    return read;
}

// MARK: AVX2 (the same steps on two 128-bit lanes)

__attribute__((target("avx2"))) static size_t encode_avx2(const uint8_t *in, size_t count, uint8_t *out, int url) {
    const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                            1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    const __m256i offsets = _mm256_broadcastsi128_si256(encode_offsets_128(url));
    const __m256i mask_first_third = _mm256_set1_epi32(0x0FC0FC00), shift_first_third = _mm256_set1_epi32(0x04000040);
    const __m256i mask_second_fourth = _mm256_set1_epi32(0x003F03F0), shift_second_fourth = _mm256_set1_epi32(0x01000010);
    const __m256i bias = _mm256_set1_epi8(51), twenty_six = _mm256_set1_epi8(26), thirteen = _mm256_set1_epi8(13);
    size_t read = 0, written = 0;
    // Two 16-byte loads 12 bytes apart (28 bytes read, 24 used) → 32 characters.
    while (read + 28 <= count) {
        __m128i low = _mm_loadu_si128((const __m128i *)(in + read));
        __m128i high = _mm_loadu_si128((const __m128i *)(in + read + 12));
        __m256i lanes = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1), spread);
        __m256i indices = _mm256_or_si256(
            _mm256_mulhi_epu16(_mm256_and_si256(lanes, mask_first_third), shift_first_third),
            _mm256_mullo_epi16(_mm256_and_si256(lanes, mask_second_fourth), shift_second_fourth));
        __m256i range = _mm256_subs_epu8(indices, bias);
        range = _mm256_or_si256(range, _mm256_and_si256(_mm256_cmpgt_epi8(twenty_six, indices), thirteen));
        _mm256_storeu_si256((__m256i *)(out + written), _mm256_add_epi8(indices, _mm256_shuffle_epi8(offsets, range)));
        read += 24;
        written += 32;
    }
    // One SSSE3-sized group may remain.
    return read + encode_ssse3(in + read, count - read, out + written, url);
}

__attribute__((target("avx2"))) static size_t decode_avx2(const uint8_t *in, size_t count, uint8_t *out, size_t capacity, int *invalid) {
    const __m256i low_classes = _mm256_setr_epi8(DECODE_LOW_CLASSES, DECODE_LOW_CLASSES);
    const __m256i high_classes = _mm256_setr_epi8(DECODE_HIGH_CLASSES, DECODE_HIGH_CLASSES);
    const __m256i offsets = _mm256_setr_epi8(DECODE_OFFSETS, DECODE_OFFSETS);
    const __m256i nibble = _mm256_set1_epi8(0x0F), slash_character = _mm256_set1_epi8('/');
    const __m256i pair_weights = _mm256_set1_epi32(0x01400140), quad_weights = _mm256_set1_epi32(0x00011000);
    const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                           2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    __m256i bad = _mm256_setzero_si256();
    size_t read = 0, written = 0;
    // 32 characters → 24 bytes, stored with one 32-byte store.
    while (read + 32 <= count && written + 32 <= capacity) {
        __m256i characters = _mm256_loadu_si256((const __m256i *)(in + read));
        __m256i high = _mm256_and_si256(_mm256_srli_epi32(characters, 4), nibble);
        __m256i low = _mm256_and_si256(characters, nibble);
        bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_shuffle_epi8(low_classes, low), _mm256_shuffle_epi8(high_classes, high)));
        __m256i slash = _mm256_cmpeq_epi8(characters, slash_character);
        __m256i values = _mm256_add_epi8(characters, _mm256_shuffle_epi8(offsets, _mm256_add_epi8(high, slash)));
        __m256i quads = _mm256_madd_epi16(_mm256_maddubs_epi16(values, pair_weights), quad_weights);
        __m256i packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, order), gather);
        _mm256_storeu_si256((__m256i *)(out + written), packed);
        read += 32;
        written += 24;
    }
    if (!_mm256_testz_si256(bad, bad)) *invalid = 1;
    return read + decode_ssse3(in + read, count - read, out + written, capacity - written, invalid);
}

// MARK: AVX-512 VBMI (encoding only)

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static size_t encode_avx512vbmi(const uint8_t *in, size_t count, uint8_t *out, int url) {
    // Lane i (of 16) takes bytes 3i+1, 3i, 3i+2, 3i+1 of the 48.
    const __m512i spread = _mm512_setr_epi32(
        0x01020001, 0x04050304, 0x07080607, 0x0A0B090A, 0x0D0E0C0D, 0x10110F10, 0x13141213, 0x16171516,
        0x191A1819, 0x1C1D1B1C, 0x1F201E1F, 0x22232122, 0x25262425, 0x28292728, 0x2B2C2A2B, 0x2E2F2D2E);
    // Per 64-bit word: the fields of its two lanes, at bit offsets 10, 4, 22, 16 and 32 more.
    const __m512i shifts = _mm512_set1_epi64(0x3036242A1016040ALL);
    const __m512i characters = url
        ? _mm512_loadu_si512((const void *)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        : _mm512_loadu_si512((const void *)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    size_t read = 0, written = 0;
    // 64 bytes loaded, 48 used → 64 characters.
    while (read + 64 <= count) {
        __m512i lanes = _mm512_permutexvar_epi8(spread, _mm512_loadu_si512((const void *)(in + read)));
        __m512i indices = _mm512_multishift_epi64_epi8(shifts, lanes);
        _mm512_storeu_si512((void *)(out + written), _mm512_permutexvar_epi8(indices, characters));
        read += 48;
        written += 64;
    }
    return read + encode_avx2(in + read, count - read, out + written, url);
}

static int cached_path = -1;

int cbase64_best_path(void) {
    // Racing first callers compute the same value; an int store is atomic on x86.
    int path = __atomic_load_n(&cached_path, __ATOMIC_RELAXED);
    if (path < 0) {
        path = detect_path();
        __atomic_store_n(&cached_path, path, __ATOMIC_RELAXED);
    }
    return path;
}

size_t cbase64_encode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, int url) {
    if (path > cbase64_best_path()) return 0;
    size_t read;
    switch (path) {
    case CBASE64_PATH_AVX512VBMI: read = encode_avx512vbmi(in, count, out, url); break;
    case CBASE64_PATH_AVX2: read = encode_avx2(in, count, out, url); break;
    case CBASE64_PATH_SSSE3: read = encode_ssse3(in, count, out, url); break;
    default: return 0;
    }
    return read + encode_groups_scalar(in + read, count - read, out + read / 3 * 4, url);
}

size_t cbase64_decode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, size_t capacity, int *invalid) {
    if (path > cbase64_best_path()) return 0;
    switch (path) {
    case CBASE64_PATH_AVX512VBMI:
    case CBASE64_PATH_AVX2: return decode_avx2(in, count, out, capacity, invalid);
    case CBASE64_PATH_SSSE3: return decode_ssse3(in, count, out, capacity, invalid);
    default: return 0;
    }
}

#else  // Other architectures: the scalar code does everything.

int cbase64_best_path(void) { return CBASE64_PATH_SCALAR; }

size_t cbase64_encode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, int url) {
    (void)path; (void)in; (void)count; (void)out; (void)url;
    return 0;
}

size_t cbase64_decode_prefix(int path, const uint8_t *in, size_t count, uint8_t *out, size_t capacity, int *invalid) {
    (void)path; (void)in; (void)count; (void)out; (void)capacity; (void)invalid;
    return 0;
}

#endif

int cbase64_path_available(int path) {
    return path >= CBASE64_PATH_SCALAR && path <= cbase64_best_path();
}
