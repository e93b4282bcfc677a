// SPDX-License-Identifier: MIT
import ClientUnderTest
import Testing

/// The "Quick example" of docs/client.md, verbatim between the markers, run against the mock server.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct QuickExampleTests {
    @Test func theDocumentedExampleWorks() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let events = Waitable<String>()
        let origin = mock.origin
        @Sendable func print(_ line: String) { events.append(line) }

        // --- Quick example (docs/client.md) ---
        final class Printer: PubNubListener {
            let output: @Sendable (String) -> Void
            init(output: @escaping @Sendable (String) -> Void) { self.output = output }
            func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent) {
                output("message \(message.message.jsonText) on \(message.channel)")
            }
            func client(_ client: PubNubClient, didReceiveStatus status: PNStatus) {
                output("status \(status.category.rawValue)")
            }
        }

        var config = PubNubConfiguration(publishKey: "pub-k", subscribeKey: "sub-k", uuid: "alice")
        config.origin = origin                     // host:port of the server
        config.tlsEnabled = false
        let client = try PubNubClient(configuration: config)   // throws ConfigurationError(field:reason:)
        client.addListener(Printer(output: { print($0) }))

        try await client.subscribe(channels: ["room"])       // → "status PNConnectedCategory"
        do {
            let sent = try await client.publish(["text": "hi"], channel: "room")
            print("published at \(sent.timetoken)")
        } catch {                                              // a PNStatus (typed throws)
            print("publish failed: \(error.category.rawValue) \(error.statusCode)")
        }
        let status = await client.unsubscribeAll()           // → "status PNDisconnectedCategory"
        print("leave: \(status.category.rawValue)")
        // --- end of quick example ---

        let lines = try #require(await events.wait {
            $0.contains("status PNDisconnectedCategory") && $0.contains { $0.hasPrefix("leave:") }
        })
        // `subscribe` returns once the change is taken and PNConnectedCategory comes when the
        // handshake answers: on a slow machine the publish, or even the unsubscribe, comes first
        // (an unsubscribe during the handshake reports only PNDisconnectedCategory).
        let statuses = lines.filter { $0.hasPrefix("status ") }
        #expect(statuses == ["status PNConnectedCategory", "status PNDisconnectedCategory"] || statuses == ["status PNDisconnectedCategory"])
        #expect(lines.contains { $0.hasPrefix("published at 1") })
        #expect(lines.contains("leave: PNAcknowledgmentCategory"))
        #expect(!lines.contains { $0.hasPrefix("publish failed") })
    }
}
