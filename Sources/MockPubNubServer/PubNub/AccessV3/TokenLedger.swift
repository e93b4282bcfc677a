// SPDX-License-Identifier: MIT

/// What a keyspace remembers about Access Manager v3 tokens: the revoked ones (by signature),
/// and how far its access clock runs ahead of the service clock (moved through
/// `/__admin/access-clock/{subscribeKey}` so cases can let a short token lapse without waiting).
struct TokenLedger: Sendable {
    /// Signatures of revoked tokens (a signature identifies the token that carries it).
    var revoked: Set<[UInt8]> = []
    /// Seconds added to the service clock for token expiry, grant expiry and signature windows of this key.
    var clockOffset: Int64 = 0
}
