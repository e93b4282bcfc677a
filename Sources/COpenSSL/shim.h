// SPDX-License-Identifier: MIT
// OpenSSL headers for Swift, plus static inline wrappers for the function-like macros Swift cannot import.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <string.h>

static inline long copenssl_ctx_set_min_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_min_proto_version(ctx, v); }
static inline long copenssl_ctx_set_max_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_max_proto_version(ctx, v); }
static inline long copenssl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long copenssl_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long copenssl_ctx_set_options(SSL_CTX *ctx, long options) { return (long)SSL_CTX_set_options(ctx, options); }
static inline int copenssl_bio_get_mem_data(BIO *bio, char **pp) { return (int)BIO_get_mem_data(bio, pp); }
/* TLS module: key generation, option bits and the ALPN policy. */
static inline EVP_PKEY *copenssl_generate_ec_p256_key(void) { return EVP_EC_gen("P-256"); }
static inline uint64_t copenssl_op_ignore_unexpected_eof(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline uint64_t copenssl_op_no_renegotiation(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t copenssl_op_cipher_server_preference(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
static inline long copenssl_ctx_set_options_u64(SSL_CTX *ctx, uint64_t options) { return (long)SSL_CTX_set_options(ctx, options); }
static inline int copenssl_err_get_lib(unsigned long e) { return ERR_GET_LIB(e); }
static inline int copenssl_err_get_reason(unsigned long e) { return ERR_GET_REASON(e); }

/* Server ALPN selection: agree to "http/1.1" when the client offers it, never anything else (no h2). */
static inline int copenssl_alpn_select_http11_only(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                            const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    unsigned int i = 0;
    while (i < inlen) {
        unsigned int len = in[i];
        if (i + 1 + len > inlen) break;
        if (len == 8 && memcmp(in + i + 1, "http/1.1", 8) == 0) {
            *out = in + i + 1;
            *outlen = (unsigned char)len;
            return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + len;
    }
    return SSL_TLSEXT_ERR_NOACK;
}
static inline void copenssl_ctx_use_http11_only_alpn(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, copenssl_alpn_select_http11_only, NULL);
}
#endif
