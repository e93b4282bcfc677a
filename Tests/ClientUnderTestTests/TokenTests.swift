// SPDX-License-Identifier: MIT
import ClientUnderTest
import MockPubNubServer
import PubNubToken
import Testing

/// Access Manager v3 with the built-in client against the in-process server: a server-side
/// client grants and revokes, another client sets the token, `parseToken` reads it back.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ClientTokenTests {
    private static let keyset = Keyset(subscribeKey: "sub-v3", publishKey: "pub-v3", secretKey: "sec-v3")

    private func client(_ mock: MockServerHarness, _ configure: @escaping (inout PubNubConfiguration) -> Void) throws -> PubNubClient {
        try makeClient(origin: mock.origin) {
            $0.subscribeKey = "sub-v3"
            $0.publishKey = "pub-v3"
            configure(&$0)
        }
    }

    @Test func grantSetParseAndRevoke() async throws {
        let mock = try MockServerHarness(keysets: [Self.keyset], subscribeKey: "sub-v3")
        defer { mock.stop() }
        let admin = try client(mock) { $0.secretKey = "sec-v3"; $0.uuid = "admin" }
        let grant = PNTokenGrant(ttl: 10, channels: ["room": [.read, .write]], channelPatterns: ["^lobby-[0-9]+$": .write],
                                 authorizedUUID: "alice", meta: ["tier": "gold"])
        let token = try await admin.grantToken(grant).get()
        let parsed = try #require(PubNubClient.parseToken(token))
        #expect(parsed.ttl == 10)
        #expect(parsed.authorizedUUID == "alice")
        #expect(parsed.resources[.channels] == [TokenGrantEntry(name: "room", mask: 3)])
        #expect(parsed.patterns[.channels] == [TokenGrantEntry(name: "^lobby-[0-9]+$", mask: 2)])
        #expect(parsed.metaJSON == ["tier": "gold"])
        #expect(PubNubClient.parseToken("not a token") == nil)

        let alice = try client(mock) { $0.uuid = "alice"; $0.authKey = "v2-key" }
        alice.setToken(token)
        _ = try await alice.publish("hi", channel: "room")
        _ = try await alice.publish("hi", channel: "lobby-7")
        #expect(mock.journal.last?.query("auth") == token)
        do throws(PNStatus) {
            _ = try await alice.publish("x", channel: "other")
            Issue.record("expected access denied")
        } catch {
            #expect(error.category == .accessDenied)
            #expect(error.errorData?.channels == ["other"])
        }
        #expect(await admin.revokeToken(token).category == .acknowledgment)
        do throws(PNStatus) {
            _ = try await alice.publish("x", channel: "room")
            Issue.record("expected access denied")
        } catch {
            #expect(error.category == .accessDenied)
            #expect(error.statusCode == 403)
            #expect(error.errorData?.information.contains("Token is revoked") == true)
        }
        // Back to the auth key, which has no v2 grant: a plain Forbidden.
        alice.setToken(nil)
        await #expect(throws: PNStatus.self) { _ = try await alice.publish("x", channel: "room") }
        #expect(mock.journal.last?.query("auth") == "v2-key")
    }

    @Test func failuresReportTheirCategories() async throws {
        let mock = try MockServerHarness(keysets: [Self.keyset], subscribeKey: "sub-v3")
        defer { mock.stop() }
        let noSecret = try client(mock) { _ in }
        let local = await noSecret.grantToken(PNTokenGrant(ttl: 5, channels: ["c": .read]))
        #expect(throws: PNStatus.self) { try local.get() }
        #expect(mock.journal.isEmpty)
        let admin = try client(mock) { $0.secretKey = "sec-v3" }
        switch await admin.grantToken(PNTokenGrant(ttl: 43_201, channels: ["c": .read])) {
        case .success: Issue.record("expected a 400")
        case .failure(let status):
            #expect(status.category == .badRequest)
            #expect(status.statusCode == 400)
        }
        let forger = try client(mock) { $0.secretKey = "wrong" }
        switch await forger.grantToken(PNTokenGrant(ttl: 5, channels: ["c": .read])) {
        case .success: Issue.record("expected a 403")
        case .failure(let status): #expect(status.category == .accessDenied)
        }
        #expect(await admin.revokeToken("garbage").category == .badRequest)
    }
}
