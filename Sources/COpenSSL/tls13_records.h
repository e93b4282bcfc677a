// SPDX-License-Identifier: MIT
// TLS 1.3 record layer support: HKDF-Expand through libcrypto's EVP_KDF (RFC 5869 expand only).
#ifndef COPENSSL_TLS13_RECORDS_H
#define COPENSSL_TLS13_RECORDS_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

/* HKDF-Expand(secret, info, outLength) with `kdf` (EVP_KDF_fetch(NULL, "HKDF", NULL), fetched once
 * by the caller: fetching by name each time costs more than the expansion) and `digest`
 * ("SHA256", "SHA384"); 1 on success, 0 on failure. */
static inline int copenssl_hkdf_expand(EVP_KDF *kdf, const char *digest, const unsigned char *secret, size_t secretLength,
                                       const unsigned char *info, size_t infoLength,
                                       unsigned char *out, size_t outLength) {
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    if (ctx == NULL) return 0;
    int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
    OSSL_PARAM params[5];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)digest, 0);
    params[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, secretLength);
    params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infoLength);
    params[4] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, outLength, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}
#endif
