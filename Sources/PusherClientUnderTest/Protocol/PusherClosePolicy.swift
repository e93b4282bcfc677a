// SPDX-License-Identifier: MIT

/// What the client does after the connection is lost (libPusher's `PTPusherAutoReconnectMode`).
public enum PusherReconnectMode: Sendable, Hashable {
    /// Do not reconnect.
    case none
    /// Reconnect at once.
    case immediately
    /// Reconnect after `reconnectDelay`.
    case configuredDelay
    /// Reconnect after `reconnectDelay × attempt`.
    case backoff
}

/// How close codes are read (spec §5, libPusher's `PTPusher.m`
/// `pusherConnection:didDisconnectWithCode:reason:wasClean:`).
public struct PusherClosePolicy: Sendable, Hashable {
    /// The codes reported in libPusher's `PTPusherFatalErrorDomain`. libPusher tests
    /// `errorCode >= 400 && errorCode <= 4099` (a typo for 4000), so 400…4099 is the default; the
    /// documented domain is 4000…4099. Only the reported error is affected: whether to reconnect
    /// is decided by ``mode(forCloseCode:)`` from the code itself.
    public var fatalDomain: ClosedRange<Int>

    /// libPusher's classification, quirk included.
    public static let libPusher = PusherClosePolicy(fatalDomain: 400...4099)
    /// The classification the protocol documents (4000…4099 fatal).
    public static let documented = PusherClosePolicy(fatalDomain: 4000...4099)

    public init(fatalDomain: ClosedRange<Int>) {
        self.fatalDomain = fatalDomain
    }

    /// 1000/1001 → the configured delay; 4000–4099 → never (app error: TLS only, unknown app,
    /// disabled, over quota, bad path or protocol, unauthorized); 4200–4299 → at once; everything
    /// else (1002–3999, 4100–4199 over capacity, ≥ 4300) → back off.
    public func mode(forCloseCode code: Int) -> PusherReconnectMode {
        switch code {
        case 1000, 1001: .configuredDelay
        case 4000...4099: .none
        case 4200...4299: .immediately
        default: .backoff
        }
    }

    public func isFatalDomain(_ code: Int) -> Bool { fatalDomain.contains(code) }
}
