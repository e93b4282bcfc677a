// SPDX-License-Identifier: MIT

/// What the bridge does on one connection's socket: the core's actions after the connection's
/// faults were applied.
public indirect enum PusherWireStep: Sendable, Hashable {
    /// A text message (one frame).
    case text(String)
    /// Exact bytes (split or broken frames).
    case raw([UInt8])
    /// A close frame, then close.
    case close(code: UInt16, reason: String)
    /// A WebSocket ping frame.
    case ping
    /// `step`, `milliseconds` later.
    case later(milliseconds: Int, PusherWireStep)
}
