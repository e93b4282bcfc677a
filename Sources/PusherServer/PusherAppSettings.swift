// SPDX-License-Identifier: MIT
import HarnessPrimitives
import MockPusher

/// The per-app feature settings `serve --pusher-app ID:KEY:SECRET,SETTING,…` and
/// `POST /__admin/pusher/apps` share (docs/pusher.md, "App settings"):
/// `subscription-count` (`pusher_internal:subscription_count`, off by default), `cache-ttl=SECONDS`
/// (how long a cache channel keeps its last event, 0 < s ≤ 1800; default 1800), `no-cache` and
/// `encryption-master-key=BASE64` (32 bytes: the key of `private-encrypted-` channels, spec §4.3).
public enum PusherAppSettings {
    /// The largest TTL: the service keeps a cached event up to 30 minutes (spec §3.7).
    public static let maximumCacheTTLMilliseconds = 1_800_000

    /// Applies one `NAME[=VALUE]` setting; the error is the reason for the one-line message.
    public static func apply(_ setting: String, to options: inout PusherAppOptions) throws(Refusal) {
        let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count == 2 ? parts[1] : nil) {
        case ("subscription-count", nil): options.subscriptionCountEvents = true
        case ("no-cache", nil): options.cacheChannelsEnabled = false
        case ("cache-ttl", let value?):
            guard let seconds = Double(value), seconds.isFinite, seconds > 0,
                  seconds * 1000 <= Double(maximumCacheTTLMilliseconds), seconds * 1000 >= 1
            else { throw Refusal("cache-ttl: expected seconds from 0.001 to 1800, got '\(value)'") }
            options.cacheTTL = .milliseconds(Int64((seconds * 1000).rounded()))
        case ("encryption-master-key", let value?):
            options.encryptionMasterKey = try masterKey(base64: value, name: "encryption-master-key")
        default:
            throw Refusal("unknown setting '\(setting)' (expected subscription-count, cache-ttl=SECONDS, no-cache or encryption-master-key=BASE64)")
        }
    }

    /// The settings of the admin route's body: `subscriptionCount` and `cacheChannels` (booleans),
    /// `cacheTtlMs` (1 to 1,800,000).
    public static func apply(subscriptionCount: Bool?, cacheChannels: Bool?, cacheTTLMilliseconds: Int?, to options: inout PusherAppOptions) {
        if let subscriptionCount { options.subscriptionCountEvents = subscriptionCount }
        if let cacheChannels { options.cacheChannelsEnabled = cacheChannels }
        if let cacheTTLMilliseconds { options.cacheTTL = .milliseconds(cacheTTLMilliseconds) }
    }

    /// The bytes of a base64 encryption master key: exactly 32 (what the official HTTP libraries
    /// require of `encryption_master_key_base64`); `name` prefixes the refusal.
    public static func masterKey(base64 text: String, name: String) throws(Refusal) -> [UInt8] {
        guard let bytes = try? ByteEncoding.bytes(fromBase64: text) else {
            throw Refusal("\(name): not valid base64 ('\(text.prefix(60))')")
        }
        guard bytes.count == 32 else { throw Refusal("\(name): expected base64 of 32 bytes, got \(bytes.count) bytes") }
        return bytes
    }

    /// Why a setting was refused.
    public struct Refusal: Error, Sendable, Hashable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }
}
