// SPDX-License-Identifier: MIT
import HarnessJSON

extension PusherFaultPlan {
    /// Decodes a plan (docs/fault-plans.md "Pusher plans"); unknown fields are refused.
    public static func decode(json bytes: [UInt8]) throws(PusherFaultPlanError) -> PusherFaultPlan {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw PusherFaultPlanError(path: "$", message: "invalid JSON: \(error)") }
        return try decode(value, path: "$")
    }

    static func decode(_ value: JSONValue, path: String) throws(PusherFaultPlanError) -> PusherFaultPlan {
        let fields = try PusherPlanFields(value, path: path, allowed: ["version", "appKey", "description", "rules"])
        if let version = try fields.int("version", in: 1...1) { _ = version }
        guard let rules = fields.members["rules"] else { throw PusherFaultPlanError(path: path == "$" ? "rules" : "\(path).rules", message: "required") }
        guard let items = rules.arrayValue else { throw PusherFaultPlanError(path: fields.path("rules"), message: "expected an array") }
        var decoded: [PusherFaultRule] = []
        for (index, item) in items.enumerated() {
            let rule = try PusherFaultRule.decode(item, path: fields.path("rules[\(index)]"))
            let id = rule.id ?? "rule-\(index)"
            if decoded.enumerated().contains(where: { ($0.element.id ?? "rule-\($0.offset)") == id }) {
                throw PusherFaultPlanError(path: fields.path("rules[\(index)].id"), message: "duplicate rule id \"\(id)\"")
            }
            decoded.append(rule)
        }
        return PusherFaultPlan(appKey: try fields.string("appKey"), description: try fields.string("description"), rules: decoded)
    }
}

extension PusherFaultRule {
    static func decode(_ value: JSONValue, path: String) throws(PusherFaultPlanError) -> PusherFaultRule {
        let fields = try PusherPlanFields(value, path: path, allowed: ["id", "description", "after", "times", "match", "fault"])
        _ = try fields.string("description")
        var query: [String: String] = [:]
        if let match = fields.members["match"] {
            let matchFields = try PusherPlanFields(match, path: fields.path("match"), allowed: ["query"])
            if let queryValue = matchFields.members["query"] {
                guard let object = queryValue.objectValue else { throw PusherFaultPlanError(path: matchFields.path("query"), message: "expected an object of strings") }
                for (name, item) in object {
                    guard let text = item.stringValue else { throw PusherFaultPlanError(path: matchFields.path("query.\(name)"), message: "expected a string") }
                    query[name] = text
                }
            }
        }
        guard let faultValue = fields.members["fault"] else { throw PusherFaultPlanError(path: fields.path("fault"), message: "required") }
        return PusherFaultRule(
            id: try fields.string("id"), after: try fields.int("after", in: 0...Int(Int32.max)) ?? 0,
            times: try fields.int("times", in: 1...Int(Int32.max)), query: query,
            fault: try PusherFault.decode(faultValue, path: fields.path("fault")))
    }
}

/// The members of one JSON object of a plan, read with path-carrying errors.
struct PusherPlanFields {
    let members: JSONObject
    let base: String

    init(_ value: JSONValue, path: String, allowed: Set<String>) throws(PusherFaultPlanError) {
        guard let members = value.objectValue else { throw PusherFaultPlanError(path: path, message: "expected an object") }
        base = path
        for key in members.keys where !allowed.contains(key) {
            throw PusherFaultPlanError(path: path == "$" ? key : "\(path).\(key)", message: "unknown field")
        }
        self.members = members
    }

    func path(_ name: String) -> String { base == "$" ? name : "\(base).\(name)" }

    func string(_ name: String) throws(PusherFaultPlanError) -> String? {
        guard let value = members[name] else { return nil }
        guard let text = value.stringValue else { throw PusherFaultPlanError(path: path(name), message: "expected a string") }
        return text
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(PusherFaultPlanError) -> Int? {
        guard let value = members[name] else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw PusherFaultPlanError(path: path(name), message: "expected an integer \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    func oneOf(_ name: String, _ choices: [String]) throws(PusherFaultPlanError) -> String? {
        guard let text = try string(name) else { return nil }
        guard choices.contains(text) else {
            throw PusherFaultPlanError(path: path(name), message: "expected one of \(choices.joined(separator: ", ")), got \"\(text)\"")
        }
        return text
    }
}
