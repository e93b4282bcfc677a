// SPDX-License-Identifier: MIT

/// What a connection receives once frames are reassembled: a whole data message or one control frame.
public enum WebSocketMessage: Hashable, Sendable {
    case text(String)
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// A close frame; nil when it carried no status code.
    case close(WebSocketClosePayload?)
}
