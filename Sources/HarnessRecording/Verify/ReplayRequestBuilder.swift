// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives
import MockPubNubServer

/// A request `verify` sends.
struct ReplayRequest: Sendable, Hashable {
    var method: String
    /// Path and query, percent-encoded.
    var target: String
    var headers: [String: String]
    var body: [UInt8]?
    var contentType: String
    /// Where to send it when not to the verify target (a storage URL on another origin).
    var origin: UpstreamOrigin?
}

/// Why an exchange cannot be replayed.
enum ReplayProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The storage exchange's linked answer has no usable URL or form.
    case noStorageURL(Int)
    /// The upload's file was too large to be kept in the recording.
    case fileNotKept

    var description: String {
        switch self {
        case .noStorageURL(let id): "exchange \(id)'s replayed answer names no storage URL"
        case .fileNotKept: "the uploaded file was not kept in the recording (larger than the proxy keeps)"
        }
    }
}

/// Builds the request that replays a recorded one (pure): fresh keys and names in place of the
/// recorded ones, learned values in place of the service's earlier choices, a fresh signature.
enum ReplayRequestBuilder {
    /// Query parameters that carry names.
    static let nameParameters: Set<String> = ["uuid", "channel", "channel-group", "channels", "target-uuid", "add", "remove"]

    /// - Parameters:
    ///   - linked: the replayed (raw) answer of the exchange a storage exchange follows.
    ///   - now: Unix seconds, for the `timestamp` of a signed request.
    static func build(
        _ exchange: RecordedExchange, identity: FreshIdentity, substitutions: Substitutions, now: Int64, linked: ReplayedAnswer?
    ) -> Result<ReplayRequest, ReplayProblem> {
        if let link = exchange.storage { return storageRequest(exchange, link: link, linked: linked) }
        let recorded = exchange.request
        let renamesBodies = !["publish", "signal", "publish-file"].contains(exchange.endpoint)
        let path = mapPath(recorded.path, identity: identity, substitutions: substitutions)
        var query: [(String, String)] = []
        var signed = false
        for item in recorded.query {
            if item.name == "signature" {
                signed = true
                continue
            }
            query.append((item.name, mapQueryValue(item.name, item.value, identity: identity, substitutions: substitutions)))
        }
        var headers: [String: String] = [:]
        var contentType = "application/json"
        for field in recorded.headers where field.name.lowercased() != "content-length" {
            let value = substitutions.value(identity.fill(field.value))
            if field.name.lowercased() == "content-type" { contentType = value } else { headers[field.name] = value }
        }
        var body: [UInt8]? = nil
        if recorded.body != nil || recorded.bodyBase64 != nil || ["POST", "PUT", "PATCH"].contains(recorded.method) {
            var bytes = recorded.bodyBytes
            if recorded.body != nil {
                var text = substitutions.inside(identity.fill(recorded.body ?? ""))
                if renamesBodies, let json = try? JSONValue.parse(text) {
                    text = mapJSON(json, identity: identity, substitutions: substitutions).jsonText
                }
                bytes = Array(text.utf8)
            }
            if let coding = recorded.header("Content-Encoding")?.lowercased(), coding.contains("gzip"), let zipped = AnswerCompression.gzip(bytes) {
                bytes = zipped
            }
            body = bytes
        }
        if signed, let sub = FreshIdentity.subscribeKeyPlaceholder(in: recorded.path), let secret = identity.secrets[sub] {
            query.removeAll { $0.0 == "timestamp" }
            query.append(("timestamp", String(now)))
            let signature = ReplaySigner.signature(method: recorded.method, publishKey: identity.publishKeys[sub] ?? "", path: path,
                                                   query: query, body: body ?? [], secret: secret)
            query.append(("signature", signature))
        }
        let target = path + (query.isEmpty ? "" : "?" + query.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&"))
        return .success(ReplayRequest(method: recorded.method, target: target, headers: headers, body: body, contentType: contentType))
    }

    /// A storage upload (the form of the replayed generate-upload-url answer, then the recorded
    /// file) or download (the replayed redirect's `Location`).
    private static func storageRequest(_ exchange: RecordedExchange, link: StorageLink, linked: ReplayedAnswer?) -> Result<ReplayRequest, ReplayProblem> {
        switch link.kind {
        case .download:
            guard let location = linked?.header("Location"), let (origin, target) = UpstreamOrigin.split(url: location) else {
                return .failure(.noStorageURL(link.of))
            }
            return .success(ReplayRequest(method: exchange.request.method, target: target, headers: [:], body: nil,
                                          contentType: "application/octet-stream", origin: origin))
        case .upload:
            guard let linked, let answer = try? JSONValue.parse(linked.body), let form = answer["file_upload_request"],
                let url = form["url"]?.stringValue, let (origin, target) = UpstreamOrigin.split(url: url), let fields = form["form_fields"]?.arrayValue
            else { return .failure(.noStorageURL(link.of)) }
            guard let file = exchange.request.form?.first(where: { $0.value == nil }), let content = file.base64,
                let bytes = try? ByteEncoding.bytes(fromBase64: content)
            else { return .failure(.fileNotKept) }
            var parts = fields.compactMap { field -> MultipartFormData.Part? in
                guard let name = field["key"]?.stringValue, let value = field["value"]?.stringValue else { return nil }
                return MultipartFormData.Part(name: name, body: Array(value.utf8))
            }
            parts.append(MultipartFormData.Part(name: file.name, fileName: file.filename, contentType: file.contentType, body: bytes))
            let boundary = "----harness-verify-" + FreshIdentity.randomTag() + FreshIdentity.randomTag()
            return .success(ReplayRequest(method: "POST", target: target, headers: [:], body: MultipartFormData.encode(parts, boundary: boundary),
                                          contentType: "multipart/form-data; boundary=\(boundary)", origin: origin))
        }
    }

    /// The recorded raw path with placeholders filled, learned values substituted and names made
    /// fresh (in every segment but a publish's message, where only learned values are).
    static func mapPath(_ rawPath: String, identity: FreshIdentity, substitutions: Substitutions) -> String {
        var segments = rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let payload: Int? = switch (segments.count > 1 ? segments[1] : "", segments.count > 3 ? segments[3] : "") {
        case ("publish", _), ("signal", _): 7
        case ("v1", "publish-file"): 9
        default: nil
        }
        for index in segments.indices where !segments[index].isEmpty {
            let raw = segments[index]
            if raw.hasPrefix("{"), raw.hasSuffix("}") {
                let filled = identity.fill(raw)
                segments[index] = encode(filled == raw ? substitutions.value(raw) : filled)
                continue
            }
            guard let decoded = PercentCoding.decode(raw, plusAsSpace: false) else { continue }
            let mapped: String
            if index == payload {
                mapped = substitutions.inside(identity.fill(decoded))
            } else {
                mapped = decoded.split(separator: ",", omittingEmptySubsequences: false).map { item in
                    let value = substitutions.value(identity.fill(String(item)))
                    return identity.freshName(value) ?? value
                }.joined(separator: ",")
            }
            if mapped != decoded {
                segments[index] = index == payload ? encode(mapped) : mapped.split(separator: ",", omittingEmptySubsequences: false)
                    .map { encode(String($0)) }.joined(separator: ",")
            }
        }
        return segments.joined(separator: "/")
    }

    /// A query value with placeholders filled, learned values substituted, names made fresh.
    static func mapQueryValue(_ name: String, _ value: String, identity: FreshIdentity, substitutions: Substitutions) -> String {
        let filled = substitutions.value(identity.fill(value))
        if nameParameters.contains(name) {
            return filled.split(separator: ",", omittingEmptySubsequences: false).map { identity.freshName(String($0)) ?? String($0) }
                .joined(separator: ",")
        }
        if name == "state", let json = try? JSONValue.parse(filled) { return mapJSON(json, identity: identity, substitutions: substitutions).jsonText }
        return filled
    }

    /// A JSON value with names (strings and member names) made fresh and learned values substituted.
    static func mapJSON(_ value: JSONValue, identity: FreshIdentity, substitutions: Substitutions) -> JSONValue {
        switch value {
        case .string(let text):
            let mapped = substitutions.value(text)
            return .string(identity.freshName(mapped) ?? mapped)
        case .array(let items):
            return .array(items.map { mapJSON($0, identity: identity, substitutions: substitutions) })
        case .object(let object):
            return .object(JSONObject(object.map { member in
                (identity.freshName(member.key) ?? member.key, mapJSON(member.value, identity: identity, substitutions: substitutions))
            }))
        default:
            return value
        }
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String { PercentCoding.encode(text) }
}

/// The v2 signature of a replayed request (spec §9.2): `"v2." + base64url(HMAC-SHA256(secret,
/// METHOD\npub\npath\nsorted_query\nbody))`, the body only for POST and PATCH.
///
/// The canonical string is built here on its own, as the built-in client and the mock each build
/// theirs (docs/architecture.md, "Signatures and digests"): `verify` is a third client of the mock.
enum ReplaySigner {
    static func signature(method: String, publishKey: String, path: String, query: [(String, String)], body: [UInt8], secret: String) -> String {
        let canonical = query.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { PercentCoding.encode($0.element.0, keeping: .unreservedWithoutTilde) + "=" + PercentCoding.encode($0.element.1, keeping: .unreservedWithoutTilde) }
            .joined(separator: "&")
        var input = Array((method + "\n" + publishKey + "\n" + path + "\n" + canonical + "\n").utf8)
        if method == "POST" || method == "PATCH" { input += body }
        return "v2." + ByteEncoding.base64URL(HMAC.sha256(key: Array(secret.utf8), data: input))
    }
}
