// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// What thousands of alike connections share instead of each holding a copy: the query list and
/// the texts the journal keeps (same values as before, one storage).
@Suite("Pusher bridge: shared per-connection state", .serialized, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherBridgeSharedStateTests {
    static let subscribe = #"{"event":"pusher:subscribe","data":{"channel":"shared-channel"}}"#

    @Test func alikeConnectionsShareTheirJournaledQueryAndTextsAndKeepTheirValues() throws {
        try withPusherServer { server in
            for _ in 0..<2 {
                let (socket, _) = try server.established()
                #expect(try socket.subscribe("shared-channel").contains("subscription_succeeded"))
            }
            let (other, _) = try server.established()
            let otherText = #"{"event":"pusher:subscribe","data":{"channel":"other-channel"}}"#
            other.send(otherText)
            _ = try other.nextText()

            let entries = server.service.journal.entries(for: testApp.key)
            let queries = entries.compactMap { if case .connect(let query, _, _) = $0.kind { query } else { nil } }
            let texts = entries.compactMap { if case .text(let text, _) = $0.kind { text } else { nil } }
            #expect(queries.count == 3)
            #expect(queries.allSatisfy { $0 == queries[0] })
            #expect(queries[0].map(\.name) == ["protocol", "client", "version", "flash"])
            #expect(Set(queries.map(Self.storage)).count == 1)
            #expect(texts == [Self.subscribe, Self.subscribe, otherText])
            #expect(Self.storage(texts[0]) == Self.storage(texts[1]))
            #expect(Self.storage(texts[1]) != Self.storage(texts[2]))
        }
    }

    @Test func aDifferentQueryIsKeptAsItsOwn() throws {
        try withPusherServer { server in
            _ = try server.connect().nextText()
            _ = try server.connect(query: "protocol=7&client=java").nextText()
            let queries = server.service.journal.entries(for: testApp.key).compactMap {
                if case .connect(let query, _, _) = $0.kind { query } else { nil }
            }
            #expect(queries.map { $0.map(\.value) } == [["7", "js", "8.4.0", "false"], ["7", "java"]])
        }
    }

    private static func storage(_ query: [PusherQueryItem]) -> UInt {
        query.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    private static func storage(_ text: String) -> UInt {
        text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
    }
}
