// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import ConformanceKit

/// App Context on the driver protocol: operation fields, event lines, placeholders, expectations.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AppContextProtocolTests {
    @Test func operationsEncodeAsDocumented() {
        let set = ClientOperation.appContext(.setUUIDMetadata(uuid: "u", metadata: ["name": "N"], include: ["custom"], ifMatchesETag: "e1"))
        #expect(set.name == "setUUIDMetadata")
        #expect(JSONValue.object(JSONObject(set.driverFields)).jsonText
                == #"{"ifMatchesETag":"e1","include":["custom"],"metadata":{"name":"N"},"type":"setUUIDMetadata","uuid":"u"}"#)
        let manage = ClientOperation.appContext(.manageMembers(
            channel: "c", set: [AppContextMembership("a", custom: ["k": 1], status: "on")], remove: ["b"],
            AppContextListOptions(include: ["uuid.custom"], limit: 2, sort: ["name:desc"], filter: "name == \"x\"", start: "MQ",
                                  includeCount: true)))
        #expect(JSONValue.object(JSONObject(manage.driverFields)).jsonText
                == #"{"channel":"c","filter":"name == \"x\"","include":["uuid.custom"],"includeCount":true,"limit":2,"remove":["b"],"#
                + #""set":[{"custom":{"k":1},"id":"a","status":"on"}],"sort":["name:desc"],"start":"MQ","type":"manageMembers"}"#)
    }

    @Test func eventLinesDecode() throws {
        let line = try DriverLines.decode(#"{"type":"appContext","channel":"c","event":"set","entity":"channel","data":{"id":"c","name":"N"}}"#)
        #expect(line == .event(.appContext(AppContextEvent(channel: "c", event: "set", type: "channel", data: ["id": "c", "name": "N"]))))
        #expect(throws: ClientAdapterError.protocolViolation(#"appContext without channel, event or entity: {"type":"appContext"}"#)) {
            try DriverLines.decode(#"{"type":"appContext"}"#)
        }
    }

    @Test func placeholdersTakeTheLastResultsValues() {
        let last = OperationResult(data: ["data": ["id": "u", "eTag": "abc"], "next": "Mg", "prev": "MQ"])
        let set = ClientOperation.appContext(.setChannelMetadata(channel: "c", metadata: [:], include: [], ifMatchesETag: "{eTag}"))
        #expect(StepRunner.resolving(set, last: last)
                == .appContext(.setChannelMetadata(channel: "c", metadata: [:], include: [], ifMatchesETag: "abc")))
        let page = ClientOperation.appContext(.getMembers(channel: "c", AppContextListOptions(start: "{next}", end: "{prev}")))
        #expect(StepRunner.resolving(page, last: last) == .appContext(.getMembers(channel: "c", AppContextListOptions(start: "Mg", end: "MQ"))))
        // Without a last result the placeholder stays (the server then refuses the cursor).
        #expect(StepRunner.resolving(page, last: nil) == page)
        #expect(StepRunner.resolving(.time, last: last) == .time)
    }

    @Test func expectedEventsMatchByContainment() {
        let event = AppContextEvent(channel: "c", event: "set", type: "membership", data: ["channel": ["id": "c"], "uuid": ["id": "u"], "eTag": "x"])
        #expect(ExpectedAppContextEvent(channel: "c", event: "set", type: "membership", data: ["uuid": ["id": "u"]]).matches(event))
        #expect(!ExpectedAppContextEvent(channel: "c", event: "delete", type: "membership").matches(event))
        #expect(!ExpectedAppContextEvent(channel: "c", event: "set", type: "membership", data: ["uuid": ["id": "v"]]).matches(event))
        #expect(!ExpectedAppContextEvent(channel: "other", event: "set", type: "membership").matches(event))
    }
}
