// SPDX-License-Identifier: MIT
// zlib for Swift, plus a wrapper for the inflateInit2 macro Swift cannot import.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

static inline int czlib_inflate_init_auto(z_stream *stream) {
    /* 15 window bits + 32: accept both gzip and zlib framing, detected from the header. */
    return inflateInit2(stream, 15 + 32);
}

static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    /* 15 window bits + 16: a gzip header and trailer around the deflate stream. */
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
