// SPDX-License-Identifier: MIT
import HarnessJSON

extension FaultPlan {
    /// Decodes and validates plan JSON; the error names the offending field and refuses unknown fields.
    public static func decode(json bytes: [UInt8]) throws(FaultPlanError) -> FaultPlan {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes, maxDepth: 64)
        } catch {
            throw FaultPlanError(path: "$", message: error.description)
        }
        return try FaultPlan(json: document, path: "")
    }

    /// Decodes and validates a plan from a parsed JSON value at `path`.
    public init(json: JSONValue, path: String = "") throws(FaultPlanError) {
        let reader = try PlanFieldReader(
            json, path: path, allowed: ["version", "seed", "subscribeKey", "description", "rules"])
        let version = try reader.int("version", in: 1...1, expected: "expected 1 (the only schema version)") ?? 1
        let seed = try reader.uint64("seed", expected: PlanExpected.seed)
        let key = try reader.string("subscribeKey")
        let description = try reader.string("description")
        let rulesJSON = try reader.required("rules")
        guard case .array(let items) = rulesJSON else {
            throw FaultPlanError(path: reader.fieldPath("rules"), message: "expected an array, found \(rulesJSON.typeName)")
        }
        var rules: [FaultRule] = []
        for (index, item) in items.enumerated() {
            rules.append(try FaultRule(json: item, path: PlanFieldPath.element(reader.fieldPath("rules"), index), index: index))
        }
        self.init(version: version, seed: seed, subscribeKey: key, description: description, rules: rules)
        try validate(path: path)
    }
}

extension FaultRule {
    init(json: JSONValue, path: String, index: Int) throws(FaultPlanError) {
        let reader = try PlanFieldReader(
            json, path: path,
            allowed: ["id", "description", "match", "nth", "after", "times", "probability", "fault"])
        let match = try reader.value("match").map { value throws(FaultPlanError) in
            try RequestMatch(json: value, path: reader.fieldPath("match"))
        }
        self.init(
            id: try reader.string("id") ?? "rule-\(index)",
            description: try reader.string("description"),
            match: match ?? RequestMatch(),
            nth: try reader.int("nth", in: 1...Int.max, expected: PlanExpected.positive),
            after: try reader.int("after", in: 0...Int.max, expected: PlanExpected.nonNegative),
            times: try reader.int("times", in: 1...Int.max, expected: PlanExpected.positive),
            probability: try reader.double("probability", in: 0...1, expected: PlanExpected.probability),
            fault: try Fault(json: try reader.required("fault"), path: reader.fieldPath("fault"))
        )
    }
}

extension RequestMatch {
    init(json: JSONValue, path: String) throws(FaultPlanError) {
        let reader = try PlanFieldReader(
            json, path: path, allowed: ["endpoint", "method", "channel", "channelGroup", "uuid", "query"])
        self.init()
        if let endpoint = reader.value("endpoint") {
            endpoints = try Self.endpoints(endpoint, path: reader.fieldPath("endpoint"))
        }
        if let method = try reader.string("method") {
            guard ["GET", "POST", "DELETE", "HEAD", "PUT", "PATCH"].contains(method) else {
                throw FaultPlanError(path: reader.fieldPath("method"), message: "unknown method \"\(method)\"")
            }
            self.method = method
        }
        channel = try reader.string("channel")
        channelGroup = try reader.string("channelGroup")
        uuid = try reader.string("uuid")
        query = (try reader.stringMap("query") ?? []).map { QueryCondition(name: $0.0, pattern: $0.1) }
    }

    private static func endpoints(_ json: JSONValue, path: String) throws(FaultPlanError) -> [PubNubEndpoint] {
        /// One name; `files` stands for every file-sharing endpoint (REST and storage).
        func one(_ item: JSONValue, _ itemPath: String) throws(FaultPlanError) -> [PubNubEndpoint] {
            guard case .string(let name) = item else {
                throw FaultPlanError(path: itemPath, message: "expected an endpoint name, found \(item.typeName)")
            }
            if name == "files" { return FileRoutes.endpoints }
            guard let endpoint = PubNubEndpoint(rawValue: name), endpoint != .admin else {
                throw FaultPlanError(path: itemPath, message: "unknown endpoint \"\(name)\"")
            }
            return [endpoint]
        }
        switch json {
        case .string:
            return try one(json, path)
        case .array(let items) where !items.isEmpty:
            var result: [PubNubEndpoint] = []
            for (index, item) in items.enumerated() {
                for endpoint in try one(item, PlanFieldPath.element(path, index)) where !result.contains(endpoint) {
                    result.append(endpoint)
                }
            }
            return result
        default:
            throw FaultPlanError(path: path, message: "expected an endpoint name or a non-empty array of them")
        }
    }
}

extension Fault {
    /// The fields each kind accepts besides `kind`.
    static let fields: [FaultKind: [String]] = [
        .status: ["status", "body", "contentType", "headers", "retryAfter"],
        .truncatedJSON: ["bytes"], .wrongShape: ["body"], .html: ["body"], .emptyBody: ["status"],
        .wrongContentType: ["contentType"], .delay: ["ms", "then"], .resetAfterBodyBytes: ["bytes"],
        .truncatedBody: ["bytes", "contentLength"], .drip: ["chunkSize", "intervalMs"],
        .closeLongPoll: ["afterMs", "mode"], .messages: ["count", "channel"],
        .foreignEncrypted: ["cipherKey", "scheme", "message"], .cursorBackwards: ["by"],
        .regionChange: ["region"], .preflightFailure: ["status", "omit"], .truncatedGzip: ["bytes"],
    ]

    init(json: JSONValue, path: String) throws(FaultPlanError) {
        guard case .object = json else {
            throw FaultPlanError(path: path, message: "expected an object, found \(json.typeName)")
        }
        let kindPath = PlanFieldPath.member(path, "kind")
        guard let kindJSON = json["kind"] else { throw FaultPlanError(path: kindPath, message: "missing required field") }
        guard case .string(let kindName) = kindJSON else {
            throw FaultPlanError(path: kindPath, message: "expected a string, found \(kindJSON.typeName)")
        }
        guard let kind = FaultKind(rawValue: kindName) else {
            throw FaultPlanError(path: kindPath, message: "unknown fault kind \"\(kindName)\"")
        }
        let r = try PlanFieldReader(json, path: path, allowed: ["kind"] + (Self.fields[kind] ?? []))
        let ms = 0...3_600_000
        switch kind {
        case .status:
            self = .status(try StatusFault(reader: r))
        case .malformedJSON: self = .malformedJSON
        case .truncatedJSON:
            self = .truncatedJSON(bytes: try r.int("bytes", in: 0...Int.max, expected: PlanExpected.nonNegative))
        case .wrongShape: self = .wrongShape(body: try r.string("body"))
        case .html: self = .html(body: try r.string("body"))
        case .emptyBody: self = .emptyBody(status: try r.int("status", in: 100...599, expected: PlanExpected.status) ?? 200)
        case .wrongContentType:
            self = .wrongContentType(contentType: try r.string("contentType") ?? "text/plain; charset=UTF-8")
        case .invalidChunked: self = .invalidChunked
        case .delay:
            guard let delay = try r.int("ms", in: ms, expected: PlanExpected.milliseconds) else {
                throw FaultPlanError(path: r.fieldPath("ms"), message: "missing required field")
            }
            let then = try r.value("then").map { value throws(FaultPlanError) in
                try Fault(json: value, path: r.fieldPath("then"))
            }
            self = .delay(ms: delay, then: then)
        case .hang: self = .hang
        case .close: self = .close
        case .reset: self = .reset
        case .resetAfterHeaders: self = .resetAfterHeaders
        case .resetAfterBodyBytes:
            guard let bytes = try r.int("bytes", in: 0...Int.max, expected: PlanExpected.nonNegative) else {
                throw FaultPlanError(path: r.fieldPath("bytes"), message: "missing required field")
            }
            self = .resetAfterBodyBytes(bytes: bytes)
        case .truncatedBody:
            let framing = try r.string("contentLength").map { text throws(FaultPlanError) in
                guard let value = TruncatedContentLength(rawValue: text) else {
                    throw FaultPlanError(path: r.fieldPath("contentLength"), message: "expected \"correct\" or \"full\"")
                }
                return value
            }
            self = .truncatedBody(
                bytes: try r.int("bytes", in: 0...Int.max, expected: PlanExpected.nonNegative), contentLength: framing ?? .full)
        case .drip:
            self = .drip(
                chunkSize: try r.int("chunkSize", in: 1...Int.max, expected: PlanExpected.positive) ?? 1,
                intervalMs: try r.int("intervalMs", in: ms, expected: PlanExpected.milliseconds) ?? 100)
        case .closeLongPoll:
            guard let after = try r.int("afterMs", in: ms, expected: PlanExpected.milliseconds) else {
                throw FaultPlanError(path: r.fieldPath("afterMs"), message: "missing required field")
            }
            let mode = try r.string("mode") ?? "fin"
            guard mode == "fin" || mode == "reset" else {
                throw FaultPlanError(path: r.fieldPath("mode"), message: "expected \"fin\" or \"reset\"")
            }
            self = .closeLongPoll(afterMs: after, mode: mode == "fin" ? .fin : .reset)
        case .messages:
            guard let count = try r.int("count", in: 1...100_000, expected: PlanExpected.messageCount) else {
                throw FaultPlanError(path: r.fieldPath("count"), message: "missing required field")
            }
            self = .messages(count: count, channel: try r.string("channel"))
        case .foreignEncrypted:
            self = .foreignEncrypted(
                cipherKey: try r.requiredString("cipherKey"), scheme: try r.string("scheme"),
                message: try r.string("message"))
        case .cursorBackwards:
            self = .cursorBackwards(by: try r.uint64("by", expected: PlanExpected.seed) ?? Fault.defaultCursorStep)
        case .regionChange:
            guard let region = try r.int("region", in: 0...Int(Int32.max), expected: PlanExpected.region) else {
                throw FaultPlanError(path: r.fieldPath("region"), message: "missing required field")
            }
            self = .regionChange(region: region)
        case .noCORS: self = .noCORS
        case .preflightFailure:
            let omit = try r.string("omit").map { text throws(FaultPlanError) in
                guard let value = PreflightOmission(rawValue: text) else {
                    throw FaultPlanError(path: r.fieldPath("omit"), message: "expected \"method\", \"headers\" or \"origin\"")
                }
                return value
            }
            self = .preflightFailure(PreflightFault(status: try r.int("status", in: 100...599, expected: PlanExpected.status), omit: omit))
        case .truncatedGzip:
            self = .truncatedGzip(bytes: try r.int("bytes", in: 0...Int.max, expected: PlanExpected.nonNegative))
        case .corruptGzip: self = .corruptGzip
        }
    }

    /// The default `by` of `cursor-backwards`: 60 seconds in timetoken units (100 ns).
    public static let defaultCursorStep: UInt64 = 600_000_000
}

extension StatusFault {
    init(reader r: PlanFieldReader) throws(FaultPlanError) {
        guard let status = try r.int("status", in: 100...599, expected: PlanExpected.status) else {
            throw FaultPlanError(path: r.fieldPath("status"), message: "missing required field")
        }
        self.init(
            status: status, body: try r.string("body"), contentType: try r.string("contentType"),
            headers: (try r.stringMap("headers") ?? []).map { HeaderField(name: $0.0, value: $0.1) },
            retryAfter: try r.int("retryAfter", in: 0...86_400, expected: "expected an integer 0...86400 (seconds)"))
    }
}
