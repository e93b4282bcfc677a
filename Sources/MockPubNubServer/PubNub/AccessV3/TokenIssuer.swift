// SPDX-License-Identifier: MIT
import HarnessPrimitives
import PubNubToken

/// Issues and verifies the tokens of one keyset: pure given the secret key.
///
/// The live service's signature input is not public and clients never check `sig`; this
/// service signs the token's CBOR map without `sig` with HMAC-SHA256 under the secret key, so a
/// token verifies only on the keyset that issued it and any edit breaks it.
enum TokenIssuer {
    /// A token for `grant`, issued at Unix second `now`.
    static func issue(_ grant: TokenGrantBody, now: Int64, secretKey: String) -> AccessToken {
        var token = AccessToken(
            timestamp: now, ttl: grant.ttl, resources: grant.resources, patterns: grant.patterns,
            meta: grant.meta, authorizedUUID: grant.authorizedUUID)
        token.signature = signature(of: token, secretKey: secretKey)
        return token
    }

    /// The token in `text` when it parses and carries this keyset's signature.
    static func verified(_ text: String, secretKey: String) -> AccessToken? {
        guard let token = try? AccessToken.parse(text), token.version == 2,
            token.signature == signature(of: token, secretKey: secretKey)
        else { return nil }
        return token
    }

    static func signature(of token: AccessToken, secretKey: String) -> [UInt8] {
        HMAC.sha256(key: Array(secretKey.utf8), data: token.unsignedCBOR)
    }
}
