// SPDX-License-Identifier: MIT
import HarnessPrimitives
import MockPubNubServer

/// The recorded answers of a recording, by the shape of their requests, taken in order (pure).
///
/// A request's shape is its method, its path and its query with keys, tokens and auth keys
/// reduced to their kind (`{sub-key}`, `{auth}`), the parameters that change on every call
/// (`pnsdk`, `requestid`, `signature`, `timestamp`, `instanceid`, latency reports `l_*`) left
/// out, the values of parameters that held a placeholder anywhere in the recording (`auth`,
/// `token`, and every `--redact` name) masked, and the rest sorted: the request a client sends
/// again when it meets the same answers.
struct PlaybackBook: Sendable {
    /// Query parameters left out of a shape.
    static let volatileParameters: Set<String> = ["pnsdk", "requestid", "signature", "timestamp", "instanceid"]

    private var queues: [String: [RecordedExchange]] = [:]
    private var taken: [String: Int] = [:]
    /// Parameters whose values are masked in shapes.
    let masked: Set<String>

    init(_ recording: Recording) {
        var masked: Set<String> = ["auth", "token"]
        for exchange in recording.exchanges {
            for item in exchange.request.query where Self.placeholderKind(item.value) != nil { masked.insert(item.name) }
        }
        self.masked = masked
        for exchange in recording.exchangesByStart where exchange.outcome == .answered && exchange.response != nil {
            queues[Self.shape(of: exchange.request, masked: masked), default: []].append(exchange)
        }
    }

    /// The next recorded exchange of `request`'s shape, or nil when none is left.
    mutating func take(for request: HTTPRequest) -> RecordedExchange? {
        let key = Self.shape(of: request, masked: masked)
        let index = taken[key] ?? 0
        guard let queue = queues[key], index < queue.count else { return nil }
        taken[key] = index + 1
        return queue[index]
    }

    /// How many recorded answers were not used yet.
    var remaining: Int { queues.reduce(0) { $0 + $1.value.count - (taken[$1.key] ?? 0) } }

    /// The shape of a recorded request (`masked` parameters' values as `{*}`).
    static func shape(of request: RecordedRequest, masked: Set<String>) -> String {
        let path = request.path.split(separator: "/", omittingEmptySubsequences: false).map { raw -> String in
            let text = String(raw)
            if let kind = placeholderKind(text) { return "{\(kind)}" }
            return PercentCoding.decode(text, plusAsSpace: false) ?? text
        }
        return compose(method: request.method, path: path, query: request.query.map { ($0.name, $0.value) }, masked: masked)
    }

    /// The shape of a request a client sends.
    static func shape(of request: HTTPRequest, masked: Set<String>) -> String {
        let route = try? PubNubRoute.classify(request).get()
        let secrets: [(String?, String)] = [(route?.subscribeKey, "sub-key"), (route?.publishKey, "pub-key"), (route?.token, "token")]
        let path = request.rawPath.split(separator: "/", omittingEmptySubsequences: false).map { raw -> String in
            let decoded = PercentCoding.decode(String(raw), plusAsSpace: false) ?? String(raw)
            for (value, kind) in secrets where value == decoded && !decoded.isEmpty { return "{\(kind)}" }
            for (prefix, kind) in [("sub-c-", "sub-key"), ("pub-c-", "pub-key")] where decoded.hasPrefix(prefix) { return "{\(kind)}" }
            return decoded
        }
        return compose(method: request.method, path: path, query: (request.queryItems ?? []).map { ($0.name, $0.value) }, masked: masked)
    }

    private static func compose(method: String, path: [String], query: [(String, String)], masked: Set<String>) -> String {
        let kept = query.filter { !volatileParameters.contains($0.0) && !$0.0.hasPrefix("l_") }
            .map { (name, value) in (name, masked.contains(name) ? "{*}" : value) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { $0.0 + "=" + $0.1 }
        return method + " " + path.joined(separator: "/") + "?" + kept.joined(separator: "&")
    }

    /// `sub-key` for `{sub-key-3}`; nil for text that is no placeholder.
    static func placeholderKind(_ text: String) -> String? {
        guard text.hasPrefix("{"), text.hasSuffix("}"), let dash = text.lastIndex(of: "-") else { return nil }
        let kind = String(text[text.index(after: text.startIndex)..<dash])
        guard KeyKind(rawValue: kind) != nil, Int(text[text.index(after: dash)..<text.index(before: text.endIndex)]) != nil else { return nil }
        return kind
    }
}

