// SPDX-License-Identifier: MIT

/// The timing and framing choices of the HTTP fallback transports (UNVERIFIED against the live
/// service; the defaults are the SockJS protocol's, which the client's framing follows).
public struct PusherHTTPSessionSettings: Sendable, Hashable {
    /// A heartbeat (`h`) goes to an idle receiver after this long: a streaming answer gets one
    /// line, a held poll is answered with it.
    public var heartbeatMilliseconds: Int64
    /// A session with no receiving request (stream or poll) for this long has lost its client:
    /// it ends as a connection gone without a close.
    public var disconnectMilliseconds: Int64
    /// Whether a streaming answer starts with the 2 KB prelude (`PusherHTTPFrames.streamingPrelude`).
    public var streamingPrelude: Bool

    public init(heartbeatMilliseconds: Int64 = 25_000, disconnectMilliseconds: Int64 = 5_000, streamingPrelude: Bool = true) {
        self.heartbeatMilliseconds = max(1, heartbeatMilliseconds)
        self.disconnectMilliseconds = max(1, disconnectMilliseconds)
        self.streamingPrelude = streamingPrelude
    }
}
