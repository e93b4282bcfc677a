// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives
import MockPubNubServer

/// Turns what a client sent and what the service answered into redacted records (pure: a request
/// in, a redacted record out), noting the keys and names it meets on the way.
///
/// Redacted: subscribe and publish keys (in paths and anywhere else they appear), `auth`,
/// `signature` (after its `v2.` prefix), `token` and secret-key parameters, Access Manager v3
/// tokens anywhere (a token is a string that parses as one), the auth keys of grant answers,
/// JSON members named like a secret key, the storage's policy, signature and credential form
/// fields and query parameters, `Authorization` and cookies, and every name given to `--redact`.
public struct Redactor: Sendable {
    /// Request headers a recording keeps (others carry nothing the comparison or the replay needs).
    static let keptRequestHeaders: Set<String> = [
        "content-type", "content-encoding", "accept", "accept-encoding", "if-match", "if-none-match", "origin",
        "access-control-request-method", "access-control-request-headers", "user-agent",
    ]
    /// Headers whose values are credentials.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-amz-security-token"]

    /// Query parameters, header names and JSON members redacted besides the built-in ones (lowercased).
    public let extraNames: Set<String>
    /// Files larger than this are recorded by size only (no replay of their upload).
    public let maxFileBytes: Int
    private(set) var secrets = SecretTable()
    private(set) public var names: [RecordedName] = []
    private var seenNames: Set<RecordedName> = []

    public init(extraNames: [String] = [], maxFileBytes: Int = 5 << 20) {
        self.extraNames = Set(extraNames.map { $0.lowercased() })
        self.maxFileBytes = maxFileBytes
    }

    /// Every placeholder so far.
    public var keys: [RecordedKey] { secrets.entries }

    // MARK: - Requests

    /// The record of a request to the service, and its endpoint's name.
    public mutating func redact(_ request: HTTPRequest) -> (request: RecordedRequest, endpoint: String) {
        let route = try? PubNubRoute.classify(request).get()
        if let route { note(route) }
        let query = redactQuery(request.queryItems ?? [])
        if let route, let sub = route.subscribeKey, !sub.isEmpty, query.contains(where: { $0.name == "signature" }) {
            markAccessManager(subscribeKey: sub)
        }
        var recorded = RecordedRequest(method: request.method, path: redactPath(request.rawPath, route: route), query: query)
        recorded.headers = redactRequestHeaders(request.headers)
        let body = RecordedBody.decoded(request.body, contentEncoding: request.headers["Content-Encoding"])
        if let boundary = try? MultipartFormData.boundary(ofContentType: request.headers["Content-Type"]),
            let form = try? MultipartFormData.parse(body, boundary: boundary)
        {
            recorded.form = redactForm(form)
        } else {
            if let route { noteBodyNames(body, endpoint: route.endpoint) }
            (recorded.body, recorded.bodyBase64) = redactBody(body)
        }
        return (recorded, route.map { $0.endpoint.rawValue } ?? "unknown")
    }

    /// The record of a request the proxy forwards to a storage URL (`origin` + `target`).
    public mutating func redactStorage(_ request: HTTPRequest, origin: String, target: String) -> RecordedRequest {
        let parsed = HTTPRequest(method: request.method, target: target)
        var recorded = RecordedRequest(
            method: request.method, path: redactPath(parsed.rawPath, route: try? PubNubRoute.classify(parsed).get()),
            query: redactQuery(parsed.queryItems ?? []), origin: origin)
        recorded.headers = redactRequestHeaders(request.headers)
        if let boundary = try? MultipartFormData.boundary(ofContentType: request.headers["Content-Type"]),
            let form = try? MultipartFormData.parse(request.body, boundary: boundary)
        {
            recorded.form = redactForm(form)
        } else {
            (recorded.body, recorded.bodyBase64) = redactBody(request.body)
        }
        return recorded
    }

    private mutating func note(_ route: PubNubRoute) {
        if let sub = route.subscribeKey, !sub.isEmpty {
            let subPlaceholder = secrets.placeholder(for: sub, kind: .subscribeKey)
            if let pub = route.publishKey, !pub.isEmpty {
                let pubPlaceholder = secrets.placeholder(for: pub, kind: .publishKey)
                secrets.update(subPlaceholder) { $0.publishKey = $0.publishKey ?? pubPlaceholder }
            }
        }
        if let token = route.token, !token.isEmpty { _ = secrets.placeholder(for: token, kind: .token, tokenShape: TokenShape.of(token)) }
        for channel in route.channels { noteName(.channel, channel) }
        for group in route.channelGroups { noteName(.group, group) }
        if let uuid = route.uuid { noteName(.uuid, uuid) }
        if let uuid = route.targetUUID { noteName(.uuid, uuid) }
    }

    /// Notes a name (a presence channel as the channel it belongs to).
    mutating func noteName(_ kind: RecordedName.Kind, _ raw: String) {
        let name = raw.hasSuffix("-pnpres") ? String(raw.dropLast(7)) : raw
        guard !name.isEmpty else { return }
        let entry = RecordedName(kind: kind, name: name)
        if seenNames.insert(entry).inserted { names.append(entry) }
    }

    /// Marks a subscribe key as one with Access Manager on.
    mutating func markAccessManager(subscribeKey: String) {
        let placeholder = secrets.placeholder(for: subscribeKey, kind: .subscribeKey)
        secrets.update(placeholder) { $0.accessManager = true }
    }

    private mutating func redactQuery(_ items: [QueryItem]) -> [NameValue] {
        items.map { item in
            if let kind = secretKind(name: item.name, value: item.value), !item.value.isEmpty {
                return NameValue(item.name, redactValue(item.value, kind: kind))
            }
            return NameValue(item.name, secrets.scrub(item.value))
        }
    }

    /// The placeholder of a credential (a `v2.` signature keeps its prefix).
    private mutating func redactValue(_ value: String, kind: KeyKind) -> String {
        if kind == .signature, value.hasPrefix("v2.") { return "v2." + secrets.placeholder(for: String(value.dropFirst(3)), kind: .signature) }
        return secrets.placeholder(for: value, kind: kind, tokenShape: kind == .token ? TokenShape.of(value) : nil)
    }

    /// What kind of credential a query parameter, form field or JSON member named `name` carries; nil: none.
    func secretKind(name: String, value: String) -> KeyKind? {
        switch name.lowercased() {
        case "signature", "x-amz-signature": return .signature
        case "auth": return TokenShape.of(value) != nil ? .token : .auth
        case "token": return .token
        case "secret", "secret_key", "secretkey", "pam_secret": return .secretKey
        case "x-amz-credential", "x-amz-security-token", "awsaccesskeyid": return .credential
        case "policy": return .policy
        default: return extraNames.contains(name.lowercased()) ? .redacted : nil
        }
    }

    /// The raw path with each segment that is a credential replaced by its placeholder, and known
    /// credentials scrubbed from the others.
    private mutating func redactPath(_ rawPath: String, route: PubNubRoute?) -> String {
        let segments = rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return segments.map { raw -> String in
            guard !raw.isEmpty else { return raw }
            let decoded = PercentCoding.decode(raw, plusAsSpace: false) ?? raw
            if let placeholder = secrets.known(decoded) { return placeholder }
            // Keys of paths the harness does not classify: PubNub's key prefixes.
            for (prefix, kind) in [("sub-c-", KeyKind.subscribeKey), ("pub-c-", .publishKey), ("sec-c-", .secretKey)] where decoded.hasPrefix(prefix) {
                return secrets.placeholder(for: decoded, kind: kind)
            }
            return secrets.scrub(raw)
        }.joined(separator: "/")
    }

    private mutating func redactRequestHeaders(_ headers: HTTPHeaders) -> [NameValue] {
        headers.fields.compactMap { field in
            let lower = field.name.lowercased()
            if Self.secretHeaders.contains(lower) || extraNames.contains(lower) {
                return NameValue(field.name, secrets.placeholder(for: field.value, kind: .redacted))
            }
            guard Self.keptRequestHeaders.contains(lower) else { return nil }
            return NameValue(field.name, secrets.scrub(field.value))
        }
    }

    private mutating func redactForm(_ form: MultipartFormData) -> [FormPart] {
        form.parts.map { part in
            if part.fileName != nil || part.name == "file" {
                let keep = part.body.count <= maxFileBytes
                return FormPart(
                    name: part.name, filename: part.fileName, contentType: part.contentType,
                    base64: keep ? ByteEncoding.base64(part.body) : nil, size: part.body.count)
            }
            let text = part.text
            if let kind = secretKind(name: part.name, value: text), !text.isEmpty {
                return FormPart(name: part.name, value: redactValue(text, kind: kind), contentType: part.contentType)
            }
            return FormPart(name: part.name, value: secrets.scrub(text), contentType: part.contentType)
        }
    }

    // MARK: - Bodies

    /// A body's `body` / `body_base64` fields with its credentials replaced: the credentials a JSON
    /// body names are found first, then every known one is scrubbed from the text.
    mutating func redactBody(_ bytes: [UInt8]) -> (text: String?, base64: String?) {
        let (text, base64) = RecordedBody.fields(bytes)
        guard let text else { return (nil, base64) }
        if let json = try? JSONValue.parse(bytes) { collectSecrets(json, member: nil) }
        return (secrets.scrub(text), nil)
    }

    /// Registers the credentials a JSON value holds: tokens anywhere, grant answers' auth keys,
    /// members named like secrets, the storage form's credential fields.
    private mutating func collectSecrets(_ value: JSONValue, member: String?) {
        switch value {
        case .string(let text):
            guard !text.isEmpty else { return }
            if let member, let kind = secretKind(name: member, value: text) {
                _ = redactValue(text, kind: kind)
            } else if text.utf8.count >= 40, let shape = TokenShape.of(text) {
                _ = secrets.placeholder(for: text, kind: .token, tokenShape: shape)
            }
        case .array(let items):
            for item in items { collectSecrets(item, member: nil) }
        case .object(let object):
            // A storage form field: {"key": "Policy", "value": "…"}.
            if let key = object["key"]?.stringValue, let text = object["value"]?.stringValue, !text.isEmpty,
                let kind = secretKind(name: key, value: text), kind != .token
            {
                _ = redactValue(text, kind: kind)
            }
            for (name, item) in object {
                if name == "auths", case .object(let auths) = item {
                    for authKey in auths.keys where !authKey.isEmpty { _ = secrets.placeholder(for: authKey, kind: .auth) }
                }
                collectSecrets(item, member: name)
            }
        default:
            return
        }
    }

    /// Notes the names an App Context or grant-token body carries (`{"channel":{"id":…}}`,
    /// `resources.channels.<name>`, `authorized_uuid`).
    private mutating func noteBodyNames(_ bytes: [UInt8], endpoint: PubNubEndpoint) {
        guard endpoint == .objects || endpoint == .grantToken, let json = try? JSONValue.parse(bytes) else { return }
        func walk(_ value: JSONValue, member: String?) {
            switch value {
            case .object(let object):
                for (name, item) in object {
                    switch (member, name) {
                    case ("channel", "id"), ("space", "id"): if let id = item.stringValue { noteName(.channel, id) }
                    case ("uuid", "id"), ("user", "id"): if let id = item.stringValue { noteName(.uuid, id) }
                    case (_, "authorized_uuid"): if let id = item.stringValue { noteName(.uuid, id) }
                    default: break
                    }
                    if (member == "channels" || member == "groups" || member == "uuids") && endpoint == .grantToken {
                        noteName(member == "channels" ? .channel : member == "groups" ? .group : .uuid, name)
                    }
                    walk(item, member: name)
                }
            case .array(let items):
                for item in items { walk(item, member: member) }
            default:
                break
            }
        }
        walk(json, member: nil)
    }

    // MARK: - Responses

    /// The record of an answer: every end-to-end header (credentials redacted, `Location`
    /// scrubbed; the framing fields of the hop left out), the body
    /// without its content coding and with its credentials replaced.
    public mutating func redactResponse(status: Int, headers: [(name: String, value: String)], body: [UInt8], subscribeKey: String?) -> RecordedResponse {
        var recorded = RecordedResponse(status: status, headers: [])
        let plain = RecordedBody.decoded(body, contentEncoding: headers.first { $0.name.lowercased() == "content-encoding" }?.value)
        (recorded.body, recorded.bodyBase64) = redactBody(plain)
        recorded.headers = headers.filter { !ForwardedMessages.hopFields.contains($0.name.lowercased()) }.map { field in
            let lower = field.name.lowercased()
            let name = ForwardedMessages.displayName(lower)
            if Self.secretHeaders.contains(lower) || extraNames.contains(lower) {
                return NameValue(name, secrets.placeholder(for: field.value, kind: .redacted))
            }
            if lower == "location" { return NameValue(name, redactURL(field.value)) }
            return NameValue(name, secrets.scrub(field.value))
        }
        // Only Access Manager refuses with 403 (its own bodies, App Context's and the token errors alike).
        if let subscribeKey, status == 403 { markAccessManager(subscribeKey: subscribeKey) }
        return recorded
    }

    /// A URL with its credential query parameters (a pre-signed storage URL's) redacted.
    mutating func redactURL(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return secrets.scrub(url) }
        let query = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let value = PercentCoding.decode(parts[1], plusAsSpace: true),
                let kind = secretKind(name: PercentCoding.decode(parts[0], plusAsSpace: true) ?? parts[0], value: value), !value.isEmpty
            else { return secrets.scrub(String(pair)) }
            return parts[0] + "=" + redactValue(value, kind: kind)
        }
        return secrets.scrub(String(url[..<mark])) + "?" + query.joined(separator: "&")
    }
}
