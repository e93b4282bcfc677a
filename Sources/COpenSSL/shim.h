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

static inline long copenssl_ctx_set_min_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_min_proto_version(ctx, v); }
static inline long copenssl_ctx_set_max_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_max_proto_version(ctx, v); }
static inline long copenssl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long copenssl_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long copenssl_ctx_set_options(SSL_CTX *ctx, long options) { return (long)SSL_CTX_set_options(ctx, options); }
static inline int copenssl_bio_get_mem_data(BIO *bio, char **pp) { return (int)BIO_get_mem_data(bio, pp); }
#endif
