// SPDX-License-Identifier: MIT
import HarnessJSON

extension FaultPlan {
    /// The plan in schema form (decoding this value gives the plan back).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("version", .int(version))]
        if let seed { members.append(("seed", .int(seed))) }
        if let subscribeKey { members.append(("subscribeKey", .string(subscribeKey))) }
        if let description { members.append(("description", .string(description))) }
        members.append(("rules", .array(rules.map(\.json))))
        return .object(JSONObject(members))
    }
}

extension FaultRule {
    /// The rule in schema form.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id))]
        if let description { members.append(("description", .string(description))) }
        if match != RequestMatch() { members.append(("match", match.json)) }
        if let nth { members.append(("nth", .int(nth))) }
        if let after { members.append(("after", .int(after))) }
        if let times { members.append(("times", .int(times))) }
        if let probability { members.append(("probability", .double(probability))) }
        members.append(("fault", fault.json))
        return .object(JSONObject(members))
    }
}

extension RequestMatch {
    /// The conditions in schema form.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let endpoints {
            members.append(
                ("endpoint", endpoints.count == 1 ? .string(endpoints[0].rawValue) : .array(endpoints.map { .string($0.rawValue) })))
        }
        if let method { members.append(("method", .string(method))) }
        if let channel { members.append(("channel", .string(channel))) }
        if let channelGroup { members.append(("channelGroup", .string(channelGroup))) }
        if let uuid { members.append(("uuid", .string(uuid))) }
        if !query.isEmpty { members.append(("query", .object(JSONObject(query.map { ($0.name, JSONValue.string($0.pattern)) })))) }
        return .object(JSONObject(members))
    }
}

extension Fault {
    /// The fault in schema form (`kind` first).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue))]
        func add(_ name: String, _ value: JSONValue?) { if let value { members.append((name, value)) } }
        switch self {
        case .status(let fault):
            add("status", .int(fault.status))
            add("body", fault.body.map(JSONValue.string))
            add("contentType", fault.contentType.map(JSONValue.string))
            if !fault.headers.isEmpty { add("headers", .object(JSONObject(fault.headers.map { ($0.name, JSONValue.string($0.value)) }))) }
            add("retryAfter", fault.retryAfter.map(JSONValue.int))
        case .truncatedJSON(let bytes): add("bytes", bytes.map(JSONValue.int))
        case .wrongShape(let body), .html(let body): add("body", body.map(JSONValue.string))
        case .emptyBody(let status): add("status", .int(status))
        case .wrongContentType(let type): add("contentType", .string(type))
        case .delay(let ms, let then):
            add("ms", .int(ms))
            add("then", then?.json)
        case .resetAfterBodyBytes(let bytes): add("bytes", .int(bytes))
        case .truncatedBody(let bytes, let framing):
            add("bytes", bytes.map(JSONValue.int))
            add("contentLength", .string(framing.rawValue))
        case .drip(let chunkSize, let interval):
            add("chunkSize", .int(chunkSize))
            add("intervalMs", .int(interval))
        case .closeLongPoll(let after, let mode):
            add("afterMs", .int(after))
            add("mode", .string(mode.rawValue))
        case .messages(let count, let channel):
            add("count", .int(count))
            add("channel", channel.map(JSONValue.string))
        case .foreignEncrypted(let key, let scheme, let message):
            add("cipherKey", .string(key))
            add("scheme", scheme.map(JSONValue.string))
            add("message", message.map(JSONValue.string))
        case .cursorBackwards(let by): add("by", .int(by))
        case .regionChange(let region): add("region", .int(region))
        case .preflightFailure(let fault):
            add("status", .int(fault.status))
            add("omit", fault.omit.map { JSONValue.string($0.rawValue) })
        case .truncatedGzip(let bytes): add("bytes", bytes.map(JSONValue.int))
        case .malformedJSON, .invalidChunked, .hang, .close, .reset, .resetAfterHeaders, .noCORS, .corruptGzip: break
        }
        return .object(JSONObject(members))
    }
}

/// Codable in schema form: decoding goes through the same path-naming checks as `FaultPlan.decode(json:)`.
extension FaultPlan: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension Fault: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value, path: "")
            try validate(path: "")
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
