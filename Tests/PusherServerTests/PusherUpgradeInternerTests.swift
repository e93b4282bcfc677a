// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

/// Upgrades alike share what they hold: one handler for connections on one key with one query and
/// no faults; a connection with faults always gets a handler of its own.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherUpgradeInternerTests {
    private let service = PusherService(apps: [PusherAppArgument.demo])

    private func handler(
        _ interner: PusherUpgradeInterner, key: String, query: [PusherQueryItem], faults: [PusherAppliedFault] = []
    ) -> PusherConnectionHandler {
        let faults = PusherConnectionFaults(faults)
        return interner.handler(appKey: key, query: query, faults: faults) {
            PusherConnectionHandler(service: service, appKey: key, query: query, faults: faults)
        }
    }

    @Test func upgradesAlikeShareOneHandler() {
        let interner = PusherUpgradeInterner()
        let query = interner.query([PusherQueryItem("protocol", "7")])
        let first = handler(interner, key: "k", query: query)
        let second = handler(interner, key: "k", query: interner.query([PusherQueryItem("protocol", "7")]))
        #expect(first === second)
        #expect(second.appKey == "k" && second.query == [PusherQueryItem("protocol", "7")] && second.faults.isEmpty)
    }

    @Test func anotherKeyQueryOrFaultsGetTheirOwnHandler() {
        let interner = PusherUpgradeInterner()
        let seven = [PusherQueryItem("protocol", "7")]
        let first = handler(interner, key: "k", query: seven)
        let otherKey = handler(interner, key: "other", query: seven)
        #expect(otherKey !== first && otherKey.appKey == "other")
        let otherQuery = handler(interner, key: "other", query: [PusherQueryItem("protocol", "6")])
        #expect(otherQuery !== otherKey && otherQuery.query == [PusherQueryItem("protocol", "6")])
        let fault = PusherAppliedFault(rule: "r1", fault: .withholdPongs(.websocket))
        let faulted = handler(interner, key: "other", query: [PusherQueryItem("protocol", "6")], faults: [fault])
        #expect(faulted !== otherQuery && faulted.faults == [fault])
        #expect(!faulted.answersPings)
        // The next upgrade without faults does not get the faulted connection's handler.
        let after = handler(interner, key: "other", query: [PusherQueryItem("protocol", "6")])
        #expect(after !== faulted && after.faults.isEmpty && after.answersPings)
    }

    @Test func theInternerDoesNotKeepAHandlerAlive() {
        let interner = PusherUpgradeInterner()
        let query = [PusherQueryItem("protocol", "7")]
        weak var released: PusherConnectionHandler?
        do {
            let first = handler(interner, key: "k", query: query)
            released = first
            #expect(handler(interner, key: "k", query: query) === first)
        }
        // With no connection holding it, the handler (and the service it refers to) is freed.
        #expect(released == nil)
        #expect(handler(interner, key: "k", query: query).appKey == "k")
    }
}
