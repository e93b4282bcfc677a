// SPDX-License-Identifier: MIT

/// A keyset with Access Manager enabled: requests on `subscribeKey` must hold grants.
public struct Keyset: Sendable, Hashable, Codable {
    /// The key in every path; identifies the keyset.
    public var subscribeKey: String
    /// The only publish key accepted with `subscribeKey` (others get `Invalid Key`).
    public var publishKey: String
    /// The HMAC key grant requests are signed with.
    public var secretKey: String

    public init(subscribeKey: String, publishKey: String, secretKey: String) {
        self.subscribeKey = subscribeKey
        self.publishKey = publishKey
        self.secretKey = secretKey
    }
}

/// Tunables of the PubNub service. Keys not listed in `keysets` are open demo keys.
public struct PubNubServiceConfiguration: Sendable {
    /// Keysets with Access Manager on.
    public var keysets: [Keyset]
    /// How long an idle subscribe long-poll is held before it answers with an empty `m`
    /// (UNVERIFIED: the live period is not recorded; 280 s stays under every SDK's client timeout).
    public var longPollIdleTimeout: Duration
    /// When set, a client's `heartbeat` value below this is raised to it.
    public var presenceTimeoutFloor: Int?
    /// The presence timeout (seconds) of a uuid that sends no `heartbeat` parameter.
    public var defaultPresenceTimeout: Int
    /// The region (`r`) reported in every timetoken object.
    public var region: Int
    /// The shard id (`a`) of every envelope.
    public var shard: String
    /// How many messages each channel keeps (history and the live catch-up buffer share it).
    public var historyLimitPerChannel: Int
    /// Accepted distance between a signed request's `timestamp` and the service clock.
    public var pamTimestampWindow: Duration
    /// The largest publish payload (bytes of JSON text) accepted.
    public var maxMessageBytes: Int
    /// The largest signal payload (bytes of JSON text) accepted.
    public var maxSignalBytes: Int
    /// The most envelopes one subscribe response carries; the cursor then points at the last one.
    public var maxMessagesPerSubscribeResponse: Int
    /// Whether a fire (`store=0` with `norep=true|1`) reaches subscribers. UNVERIFIED: PubNub
    /// delivers fired messages to Functions only, so the default is `false`.
    public var deliverFiredMessages: Bool
    /// File sharing: size limits, upload URL lifetime, the storage cap per subscribe key.
    public var files = FileServiceSettings()
    /// Add-on and admin switches of every key without an override (docs/endpoints.md).
    public var features = KeyFeatures()
    /// Per subscribe key overrides of `features`.
    public var featuresByKey: [String: KeyFeatures] = [:]

    public init(
        keysets: [Keyset] = [],
        longPollIdleTimeout: Duration = .seconds(280),
        presenceTimeoutFloor: Int? = nil,
        defaultPresenceTimeout: Int = 300,
        region: Int = 12,
        shard: String = "2",
        historyLimitPerChannel: Int = 1000,
        pamTimestampWindow: Duration = .seconds(600),
        maxMessageBytes: Int = 32 * 1024,
        maxSignalBytes: Int = 64,
        maxMessagesPerSubscribeResponse: Int = 100,
        deliverFiredMessages: Bool = false
    ) {
        self.keysets = keysets
        self.longPollIdleTimeout = longPollIdleTimeout
        self.presenceTimeoutFloor = presenceTimeoutFloor
        self.defaultPresenceTimeout = defaultPresenceTimeout
        self.region = region
        self.shard = shard
        self.historyLimitPerChannel = historyLimitPerChannel
        self.pamTimestampWindow = pamTimestampWindow
        self.maxMessageBytes = maxMessageBytes
        self.maxSignalBytes = maxSignalBytes
        self.maxMessagesPerSubscribeResponse = maxMessagesPerSubscribeResponse
        self.deliverFiredMessages = deliverFiredMessages
    }
}
