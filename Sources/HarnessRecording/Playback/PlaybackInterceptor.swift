// SPDX-License-Identifier: MIT
import HarnessPrimitives
import MockPubNubServer
import Synchronization

/// How playback times its answers.
public enum PlaybackTiming: String, Sendable, Hashable, CaseIterable {
    /// After as long as the recorded answer took (a long-poll waits as it did).
    case recorded
    /// At once.
    case immediate
}

/// `serve --playback RECORDING`: answers the recorded exchanges, in order, to requests of the
/// same shape (``PlaybackBook``); every other request (and every request once its shape's
/// recorded answers are used up) is the mock's. Placeholders in a recorded answer are filled
/// with the request's own keys and auth values; the transport adds its cross-origin fields and
/// `Date` as to every answer of the mock.
public final class PlaybackInterceptor: RequestInterceptor {
    private let book: Mutex<PlaybackBook>
    public let timing: PlaybackTiming
    /// Recorded answers in the recording.
    public let recordedCount: Int

    public init(recording: Recording, timing: PlaybackTiming = .recorded) {
        let book = PlaybackBook(recording)
        recordedCount = book.remaining
        self.book = Mutex(book)
        self.timing = timing
    }

    /// Recorded answers not used yet.
    public var remaining: Int { book.withLock { $0.remaining } }

    public func answer(to request: HTTPRequest, context: RequestContext) -> ResponseAction? {
        guard let exchange = book.withLock({ $0.take(for: request) }), let recorded = exchange.response else { return nil }
        let values = Self.placeholderValues(recorded: exchange.request, request: request)
        let response = Self.response(recorded, filling: values)
        guard timing == .recorded, exchange.durationMs >= 1 else { return .respond(response) }
        return .delay(.milliseconds(Int64(exchange.durationMs)), then: .respond(response))
    }

    /// The fields a recorded answer loses in playback: framing, the coding its stored body no
    /// longer has, and the fields the mock's transport adds itself.
    static let droppedFields: Set<String> = ["content-length", "connection", "transfer-encoding", "keep-alive", "content-encoding", "date"]

    static func response(_ recorded: RecordedResponse, filling values: [String: String]) -> HTTPResponse {
        func fill(_ text: String) -> String {
            var out = text
            for (placeholder, value) in values where out.contains(placeholder) { out = out.replacingOccurrences(of: placeholder, with: value) }
            return out
        }
        var headers = HTTPHeaders()
        for field in recorded.headers {
            let lower = field.name.lowercased()
            if droppedFields.contains(lower) || lower.hasPrefix("access-control-") { continue }
            headers.add(field.name, fill(field.value))
        }
        var body = recorded.bodyBytes
        if let text = recorded.body { body = Array(fill(text).utf8) }
        return HTTPResponse(status: recorded.status, headers: headers, body: body)
    }

    /// Each placeholder of the recorded request and the value the request has in its place (path
    /// segments and query values).
    static func placeholderValues(recorded: RecordedRequest, request: HTTPRequest) -> [String: String] {
        var values: [String: String] = [:]
        let old = recorded.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let new = request.rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (was, now) in zip(old, new) where PlaybackBook.placeholderKind(was) != nil {
            values[was] = PercentCoding.decode(now, plusAsSpace: false) ?? now
        }
        let query = request.queryItems ?? []
        for item in recorded.query where PlaybackBook.placeholderKind(item.value) != nil {
            if let now = query.first(where: { $0.name == item.name })?.value { values[item.value] = now }
        }
        return values
    }
}
