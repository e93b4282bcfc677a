// SPDX-License-Identifier: MIT
import HarnessJSON

/// Reads the members of one JSON object, naming the field path in every error.
struct PlanFieldReader {
    let members: JSONObject
    let path: String

    /// Reads `json` as an object at `path`, refusing members not in `allowed`.
    init(_ json: JSONValue, path: String, allowed: [String]) throws(FaultPlanError) {
        guard case .object(let members) = json else {
            throw FaultPlanError(path: path, message: "expected an object, found \(json.typeName)")
        }
        var seen: Set<String> = []
        for (name, _) in members {
            guard allowed.contains(name) else {
                throw FaultPlanError(path: PlanFieldPath.member(path, name), message: "unknown field")
            }
            guard seen.insert(name).inserted else {
                throw FaultPlanError(path: PlanFieldPath.member(path, name), message: "duplicate field")
            }
        }
        self.members = members
        self.path = path
    }

    func fieldPath(_ name: String) -> String { PlanFieldPath.member(path, name) }

    func value(_ name: String) -> JSONValue? {
        guard let value = members.first(where: { $0.0 == name })?.1 else { return nil }
        if case .null = value { return nil }
        return value
    }

    func required(_ name: String) throws(FaultPlanError) -> JSONValue {
        guard let value = value(name) else {
            throw FaultPlanError(path: fieldPath(name), message: "missing required field")
        }
        return value
    }

    func string(_ name: String) throws(FaultPlanError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else {
            throw FaultPlanError(path: fieldPath(name), message: "expected a string, found \(value.typeName)")
        }
        return text
    }

    func requiredString(_ name: String) throws(FaultPlanError) -> String {
        guard let text = try string(name) else {
            throw FaultPlanError(path: fieldPath(name), message: "missing required field")
        }
        return text
    }

    /// An integer within `range`; `expected` is the message for any value that is not one.
    func int(_ name: String, in range: ClosedRange<Int>, expected: String) throws(FaultPlanError) -> Int? {
        guard let value = value(name) else { return nil }
        guard case .number(let text) = value, let number = Int(text), range.contains(number) else {
            throw FaultPlanError(path: fieldPath(name), message: expected)
        }
        return number
    }

    func uint64(_ name: String, expected: String) throws(FaultPlanError) -> UInt64? {
        guard let value = value(name) else { return nil }
        guard case .number(let text) = value, let number = UInt64(text) else {
            throw FaultPlanError(path: fieldPath(name), message: expected)
        }
        return number
    }

    func double(_ name: String, in range: ClosedRange<Double>, expected: String) throws(FaultPlanError) -> Double? {
        guard let value = value(name) else { return nil }
        guard case .number(let text) = value, let number = Double(text), range.contains(number) else {
            throw FaultPlanError(path: fieldPath(name), message: expected)
        }
        return number
    }

    /// An object of string values, in order.
    func stringMap(_ name: String) throws(FaultPlanError) -> [(String, String)]? {
        guard let value = value(name) else { return nil }
        guard case .object(let members) = value else {
            throw FaultPlanError(path: fieldPath(name), message: "expected an object of strings, found \(value.typeName)")
        }
        var pairs: [(String, String)] = []
        for (key, item) in members {
            guard case .string(let text) = item else {
                throw FaultPlanError(
                    path: PlanFieldPath.member(fieldPath(name), key), message: "expected a string, found \(item.typeName)")
            }
            pairs.append((key, text))
        }
        return pairs
    }
}
