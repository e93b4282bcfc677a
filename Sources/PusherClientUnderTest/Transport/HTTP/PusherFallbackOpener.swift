// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// Opens a WebSocket and, when its upgrade is refused (as by a proxy that blocks WebSockets),
/// falls back to `xhr_streaming`, then to `xhr_polling` if the stream is refused too: each a new
/// session under `/pusher/app/KEY/` on the same host and port.
struct PusherFallbackOpener: PusherSocketOpener {
    let webSocket: PusherWebSocketOpener
    let key: String
    /// `protocol=…&client=…&version=…` of the HTTP sessions.
    let query: String

    func open(cancel: CancellationSignal) -> Result<any PusherSocket, PusherTransportError> {
        let opened = webSocket.open(cancel: cancel)
        guard case .failure(let error) = opened, error.kind == .handshake else { return opened }
        let location = PusherHTTPLocation(
            host: webSocket.host, port: webSocket.port, trust: webSocket.trust, base: "/pusher/app/\(FormEncoding.encode(key))/\(Self.session())",
            query: query, timeout: webSocket.timeout)
        let streaming = PusherHTTPSocket.open(.streaming, at: location, cancel: cancel)
        guard case .failure = streaming else { return streaming }
        let polling = PusherHTTPSocket.open(.polling, at: location, cancel: cancel)
        guard case .failure(let pollingError) = polling else { return polling }
        return .failure(PusherTransportError(pollingError.kind, "websocket: \(error.message); then \(pollingError.message)"))
    }

    /// `SERVER/SESSION`: a number below 1000 and eight base-32 characters, new for every session.
    static func session() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefghijklmnopqrstuv")
        let session = String((0..<8).map { _ in alphabet[Int.random(in: 0..<32, using: &generator)] })
        return "\(Int.random(in: 0..<1000, using: &generator))/\(session)"
    }
}
