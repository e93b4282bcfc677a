// SPDX-License-Identifier: MIT
import HarnessHTTP
import HarnessHTTPClient
import HarnessJSON

/// Where an HTTP fallback session lives: `/pusher/app/KEY/SERVER/SESSION/` on the WebSocket's
/// host and port, and the connection query every receiving request carries.
struct PusherHTTPLocation: Sendable {
    let host: String
    let port: Int
    let trust: HTTPTrust?
    /// `/pusher/app/KEY/SERVER/SESSION`.
    let base: String
    /// `protocol=…&client=…&version=…`.
    let query: String
    let timeout: Double

    var hostHeader: String {
        (host.contains(":") ? "[\(host)]" : host) + ((trust == nil && port == 80) || (trust != nil && port == 443) ? "" : ":\(port)")
    }

    /// A `POST` of `body` to `BASE/kind` (with the query on receiving requests), as wire bytes.
    func request(_ kind: String, body: [UInt8] = [], withQuery: Bool) -> [UInt8] {
        let target = base + "/" + kind + (withQuery ? "?" + query : "")
        let head = "POST \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    func connect(cancel: CancellationSignal) throws(PusherTransportError) -> ClientConnection {
        do {
            return try ClientConnection.connect(host: host, port: port, trust: trust, timeout: timeout, cancel: cancel)
        } catch {
            throw PusherWebSocketOpener.classify(error)
        }
    }
}

/// A Pusher connection over `xhr_streaming` (one answer held open) or `xhr_polling` (one poll
/// after another on a kept-alive connection), as the runtime drives a socket: the receiving
/// request's descriptor is polled; messages go out as `xhr_send` requests, each on a connection
/// of its own (blocking, on the runtime's thread).
final class PusherHTTPSocket: PusherSocket {
    enum Mode: String, Sendable {
        case streaming = "xhr_streaming"
        case polling = "xhr"
    }

    let mode: Mode
    private let location: PusherHTTPLocation
    private let cancel: CancellationSignal
    private var receiving: ClientConnection
    private var reader = PusherHTTPResponseReader()
    private var parser = PusherHTTPFrameParser()
    /// Events decoded already and not handed to the runtime yet.
    private var queued: [PusherSocketEvent] = []
    private var closed = false
    /// Whether `o` arrived (what comes before it, the streaming prelude, is not the session's).
    private var sawOpen = false

    private init(mode: Mode, location: PusherHTTPLocation, cancel: CancellationSignal, receiving: ClientConnection) {
        self.mode = mode
        self.location = location
        self.cancel = cancel
        self.receiving = receiving
    }

    /// Opens the session: the first receiving request, answered 200 with `o` (within the timeout).
    static func open(_ mode: Mode, at location: PusherHTTPLocation, cancel: CancellationSignal) -> Result<any PusherSocket, PusherTransportError> {
        let deadline = PusherClock.now() + Int64(location.timeout * 1000)
        do throws(PusherTransportError) {
            let connection = try location.connect(cancel: cancel)
            let socket = PusherHTTPSocket(mode: mode, location: location, cancel: cancel, receiving: connection)
            try socket.sendReceivingRequest()
            // Until `o`: what follows it is kept for the runtime's first read.
            while true {
                let events = try socket.receive(timeout: PusherClock.secondsLeft(until: deadline))
                if socket.reader.head.map({ $0.status != 200 }) == true {
                    let status = socket.reader.head?.status ?? 0
                    socket.abort()
                    return .failure(PusherTransportError(.handshake, "\(mode.rawValue) refused: HTTP \(status)"))
                }
                if socket.sawOpen {
                    socket.queued = events.filter { $0 != .controlFrame }
                    return .success(socket)
                }
                if let failure = events.first(where: { if case .failed = $0 { true } else { false } }), case .failed(let error) = failure {
                    socket.abort()
                    return .failure(PusherTransportError(.handshake, "\(mode.rawValue): \(error.message)"))
                }
            }
        } catch {
            return .failure(error)
        }
    }

    var fileDescriptor: Int32 { receiving.fileDescriptor }
    var hasBufferedInput: Bool { !closed && (!queued.isEmpty || receiving.hasBufferedBytes) }

    func read(socketReadable: Bool) -> [PusherSocketEvent] {
        guard !closed else { return [] }
        var events = queued
        queued = []
        if socketReadable || receiving.hasBufferedBytes {
            do throws(PusherTransportError) {
                events += try receive(timeout: 5)
            } catch {
                abort()
                events.append(.failed(error))
            }
        }
        if events.contains(where: { if case .closed = $0 { true } else { false } }) { abort() }
        return events
    }

    func send(text: String) throws(PusherTransportError) {
        try post(JSONValue.array([.string(text)]).jsonText)
    }

    /// Over HTTP the client just stops receiving (the server expires the session): the close is
    /// reported at once.
    func sendClose(code: Int) {
        guard !closed else { return }
        queued.append(.closed(code: code, reason: ""))
    }

    func abort() {
        guard !closed else { return }
        closed = true
        receiving.close()
    }

    // MARK: - Receiving

    private func sendReceivingRequest() throws(PusherTransportError) {
        do {
            try receiving.send(location.request(mode.rawValue, withQuery: true), timeout: location.timeout)
        } catch {
            throw PusherTransportError(.io, error.description)
        }
    }

    /// One read from the receiving request, decoded into events; a poll answered in full is
    /// followed by the next poll.
    private func receive(timeout: Double) throws(PusherTransportError) -> [PusherSocketEvent] {
        let bytes: [UInt8]
        do {
            bytes = try receiving.receive(maxCount: 64 * 1024, timeout: max(0.001, timeout))
        } catch {
            throw PusherTransportError(.io, error.description)
        }
        if bytes.isEmpty { return [.failed(PusherTransportError(.endOfStream, "\(mode.rawValue) request ended by the server"))] }
        var events: [PusherSocketEvent] = []
        do {
            let body = try reader.feed(bytes)
            guard reader.head?.status == 200 else { return [] }
            for frame in try parser.feed(body) {
                switch frame {
                case .open:
                    sawOpen = true
                    events.append(.controlFrame)
                case .heartbeat:
                    events.append(.controlFrame)
                    // As the reference client does: a streamed heartbeat of an open session is answered with `[]`.
                    if mode == .streaming, sawOpen { try? post("[]") }
                case .messages(let messages):
                    events += messages.map(PusherSocketEvent.text)
                case let .close(code, reason):
                    events.append(.closed(code: code, reason: reason))
                    return events
                }
            }
        } catch {
            return events + [.failed(PusherTransportError(.io, "\(mode.rawValue): \(error)"))]
        }
        if reader.complete {
            guard mode == .polling else { return events + [.failed(PusherTransportError(.endOfStream, "the stream ended"))] }
            reader = PusherHTTPResponseReader()
            try sendReceivingRequest()
        }
        return events
    }

    // MARK: - Sending

    /// One `xhr_send` with `body` on a connection of its own; a 2xx answer is success.
    private func post(_ body: String) throws(PusherTransportError) {
        let connection = try location.connect(cancel: cancel)
        defer { connection.close() }
        var reader = PusherHTTPResponseReader()
        do {
            try connection.send(location.request("xhr_send", body: Array(body.utf8), withQuery: false), timeout: location.timeout)
            while !reader.complete {
                let bytes = try connection.receive(maxCount: 4096, timeout: location.timeout)
                if bytes.isEmpty { break }
                _ = try reader.feed(bytes)
            }
        } catch let error as HTTPClientError {
            throw PusherTransportError(.io, "xhr_send: \(error.description)")
        } catch {
            throw PusherTransportError(.io, "xhr_send: \(error)")
        }
        guard let status = reader.head?.status, (200..<300).contains(status) else {
            throw PusherTransportError(.io, "xhr_send answered \(reader.head.map { String($0.status) } ?? "nothing")")
        }
    }
}
