// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The App Context filter language, pure: parsing, precedence, evaluation, errors.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ObjectsFilterTests {
    let record: [String: JSONValue] = [
        "name": "Jane Doe", "status": "active", "custom.age": .int(42), "custom.vip": true, "channel.name": "General",
    ]

    func eval(_ text: String) throws -> Bool {
        let expression = try ObjectsFilter.parse(text).get()
        return ObjectsFilter.matches(expression) { record[$0] }
    }

    @Test func comparisonsOnStringsNumbersAndBooleans() throws {
        #expect(try eval("name == \"Jane Doe\""))
        #expect(try !eval("name != 'Jane Doe'"))
        #expect(try eval("custom.age > 41 && custom.age <= 42"))
        #expect(try !eval("custom.age < \"50\""))
        #expect(try eval("custom.vip == true"))
        #expect(try eval("missing == null") && eval("missing != \"x\""))
        #expect(try eval("channel.name >= \"G\""))
    }

    @Test func likeUsesStarAsWildcardAndIsCaseSensitive() throws {
        #expect(try eval("name LIKE \"Jane*\"") && eval("name like '*Doe'") && eval("name LiKe \"*e D*\"") && eval("name LIKE \"*\""))
        #expect(try !eval("name LIKE \"jane*\"") && !eval("name LIKE \"Jane\""))
        #expect(ObjectsFilter.like(Array("aXbXc".utf8), Array("a*c".utf8)) && !ObjectsFilter.like(Array("ab".utf8), Array("a*c".utf8)))
    }

    @Test func precedenceAndParentheses() throws {
        // && binds tighter than ||; ! applies to the next term.
        #expect(try eval("status == \"x\" && name == \"x\" || custom.vip == true"))
        #expect(try !eval("status == \"x\" && (name == \"x\" || custom.vip == true)"))
        #expect(try eval("!(status == \"x\") && !name LIKE \"Bob*\""))
        #expect(try ObjectsFilter.parse("a == 1 || b == 2 && c == 3").get()
            == .or(.compare(field: "a", op: .equal, value: .int(1)),
                   .and(.compare(field: "b", op: .equal, value: .int(2)), .compare(field: "c", op: .equal, value: .int(3)))))
    }

    @Test func invalidFiltersAreRefusedWithAPosition() {
        func error(_ text: String) -> String? {
            if case .failure(let failure) = ObjectsFilter.parse(text) { return failure.description }
            return nil
        }
        #expect(error("name ==") == "expected a value at position 7")
        #expect(error("name = \"x\"") == "expected an operator after name at position 5")
        #expect(error("(name == \"x\"") == "expected ')' at position 12")
        #expect(error("name == \"x") == "unterminated string at position 10")
        #expect(error("name == \"x\" extra") == "unexpected input at position 12")
        #expect(error("name LIKE 5") == "LIKE needs a string at position 11")
        #expect(error(String(repeating: "(", count: 40) + "a == 1" + String(repeating: ")", count: 40)) != nil)
        #expect(error("") == "expected a field name at position 0")
    }
}
