// SPDX-License-Identifier: MIT
import HarnessJSON

/// The timers the state machine asks its driver to run; scheduling one replaces the pending one
/// of the same kind.
public enum PusherClientTimer: Sendable, Hashable {
    /// Waiting before an automatic reconnect.
    case reconnect
    /// Silence on the socket: send `pusher:ping` when it fires.
    case activity
    /// A `pusher:ping` went unanswered: the connection is dead when it fires.
    case pong
}

/// Everything that happens to the client: API calls, socket events, timers, authorizations.
public enum PusherClientInput: Sendable, Hashable {
    case connect
    case disconnect
    /// New settings from the app (libPusher lets the app raise `reconnectDelay` or turn
    /// `reconnectAutomatically` off at any time); a reconnect already scheduled keeps its delay.
    case updateSettings(PusherConnectionSettings)
    case subscribe(channel: String)
    case unsubscribe(channel: String)
    /// A client event; the name already carries `client-`.
    case trigger(event: String, data: JSONValue, channel: String)
    /// The WebSocket upgrade succeeded.
    case socketOpened
    /// The socket could not be opened (connect, TLS, upgrade).
    case socketOpenFailed(PusherTransportError)
    /// A complete text message arrived.
    case socketText(String)
    /// A control frame (ping or pong) arrived; it counts as activity.
    case socketControlFrame
    /// The server closed the socket with a close frame (`code` nil when the frame had no code).
    case socketClosed(code: Int?, reason: String)
    /// The open socket failed, or ended without a close frame.
    case socketFailed(PusherTransportError)
    case timerFired(PusherClientTimer)
    /// An authorization the machine asked for has finished.
    case authorizationFinished(PusherAuthorizationRequest, Result<PusherChannelAuthorization, PusherAuthorizationError>)
    /// The app asked to sign in (pusher-js `signin()`).
    case signin
    /// A user authentication the machine asked for has finished.
    case userAuthenticationFinished(socketID: String, Result<PusherUserAuthentication, PusherAuthorizationError>)
}

/// What the driver must do, in order.
public enum PusherClientAction: Sendable, Hashable {
    /// Open the WebSocket (connect, TLS, upgrade), then report `socketOpened` or `socketOpenFailed`.
    case openSocket
    /// Send one text message.
    case send(String)
    /// Start the close handshake (or stop an opening in progress); report `socketClosed` or
    /// `socketFailed` once it is over.
    case closeSocket(code: Int)
    /// Drop the socket without a handshake and report nothing more about it.
    case abortSocket
    case schedule(PusherClientTimer, after: Double)
    case cancel(PusherClientTimer)
    /// Ask the authorizer; report `authorizationFinished` with the same request.
    case authorize(PusherAuthorizationRequest)
    /// Deliver to the app.
    case emit(PusherClientEvent)
    /// Ask the user endpoint for this socket id; report `userAuthenticationFinished`.
    case authenticateUser(socketID: String)
}

/// Where the connection is.
public enum PusherConnectionState: Sendable, Hashable {
    case disconnected
    /// The socket is being opened.
    case connecting
    /// The socket is open; `connection_established` has not arrived yet.
    case awaitingHandshake
    case connected(socketID: String)
    /// An automatic reconnect is scheduled.
    case waitingToReconnect
    /// The app asked to disconnect; the close handshake is under way.
    case disconnecting
}
