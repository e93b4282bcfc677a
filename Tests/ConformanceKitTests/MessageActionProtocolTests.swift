// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import ConformanceKit

/// Message actions on the driver protocol: operation fields, event lines, timetoken placeholders,
/// event matching.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MessageActionProtocolTests {
    private func text(_ operation: ClientOperation) -> String { JSONValue.object(JSONObject(operation.driverFields)).jsonText }

    @Test func operationsEncodeAsDocumented() {
        #expect(text(.messageActions(.add(channel: "c", messageTimetoken: "11", type: "reaction", value: "smile")))
            == #"{"action":{"type":"reaction","value":"smile"},"channel":"c","messageTimetoken":"11","type":"addMessageAction"}"#)
        #expect(text(.messageActions(.get(channel: "c"))) == #"{"channel":"c","type":"getMessageActions"}"#)
        #expect(text(.messageActions(.get(channel: "c", start: "20", end: "10", limit: 2)))
            == #"{"channel":"c","end":"10","limit":2,"start":"20","type":"getMessageActions"}"#)
        #expect(text(.messageActions(.remove(channel: "c", messageTimetoken: "11", actionTimetoken: "21")))
            == #"{"actionTimetoken":"21","channel":"c","messageTimetoken":"11","type":"removeMessageAction"}"#)
        #expect(text(.fetchMessages(channels: ["c"], includeMessageActions: true))
            == #"{"channels":["c"],"includeMessageActions":true,"type":"fetchMessages"}"#)
        // Without actions, fetch sends exactly what the first protocol knew.
        #expect(text(.fetchMessages(channels: ["c"])) == #"{"channels":["c"],"type":"fetchMessages"}"#)
    }

    @Test func eventLinesDecode() throws {
        let line = try DriverLines.decode(#"{"type":"messageAction","channel":"c","event":"removed","action":{"type":"t","value":"v","uuid":"u","messageTimetoken":"11","actionTimetoken":"21"}}"#)
        #expect(line == .event(.messageAction(MessageActionEvent(
            channel: "c", event: "removed", action: ["type": "t", "value": "v", "uuid": "u", "messageTimetoken": "11", "actionTimetoken": "21"]))))
        // A client that cannot tell added from removed reports no event.
        let unnamed = try DriverLines.decode(#"{"type":"messageAction","channel":"c","event":null,"action":{"type":"t"}}"#)
        #expect(unnamed == .event(.messageAction(MessageActionEvent(channel: "c", event: nil, action: ["type": "t"]))))
        #expect(throws: ClientAdapterError.protocolViolation(#"messageAction without channel or action object: {"type":"messageAction","channel":"c"}"#)) {
            try DriverLines.decode(#"{"type":"messageAction","channel":"c"}"#)
        }
    }

    @Test func placeholdersTakeTheCasesTimetokens() {
        let slots = CaseTimetokens()
        slots.record(.publish(channel: "c", message: 1), OperationResult(category: .acknowledgment, data: ["timetoken": "11"]))
        slots.record(.publish(channel: "c", message: 2), OperationResult(category: .acknowledgment, data: ["timetoken": .number("12")]))
        // A failed publish names no message.
        slots.record(.publish(channel: "c", message: 3), .failure(.unknown, statusCode: 500, data: ["timetoken": "13"]))
        slots.record(.messageActions(.add(channel: "c", messageTimetoken: "11", type: "t", value: "v")),
                     OperationResult(category: .acknowledgment, data: ["actionTimetoken": "21"]))
        #expect(slots.substitute("{message.1}/{message.2}/{message.3}/{action.1}") == "11/12/{message.3}/21")
        slots.record(.messageActions(.get(channel: "c")), OperationResult(data: ["actions": [], "more": ["start": "21", "end": "20", "limit": 2]]))
        #expect(slots.substitute("{more.start}-{more.end}") == "21-20")
        // The last page has no `more`: its placeholders stay, and show in the failure.
        slots.record(.messageActions(.get(channel: "c")), OperationResult(data: ["actions": []]))
        #expect(slots.substitute("{more.start}") == "{more.start}")
        let resolved = MessageActionOperation.remove(channel: "c", messageTimetoken: "{message.2}", actionTimetoken: "{action.1}")
            .resolving(slots.substitute)
        #expect(resolved == .remove(channel: "c", messageTimetoken: "12", actionTimetoken: "21"))
    }

    @Test func anExpectedEventMatchesByChannelKindAndContainedAction() {
        let expected = ExpectedMessageAction(channel: "c", event: "added", action: ["type": "t", "uuid": "u"])
        let action: JSONValue = ["type": "t", "value": "v", "uuid": "u", "actionTimetoken": "21"]
        #expect(expected.matches(MessageActionEvent(channel: "c", event: "added", action: action)))
        #expect(!expected.matches(MessageActionEvent(channel: "c", event: "removed", action: action)))
        #expect(!expected.matches(MessageActionEvent(channel: "c", event: nil, action: action)))
        #expect(!expected.matches(MessageActionEvent(channel: "d", event: "added", action: action)))
        #expect(!expected.matches(MessageActionEvent(channel: "c", event: "added", action: ["type": "t", "uuid": "w"])))
    }
}
