// SPDX-License-Identifier: MIT
import HarnessJSON

extension FaultPlan {
    /// Checks every value against the schema (plans built in Swift as well as decoded ones).
    public func validate() throws(FaultPlanError) {
        try validate(path: "")
    }

    func validate(path: String) throws(FaultPlanError) {
        guard version == 1 else {
            throw FaultPlanError(path: PlanFieldPath.member(path, "version"), message: "expected 1 (the only schema version)")
        }
        var ids: Set<String> = []
        let rulesPath = PlanFieldPath.member(path, "rules")
        for (index, rule) in rules.enumerated() {
            let rulePath = PlanFieldPath.element(rulesPath, index)
            guard ids.insert(rule.id).inserted else {
                throw FaultPlanError(path: PlanFieldPath.member(rulePath, "id"), message: "duplicate rule id \"\(rule.id)\"")
            }
            try rule.validate(path: rulePath)
        }
    }
}

extension FaultRule {
    func validate(path: String) throws(FaultPlanError) {
        func check(_ ok: Bool, _ field: String, _ message: String) throws(FaultPlanError) {
            if !ok { throw FaultPlanError(path: PlanFieldPath.member(path, field), message: message) }
        }
        try check(!id.isEmpty, "id", "expected a non-empty string")
        if let nth { try check(nth >= 1, "nth", PlanExpected.positive) }
        if let after { try check(after >= 0, "after", PlanExpected.nonNegative) }
        if let times { try check(times >= 1, "times", PlanExpected.positive) }
        if let probability { try check((0...1).contains(probability), "probability", PlanExpected.probability) }
        if let endpoints = match.endpoints {
            try check(!endpoints.isEmpty, "match.endpoint", "expected an endpoint name or a non-empty array of them")
            try check(!endpoints.contains(.admin), "match.endpoint", "unknown endpoint \"admin\"")
        }
        try fault.validate(path: PlanFieldPath.member(path, "fault"))
    }
}

extension Fault {
    /// The cipher schemes `foreign-encrypted` accepts (the names of `pubnub-harness crypto`).
    public static let cipherSchemes = ["legacy", "legacy-random-iv", "aescbc"]

    func validate(path: String) throws(FaultPlanError) {
        func check(_ ok: Bool, _ field: String, _ message: String) throws(FaultPlanError) {
            if !ok { throw FaultPlanError(path: PlanFieldPath.member(path, field), message: message) }
        }
        let ms = 0...3_600_000
        switch self {
        case .status(let fault):
            try check((100...599).contains(fault.status), "status", PlanExpected.status)
            for field in fault.headers {
                try check(Self.isToken(field.name), "headers", "invalid header name \"\(field.name)\"")
                try check(!field.value.contains(where: { $0 == "\r" || $0 == "\n" }), "headers", "header value holds CR or LF")
            }
            if let seconds = fault.retryAfter { try check(seconds >= 0, "retryAfter", PlanExpected.nonNegative) }
        case .truncatedJSON(let bytes), .truncatedBody(let bytes, _), .truncatedGzip(let bytes):
            if let bytes { try check(bytes >= 0, "bytes", PlanExpected.nonNegative) }
        case .wrongShape(let body):
            if let body { try check((try? JSONValue.parse(body)) != nil, "body", "expected JSON text") }
        case .emptyBody(let status):
            try check((100...599).contains(status), "status", PlanExpected.status)
        case .wrongContentType(let type):
            try check(!type.contains(where: { $0 == "\r" || $0 == "\n" }), "contentType", "holds CR or LF")
        case .delay(let delay, let then):
            try check(ms.contains(delay), "ms", PlanExpected.milliseconds)
            if let then {
                if case .closeLongPoll = then {
                    try check(false, "then.kind", "close-long-poll cannot follow a delay (use its afterMs)")
                }
                try then.validate(path: PlanFieldPath.member(path, "then"))
            }
        case .resetAfterBodyBytes(let bytes):
            try check(bytes >= 0, "bytes", PlanExpected.nonNegative)
        case .drip(let chunkSize, let interval):
            try check(chunkSize >= 1, "chunkSize", PlanExpected.positive)
            try check(ms.contains(interval), "intervalMs", PlanExpected.milliseconds)
        case .closeLongPoll(let after, let mode):
            try check(ms.contains(after), "afterMs", PlanExpected.milliseconds)
            try check(mode != .keepAlive, "mode", "expected \"fin\" or \"reset\"")
        case .messages(let count, _):
            try check((1...100_000).contains(count), "count", PlanExpected.messageCount)
        case .foreignEncrypted(let key, let scheme, let message):
            try check(!key.isEmpty, "cipherKey", "expected a non-empty string")
            if let scheme {
                try check(Self.cipherSchemes.contains(scheme), "scheme", "expected one of \(Self.cipherSchemes.joined(separator: ", "))")
            }
            if let message {
                try check((try? JSONValue.parse(message)) != nil, "message", "expected JSON text")
            }
        case .regionChange(let region):
            try check((0...Int(Int32.max)).contains(region), "region", PlanExpected.region)
        case .preflightFailure(let fault):
            try check((100...599).contains(fault.status), "status", PlanExpected.status)
        case .malformedJSON, .html, .invalidChunked, .hang, .close, .reset, .resetAfterHeaders, .cursorBackwards, .noCORS,
            .corruptGzip:
            break
        }
    }

    /// Whether `name` is an RFC 9110 token (a valid header field name).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
