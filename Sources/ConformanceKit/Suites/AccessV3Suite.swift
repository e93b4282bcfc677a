// SPDX-License-Identifier: MIT

/// Access Manager v3 tokens (pubnub-modern.md §2): tokens issued on the case's keyset and set on
/// the client, every permission bit, patterns, authorized uuid, expiry, revocation, a server-side
/// client that grants and revokes (and has root rights through its signature), faults on both.
enum AccessV3Suite {
    static let needs: Set<Capability> = [.accessManager, .accessTokens]
    static let ch = "ch-v3"
    static let denied = CaseStep.expectResult(ExpectedResult(category: .some(.accessDenied), isError: true, statusCode: 403))
    static let acknowledged = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))
    static let useToken = CaseStep.perform(.setToken(token: "{token}"))
    /// The declared budget floor: each case's budget is derived from its steps (`CaseBudget.derive`:
    /// a base margin, a margin per action, every wait window), so the floor adds nothing of its own.
    static let floor: Duration = .milliseconds(200)

    /// A case run with a token issued first and set on the client.
    static func withToken(
        _ id: String, _ title: String, spec: String = "§2.4", _ grant: TokenGrant, client: ClientOverrides = ClientOverrides(),
        steps: [CaseStep], expected: [StatusCategory], tolerated: [StatusCategory] = [], alternatives: [Alternative] = []
    ) -> ConformanceCase {
        ConformanceCase(
            "access-v3." + id, title, spec: spec, client: client, steps: [.issueToken(grant), useToken] + steps, expected: expected,
            tolerated: tolerated, alternatives: alternatives, timeBudget: floor, requires: needs, accessManager: true)
    }

    static var cases: [ConformanceCase] { tokenCases + lifecycleCases + serverSideCases }

    static var tokenCases: [ConformanceCase] {
        [
            withToken("write.publish", "A token with write on the channel admits publish", TokenGrant(channels: [ch: TokenGrant.write]),
                      steps: [.publish(ch, "x"), acknowledged], expected: [.acknowledgment]),
            withToken("write.no-history", "A write-only token denies history with PNAccessDeniedCategory", TokenGrant(channels: [ch: TokenGrant.write]),
                      steps: [.perform(.history(channel: ch)), denied], expected: [.accessDenied]),
            withToken("read.history", "A read token admits history and here now, and denies publish", TokenGrant(channels: [ch: TokenGrant.read]),
                      steps: [.perform(.history(channel: ch)), .expectResult(.success()), .perform(.hereNow(channels: [ch])),
                              .expectResult(.success()), .publish(ch, "x"), denied],
                      expected: [.accessDenied]),
            withToken("read.subscribe", "A read token admits subscribe; messages arrive", TokenGrant(channels: [ch: TokenGrant.read]),
                      steps: [.subscribe([ch]), .expect(.connected), SubscribeSuite.longPollInFlight,
                              .serverPublish(channel: ch, message: "granted"), .expectMessage(ch, "granted")],
                      expected: [.connected]),
            withToken("no-read.subscribe", "Subscribing without read reports PNAccessDeniedCategory", TokenGrant(channels: [ch: TokenGrant.write]),
                      steps: [.subscribe([ch]), .expect(.accessDenied, within: 1_000)], expected: [.accessDenied],
                      alternatives: [Alternative([.accessDenied, .unexpectedDisconnect], reason: "Swift SDK: .forbidden surfaces as disconnectedUnexpectedly (§11.3)")]),
            withToken("delete.history", "A delete token admits deleting messages; read alone does not",
                      TokenGrant(channels: [ch: TokenGrant.delete, "ch-v3-other": TokenGrant.read]),
                      steps: [.perform(.deleteMessages(channel: ch)), acknowledged,
                              .perform(.deleteMessages(channel: "ch-v3-other")), denied],
                      expected: [.acknowledgment, .accessDenied]),
            withToken("manage.group", "Manage on a group admits group changes; read on it admits listing and group subscribe",
                      TokenGrant(channels: [ch: TokenGrant.read], groups: ["grp-v3": TokenGrant.manage | TokenGrant.read]),
                      steps: [.perform(.addChannelsToGroup(group: "grp-v3", channels: [ch])), acknowledged,
                              .perform(.listChannelsInGroup(group: "grp-v3")), .expectResult(.success()),
                              .subscribe([], groups: ["grp-v3"]), .expect(.connected)],
                      expected: [.acknowledgment, .connected]),
            withToken("no-manage.group", "Read on a group does not admit adding channels", TokenGrant(groups: ["grp-v3": TokenGrant.read]),
                      steps: [.perform(.addChannelsToGroup(group: "grp-v3", channels: [ch])), denied], expected: [.accessDenied]),
            withToken("get-update-join.not-write", "get, update and join (App Context bits) do not admit publish",
                      TokenGrant(channels: [ch: TokenGrant.get | TokenGrant.update | TokenGrant.join]),
                      steps: [.publish(ch, "x"), denied], expected: [.accessDenied]),
            withToken("pattern.match", "A channel pattern (regular expression) admits publish on matching channels",
                      TokenGrant(channelPatterns: ["^room-[0-9]+$": TokenGrant.write]),
                      steps: [.publish("room-42", "x"), acknowledged, .publish("room-x", "x"), denied],
                      expected: [.acknowledgment, .accessDenied]),
            withToken("pattern.exact-first", "An exact resource entry decides before a matching pattern",
                      TokenGrant(channels: ["room-7": TokenGrant.read], channelPatterns: ["^room-[0-9]+$": TokenGrant.write]),
                      steps: [.publish("room-7", "x"), denied], expected: [.accessDenied]),
            withToken("uuid.authorized", "A token with the client's uuid as authorized uuid admits its requests",
                      TokenGrant(channels: [ch: TokenGrant.write], authorizedUUID: "{uuid}"),
                      steps: [.publish(ch, "x"), acknowledged], expected: [.acknowledgment]),
            withToken("uuid.other", "A token authorized for another uuid is refused", TokenGrant(channels: [ch: TokenGrant.write], authorizedUUID: "someone-else"),
                      steps: [.publish(ch, "x"), denied], expected: [.accessDenied]),
            withToken("token.over-auth-key", "A token takes priority over the auth key's v2 grant",
                      TokenGrant(channels: [ch: TokenGrant.read]), client: ClientOverrides(authKey: "auth-v2"),
                      steps: [.grant(Grant(channels: [ch], authKey: "auth-v2")), .publish(ch, "x"), denied,
                              .perform(.setToken(token: "")), .publish(ch, "y"), acknowledged],
                      expected: [.accessDenied, .acknowledgment]),
        ]
    }

    static var lifecycleCases: [ConformanceCase] {
        [
            withToken("expiry.ttl", "A token lapses after its ttl (access clock moved by the admin API)", TokenGrant(ttl: 1, channels: [ch: TokenGrant.write]),
                      steps: [.publish(ch, "before"), acknowledged,
                              .serverRequest(method: "POST", path: "/__admin/access-clock/{sub}", query: ["advance": "61"]),
                              .publish(ch, "after"), denied],
                      expected: [.acknowledgment, .accessDenied]),
            withToken("revoke.publish", "A revoked token is refused", TokenGrant(channels: [ch: TokenGrant.write]),
                      steps: [.publish(ch, "before"), acknowledged,
                              .serverRequest(method: "POST", path: "/__admin/tokens/{sub}", query: ["revoke": "{token}"]),
                              .publish(ch, "after"), denied],
                      expected: [.acknowledgment, .accessDenied]),
            withToken("revoke.subscribed", "Revoking the token while subscribed makes the loop report PNAccessDeniedCategory",
                      TokenGrant(channels: [ch: TokenGrant.read]),
                      steps: [.subscribe([ch]), .expect(.connected), SubscribeSuite.longPollInFlight,
                              .serverRequest(method: "POST", path: "/__admin/tokens/{sub}", query: ["revoke": "{token}"]),
                              // The parked long-poll ends with a message; the next one is checked against the revoked token.
                              .serverPublish(channel: ch, message: "last"), .expectMessage(ch, "last"),
                              .expect(.accessDenied, within: 1_000)],
                      expected: [.connected, .accessDenied], tolerated: [.unexpectedDisconnect]),
            withToken("parse.every-bit", "parseToken reads back every permission bit, the ttl, the authorized uuid and meta",
                      TokenGrant(ttl: 15, channels: ["c-r": 1, "c-w": 2, "c-m": 4, "c-d": 8, "c-g": 32, "c-u": 64, "c-j": 128],
                                 groups: ["g": 5], uuids: ["u": 104], channelPatterns: ["^p-.*$": 3], authorizedUUID: "{uuid}",
                                 meta: ["tier": "gold", "n": 2]),
                      steps: [.perform(.parseToken(token: "{token}")),
                              .expectResult(.success(["version": 2, "ttl": 15, "authorizedUUID": "{uuid}", "meta": ["tier": "gold", "n": 2],
                                                      "resources": ["channels": ["c-r": 1, "c-w": 2, "c-m": 4, "c-d": 8, "c-g": 32, "c-u": 64, "c-j": 128],
                                                                    "groups": ["g": 5], "uuids": ["u": 104]],
                                                      "patterns": ["channels": ["^p-.*$": 3]]]))],
                      expected: []),
        ]
    }

    static var serverSideCases: [ConformanceCase] {
        let server = ClientOverrides(secretKey: true)
        let grant = TokenGrant(ttl: 30, channels: [ch: TokenGrant.read | TokenGrant.write], authorizedUUID: "user-1")
        func faultCase(_ id: String, endpoint: String, steps: [CaseStep], expected: [StatusCategory] = [], title: String) -> ConformanceCase {
            ConformanceCase(
                "access-v3.faults." + id, title, spec: "§2.1",
                plan: PlanBuilder.plan(PlanBuilder.rule(id, endpoint: endpoint, times: 1, fault: PlanBuilder.status(500))),
                client: server, steps: steps, expected: expected, tolerated: [.unknown, .badRequest], timeBudget: floor,
                requires: needs, accessManager: true)
        }
        return [
            ConformanceCase(
                "access-v3.grant.by-client", "A client with the secret key grants a token by a signed POST; parseToken reads it", spec: "§2.1",
                client: server,
                steps: [.perform(.grantToken(grant)), .expectResult(ExpectedResult(isError: false, statusCode: 200)),
                        .expectJournal(.count(endpoint: "grant-token", query: ["signature": "*", "timestamp": "*"], atLeast: 1, atMost: 1), withinMs: 0),
                        .perform(.parseToken(token: "{token}")),
                        .expectResult(.success(["ttl": 30, "authorizedUUID": "user-1", "resources": ["channels": [ch: 3]]]))],
                expected: [], timeBudget: floor, requires: needs, accessManager: true),
            ConformanceCase(
                "access-v3.revoke.by-client", "A client with the secret key revokes a token it granted", spec: "§2.2",
                client: server,
                steps: [.perform(.grantToken(grant)), .expectResult(ExpectedResult(isError: false)),
                        .perform(.revokeToken(token: "{token}")), acknowledged,
                        .expectJournal(.count(endpoint: "revoke-token", query: ["signature": "*"], atLeast: 1, atMost: 1), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: floor, requires: needs, accessManager: true),
            ConformanceCase(
                "access-v3.grant.invalid-ttl", "A ttl above 43200 minutes is refused with PNBadRequestCategory (400)", spec: "§2.1",
                client: server,
                steps: [.perform(.grantToken(TokenGrant(ttl: 43_201, channels: [ch: TokenGrant.read]))),
                        .expectResult(ExpectedResult(category: .some(.badRequest), isError: true, statusCode: 400))],
                expected: [.badRequest], timeBudget: floor, requires: needs, accessManager: true),
            ConformanceCase(
                "access-v3.server-side.root", "Requests signed with the secret key have root rights without any grant", spec: "§9.2",
                client: server,
                steps: [.publish(ch, "x"), acknowledged, .perform(.history(channel: ch)), .expectResult(.success()),
                        .expectJournal(.count(endpoint: "publish", query: ["signature": "*", "timestamp": "*"], atLeast: 1), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: floor, requires: needs, accessManager: true),
            faultCase("grant-500", endpoint: "grant-token",
                      steps: [.perform(.grantToken(grant)), .expectResult(ExpectedResult(isError: true, statusCode: 500)),
                              .perform(.grantToken(grant)), .expectResult(ExpectedResult(isError: false, statusCode: 200))],
                      title: "A 500 on grant-token fails that grant; the next grant succeeds"),
            faultCase("revoke-500", endpoint: "revoke-token",
                      steps: [.perform(.grantToken(grant)), .expectResult(ExpectedResult(isError: false)),
                              .perform(.revokeToken(token: "{token}")), .expectResult(ExpectedResult(isError: true, statusCode: 500)),
                              .perform(.revokeToken(token: "{token}")), acknowledged],
                      expected: [.acknowledgment], title: "A 500 on revoke-token fails that revoke; the retry succeeds"),
        ]
    }
}
