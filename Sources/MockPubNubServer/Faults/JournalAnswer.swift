// SPDX-License-Identifier: MIT
import CPosix
import HarnessJSON

/// How the server answered a journalled request, as handed to the transport.
public struct JournalAnswer: Sendable, Hashable, Codable {
    /// What the server did: `respond`, `raw` (exact bytes, broken framing), `drip`, `close`
    /// (nothing sent), `hang` (nothing sent, connection kept), or `cancelled` (the client closed
    /// the connection before any answer).
    public var kind: String
    /// The status of a `respond` answer.
    public var status: Int?
    /// Body bytes of a `respond` answer; every byte of a `raw` or `drip` answer; 0 otherwise.
    public var bytes: Int
    /// Milliseconds from the request's arrival to the answer: the service's time plus the
    /// delays and drip intervals the answer carries (planned, not measured on the wire).
    public var durationMs: Double
    /// How the connection ends after the answer: `keep-alive`, `fin` or `reset`; absent for
    /// `hang` and `cancelled`.
    public var close: String?

    public init(kind: String, status: Int? = nil, bytes: Int = 0, durationMs: Double, close: String? = nil) {
        self.kind = kind
        self.status = status
        self.bytes = bytes
        self.durationMs = durationMs
        self.close = close
    }

    /// The answer `action` describes, handed over `elapsedMs` after the request arrived (pure).
    public init(_ action: ResponseAction, elapsedMs: Double) {
        switch action {
        case .respond(let response):
            self.init(kind: "respond", status: response.status, bytes: response.body.count, durationMs: elapsedMs,
                      close: CloseMode.keepAlive.rawValue)
        case .raw(let bytes, let then):
            self.init(kind: "raw", bytes: bytes.count, durationMs: elapsedMs, close: then.rawValue)
        case .drip(let bytes, let chunkSize, let interval, let then):
            let pieces = max(1, (bytes.count + max(1, chunkSize) - 1) / max(1, chunkSize))
            self.init(kind: "drip", bytes: bytes.count, durationMs: elapsedMs + Self.milliseconds(interval) * Double(pieces - 1),
                      close: then.rawValue)
        case .delay(let delay, let then):
            self.init(then, elapsedMs: elapsedMs + Self.milliseconds(delay))
        case .close(let mode):
            self.init(kind: "close", durationMs: elapsedMs, close: mode.rawValue)
        case .hang:
            self.init(kind: "hang", durationMs: elapsedMs)
        case .stream(let response, _):
            self.init(kind: "stream", status: response.status, bytes: response.body.count, durationMs: elapsedMs)
        }
    }

    /// The admin API's JSON form (absent fields omitted).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind))]
        if let status { members.append(("status", .int(status))) }
        members.append(("bytes", .int(bytes)))
        members.append(("durationMs", .double((durationMs * 1_000).rounded() / 1_000)))
        if let close { members.append(("close", .string(close))) }
        return .object(JSONObject(members))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
