// SPDX-License-Identifier: MIT

/// libPusher's `PTPusherDelegate`, Swift-style. Every method has an empty default; all are called
/// on the client's own thread, in the order things happen.
public protocol PusherClientDelegate: AnyObject, Sendable {
    /// `connection_established` arrived.
    func pusherDidConnect(_ client: PusherClient, socketID: String)
    /// The connection was lost or closed; `error` is nil after `disconnect()`.
    func pusher(_ client: PusherClient, didDisconnectWithError error: PusherConnectionError?, willAttemptReconnect: Bool)
    /// The socket could not be opened.
    func pusher(_ client: PusherClient, failedWithError error: PusherConnectionError)
    func pusher(_ client: PusherClient, willAutomaticallyReconnectAfterDelay delay: Double)
    func pusher(_ client: PusherClient, didSubscribeTo channel: String)
    func pusher(_ client: PusherClient, didFailToSubscribeTo channel: String, error: PusherAuthorizationError)
    /// A `pusher:error` event.
    func pusher(_ client: PusherClient, didReceiveErrorEvent code: Int?, message: String)
    /// Every event received (`PTPusherEventReceivedNotification`).
    func pusher(_ client: PusherClient, didReceive event: PusherEventMessage)
}

extension PusherClientDelegate {
    public func pusherDidConnect(_ client: PusherClient, socketID: String) {}
    public func pusher(_ client: PusherClient, didDisconnectWithError error: PusherConnectionError?, willAttemptReconnect: Bool) {}
    public func pusher(_ client: PusherClient, failedWithError error: PusherConnectionError) {}
    public func pusher(_ client: PusherClient, willAutomaticallyReconnectAfterDelay delay: Double) {}
    public func pusher(_ client: PusherClient, didSubscribeTo channel: String) {}
    public func pusher(_ client: PusherClient, didFailToSubscribeTo channel: String, error: PusherAuthorizationError) {}
    public func pusher(_ client: PusherClient, didReceiveErrorEvent code: Int?, message: String) {}
    public func pusher(_ client: PusherClient, didReceive event: PusherEventMessage) {}
}
