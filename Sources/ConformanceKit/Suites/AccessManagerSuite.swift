// SPDX-License-Identifier: MIT

/// Access Manager (spec §9): a 403 on every protected endpoint, grants, revocation.
enum AccessManagerSuite {
    static var cases: [ConformanceCase] {
        let needs: Set<Capability> = [.accessManager]
        let denied: [(String, ClientOperation, String)] = [
            ("publish", .publish(channel: "ch-pam", message: "x"), "§9.1"),
            ("signal", .signal(channel: "ch-pam", message: "x"), "§9.1"),
            ("here-now", .hereNow(channels: ["ch-pam"]), "§9.1"),
            ("where-now", .whereNow(uuid: nil), "§9.1"),
            ("set-state", .setState(channels: ["ch-pam"], state: ["k": 1]), "§9.1"),
            ("get-state", .getState(channels: ["ch-pam"], uuid: nil), "§9.1"),
            ("history", .history(channel: "ch-pam"), "§9.1"),
            ("fetch-messages", .fetchMessages(channels: ["ch-pam"]), "§9.1"),
            ("message-counts", .messageCounts(channels: ["ch-pam"], timetokens: ["10000000000000000"]), "§9.1"),
            ("delete-messages", .deleteMessages(channel: "ch-pam"), "§9.1"),
            ("group-add", .addChannelsToGroup(group: "grp", channels: ["ch-pam"]), "§9.1"),
            ("group-remove", .removeChannelsFromGroup(group: "grp", channels: ["ch-pam"]), "§9.1"),
            ("group-list", .listChannelsInGroup(group: "grp"), "§9.1"),
            ("group-delete", .deleteGroup(group: "grp"), "§9.1"),
        ]
        var cases = denied.map { name, operation, spec in
            ConformanceCase(
                "pam.denied.\(name)", "Without a grant, \(operation.name) is denied with PNAccessDeniedCategory", spec: spec,
                steps: [.perform(operation), .expectResult(ExpectedResult(category: .some(.accessDenied), isError: true, statusCode: 403))],
                expected: [.accessDenied], requires: needs, accessManager: true)
        }
        cases += [
            ConformanceCase(
                "pam.denied.subscribe", "Without a grant, subscribe reports PNAccessDeniedCategory", spec: "§9.1",
                steps: [.subscribe(["ch-pam"]), .expect(.accessDenied, within: 1_000)],
                expected: [.accessDenied], alternatives: [Alternative([.accessDenied, .unexpectedDisconnect], reason: "Swift SDK: .forbidden surfaces as disconnectedUnexpectedly (§11.3)")],
                requires: needs, accessManager: true),
            ConformanceCase(
                "pam.denied.wrong-auth-key", "A grant for another auth key does not admit the client", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-mine"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-other")), .publish("ch-pam", "x"),
                        .expectResult(ExpectedResult(category: .some(.accessDenied), isError: true, statusCode: 403))],
                expected: [.accessDenied], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.open.time", "Time is not protected by Access Manager", spec: "§3",
                steps: [.time, .expectResult(.success(timetokenPaths: ["timetoken"]))],
                expected: [], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.grant.publish", "After a write grant for the auth key, publish is acknowledged", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-1")), .publish("ch-pam", "allowed"),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))],
                expected: [.acknowledgment], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.grant.subscribe", "After a read grant, subscribe connects and receives", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-1", write: false)),
                        .subscribe(["ch-pam"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .serverPublish(channel: "ch-pam", message: "granted"), .expectMessage("ch-pam", "granted")],
                expected: [.connected], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.grant.read-only", "A read-only grant admits history but denies publish", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-1", write: false)),
                        .perform(.history(channel: "ch-pam")), .expectResult(.success()),
                        .publish("ch-pam", "nope"), .expectResult(ExpectedResult(category: .some(.accessDenied), isError: true, statusCode: 403))],
                expected: [.accessDenied], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.grant.group", "A manage+read grant on a group admits group management and group subscribe", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(groups: ["grp"], authKey: "auth-1", read: true, write: false, manage: true)),
                        .perform(.addChannelsToGroup(group: "grp", channels: ["ch-pam"])),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        .subscribe([], groups: ["grp"]), .expect(.connected)],
                expected: [.acknowledgment, .connected], requires: needs, accessManager: true),
            // A server-side client (configured with the secret key) grants by itself: the signed
            // grant v2 request (spec §9.2) is only accepted when its signature is right.
            ConformanceCase(
                "pam.grant.by-client", "A client with the secret key grants by a signed request; the grant admits publish", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1", secretKey: true),
                steps: [.perform(.grant(Grant(channels: ["ch-pam"], authKey: "auth-1"))),
                        .expectResult(ExpectedResult(isError: false, statusCode: 200)),
                        .expectJournal(.count(endpoint: "grant", query: ["signature": "*", "timestamp": "*", "auth": "auth-1", "w": "1"],
                                              atLeast: 1, atMost: 1), withinMs: 0),
                        .publish("ch-pam", "allowed"), .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))],
                expected: [.acknowledgment], requires: needs, accessManager: true),
            ConformanceCase(
                // A request signed with the secret key is a server-side request with root rights, so the
                // revoke does not deny the signing client itself (pubnub-modern.md §2.4, signatures on every request).
                "pam.grant.by-client-revoke", "A client with the secret key revokes by granting no rights; its own signed publish keeps root rights", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1", secretKey: true),
                steps: [.perform(.grant(Grant(channels: ["ch-pam"], authKey: "auth-1"))), .expectResult(ExpectedResult(isError: false)),
                        .publish("ch-pam", "before"), .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        .perform(.grant(Grant(channels: ["ch-pam"], authKey: "auth-1", read: false, write: false))),
                        .expectResult(ExpectedResult(isError: false)),
                        .expectJournal(.count(endpoint: "grant", query: ["signature": "*", "r": "0", "w": "0"], atLeast: 1, atMost: 1), withinMs: 0),
                        .publish("ch-pam", "after"), .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false))],
                expected: [.acknowledgment], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.revoke.publish", "Revoking a grant (all rights false) denies the next publish", spec: "§9.2",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-1")), .publish("ch-pam", "before"),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        .grant(Grant(channels: ["ch-pam"], authKey: "auth-1", read: false, write: false)),
                        .publish("ch-pam", "after"), .expectResult(ExpectedResult(category: .some(.accessDenied), isError: true))],
                expected: [.acknowledgment, .accessDenied], requires: needs, accessManager: true),
            ConformanceCase(
                "pam.revoke.subscribe-loop", "Revoking read while subscribed makes the loop report PNAccessDeniedCategory", spec: "§11.3",
                client: ClientOverrides(authKey: "auth-1"),
                steps: [.grant(Grant(channels: ["ch-pam"], authKey: "auth-1", write: false)), .subscribe(["ch-pam"]), .expect(.connected),
                        SubscribeSuite.longPollInFlight,
                        .grant(Grant(channels: ["ch-pam"], authKey: "auth-1", read: false, write: false)),
                        // The parked long-poll ends with a message; the next long-poll is checked against the new rights.
                        .serverPublish(channel: "ch-pam", message: "last"), .expectMessage("ch-pam", "last"),
                        .expect(.accessDenied, within: 1_000)],
                expected: [.connected, .accessDenied], tolerated: [.unexpectedDisconnect], requires: needs, accessManager: true),
        ]
        return cases
    }
}
