// SPDX-License-Identifier: MIT
internal import PubNubCrypto
import HarnessJSON

/// One request as the fault layer saw it: what arrived, when, on which connection, and which rule fired.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// Server-wide arrival order (from 1); `?since=` pages on it.
    public var sequence: UInt64
    /// Wall-clock arrival time in Unix seconds.
    public var arrivalTime: Double
    /// The connection the request came on, and which request on it (from 0).
    public var connectionID: UInt64
    public var requestOnConnection: Int
    /// The local port and whether it spoke TLS.
    public var localPort: Int
    public var isTLS: Bool
    public var method: String
    /// The raw (percent-encoded) path.
    public var path: String
    /// The decoded query in order (empty when it held invalid percent-encoding; see `rawQuery`).
    public var query: [QueryItem]
    public var rawQuery: String
    public var headers: [HeaderField]
    /// The body as UTF-8 text, or `nil` when it is not UTF-8 (then `bodyBase64` holds it).
    public var body: String?
    public var bodyBase64: String?
    /// The endpoint; `nil` when the request is no PubNub endpoint.
    public var endpoint: PubNubEndpoint?
    /// The key the request was attributed to (`FaultLayer.unattributedKey` when none).
    public var subscribeKey: String
    public var uuid: String?
    /// The id of the rule that fired, its fault kind, and which matching request this was for that rule.
    public var rule: String?
    public var fault: FaultKind?
    public var matchNumber: Int?
    /// The random draw of a probabilistic rule that fired.
    public var draw: Double?
    /// How the server answered; absent while the request is still waiting (a parked long-poll).
    public var answer: JournalAnswer?

    /// The entry in the admin API's JSON form (fields in declaration order, absent ones omitted).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("sequence", .int(sequence)), ("arrivalTime", .double(arrivalTime)),
            ("connectionID", .int(connectionID)), ("requestOnConnection", .int(requestOnConnection)),
            ("localPort", .int(localPort)), ("isTLS", .bool(isTLS)), ("method", .string(method)),
            ("path", .string(path)),
            ("query", .array(query.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
            ("rawQuery", .string(rawQuery)),
            ("headers", .array(headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
        ]
        func add(_ name: String, _ value: JSONValue?) { if let value { members.append((name, value)) } }
        add("body", body.map(JSONValue.string))
        add("bodyBase64", bodyBase64.map(JSONValue.string))
        add("endpoint", endpoint.map { .string($0.rawValue) })
        members.append(("subscribeKey", .string(subscribeKey)))
        add("uuid", uuid.map(JSONValue.string))
        add("rule", rule.map(JSONValue.string))
        add("fault", fault.map { .string($0.rawValue) })
        add("matchNumber", matchNumber.map(JSONValue.int))
        add("draw", draw.map(JSONValue.double))
        add("answer", answer?.json)
        return .object(JSONObject(members))
    }
}

extension JournalEntry {
    /// An entry from its parts (for fakes and tests); connection details default to a first
    /// request on a plain connection.
    public init(
        sequence: UInt64 = 1, method: String, path: String, query: [QueryItem] = [], headers: [HeaderField] = [],
        body: String? = nil, arrivalTime: Double, endpoint: PubNubEndpoint?, subscribeKey: String = "",
        uuid: String? = nil, rule: String? = nil, connectionID: UInt64 = 1, localPort: Int = 0, isTLS: Bool = false
    ) {
        self.sequence = sequence
        self.arrivalTime = arrivalTime
        self.connectionID = connectionID
        requestOnConnection = 0
        self.localPort = localPort
        self.isTLS = isTLS
        self.method = method
        self.path = path
        self.query = query
        rawQuery = query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        self.headers = headers
        self.body = body
        self.endpoint = endpoint
        self.subscribeKey = subscribeKey
        self.uuid = uuid
        self.rule = rule
    }

    /// Records `request` with what the fault layer decided.
    init(
        sequence: UInt64, request: HTTPRequest, context: RequestContext, route: PubNubRoute?,
        subscribeKey: String, uuid: String?, fired: FiredRule?
    ) {
        self.sequence = sequence
        arrivalTime = context.arrivalTime
        connectionID = context.connectionID
        requestOnConnection = context.sequenceOnConnection
        localPort = context.localPort
        isTLS = context.isTLS
        method = request.method
        path = request.rawPath
        query = route?.query ?? request.queryItems ?? []
        rawQuery = request.rawQuery
        headers = request.headers.map { HeaderField(name: $0.name, value: $0.value) }
        if request.body.isEmpty {
            body = nil
        } else if let text = String(validating: request.body, as: UTF8.self) {
            body = text
        } else {
            bodyBase64 = ByteEncoding.base64(request.body)
        }
        endpoint = route?.endpoint
        self.uuid = uuid
        self.subscribeKey = subscribeKey
        stamp(sequence: sequence, subscribeKey: subscribeKey, fired: fired)
    }

    /// Sets what is known only under the fault layer's lock: the order, the key and the rule.
    mutating func stamp(sequence: UInt64, subscribeKey: String, fired: FiredRule?) {
        self.sequence = sequence
        self.subscribeKey = subscribeKey
        rule = fired?.ruleID
        fault = fired?.fault.kind
        matchNumber = fired?.matchNumber
        draw = fired?.draw
    }
}
