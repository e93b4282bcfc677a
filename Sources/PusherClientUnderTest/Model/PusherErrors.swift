// SPDX-License-Identifier: MIT

/// Why the WebSocket could not be opened or broke while open (below the Pusher protocol).
public struct PusherTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// TCP connect, name resolution, or a local socket failure.
        case connect
        /// TLS handshake or certificate trust.
        case tls
        /// The HTTP upgrade was refused or its answer was wrong (status, `Sec-WebSocket-Accept`).
        case handshake
        /// Reading or writing failed, or the peer broke RFC 6455.
        case io
        /// The connection ended without a close frame.
        case endOfStream
        /// No pong (and no other traffic) within the pong timeout after a `pusher:ping`.
        case pongTimeout
        /// A deadline passed while connecting.
        case timedOut
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}

/// How a connection ended or failed, as reported to the app (libPusher's `NSError`).
public enum PusherConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server closed the socket with this close code and reason. `isFatalDomain` is libPusher's
    /// `PTPusherFatalErrorDomain` classification (see ``PusherClosePolicy``).
    case closed(code: Int, reason: String, isFatalDomain: Bool)
    /// The socket failed below the Pusher protocol.
    case transport(PusherTransportError)
    /// The server's first message was not a usable `pusher:connection_established`.
    case malformedHandshake(String)

    public var description: String {
        switch self {
        case .closed(let code, let reason, let fatal): "closed with \(code) \(reason.isEmpty ? "" : "(\(reason)) ")\(fatal ? "[fatal domain]" : "")"
        case .transport(let error): "transport: \(error)"
        case .malformedHandshake(let why): "malformed connection_established: \(why)"
        }
    }
}

/// Why a private or presence channel could not be authorized.
public enum PusherAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `authorizationURL` and no authorizer closure is configured.
    case noAuthorizer
    /// The auth endpoint answered with a status other than 200 or 201.
    case status(Int, body: String)
    /// The auth endpoint's body is not `{"auth": String, "channel_data"?: String}`.
    case malformedResponse(String)
    /// The auth request could not be sent or answered.
    case transport(String)
    /// The local authorizer closure refused.
    case refused(String)
    /// The answer for an encrypted channel has no `shared_secret` (pusher-js refuses the same way).
    case missingSharedSecret(channel: String)

    public var description: String {
        switch self {
        case .noAuthorizer: "no authorization URL or authorizer configured"
        case .status(let code, let body): "auth endpoint answered \(code): \(body)"
        case .malformedResponse(let why): "malformed auth response: \(why)"
        case .transport(let why): "auth request failed: \(why)"
        case .refused(let why): "authorizer refused: \(why)"
        case .missingSharedSecret(let channel): "no shared_secret in the auth answer for encrypted channel \(channel)"
        }
    }
}

/// Why `trigger(event:data:on:)` was refused at once.
public enum PusherTriggerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Client events go only to private and presence channels.
    case publicChannel(String)
    /// The channel was never subscribed to.
    case unknownChannel(String)
    /// Client events are not supported on encrypted channels (spec §4.3).
    case encryptedChannel(String)

    public var description: String {
        switch self {
        case .publicChannel(let name): "client events are only supported on private and presence channels, not \(name)"
        case .unknownChannel(let name): "not subscribed to \(name)"
        case .encryptedChannel(let name): "client events are not supported on encrypted channels (\(name))"
        }
    }
}
