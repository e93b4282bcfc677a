// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit

/// Converts between the client's JSON value (exact integers) and the harness's (numbers as Double).
enum JSONBridge {
    /// Client JSON → harness JSON.
    static func harness(_ value: ClientUnderTest.JSONValue) -> ConformanceKit.JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(harness))
        case .object(let members): .object(members.mapValues(harness))
        }
    }

    /// Harness JSON → client JSON; integral numbers in the Int64 range become exact integers.
    static func client(_ value: ConformanceKit.JSONValue) -> ClientUnderTest.JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 { return .int(Int64(number)) }
            return .double(number)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(client))
        case .object(let members): return .object(members.mapValues(client))
        }
    }
}
