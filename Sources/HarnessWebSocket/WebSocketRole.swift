// SPDX-License-Identifier: MIT

/// Which end of the connection a codec serves: servers receive masked frames and send unmasked
/// ones, clients the other way round (RFC 6455 §5.1).
public enum WebSocketRole: Sendable, Hashable {
    case server
    case client

    /// Whether frames this role receives must be masked.
    public var expectsMaskedFrames: Bool { self == .server }
}
