// SPDX-License-Identifier: MIT

/// Publish and signal (spec §4): acknowledgment, a 17-digit timetoken, the request on the wire.
enum PublishSuite {
    static var cases: [ConformanceCase] {
        let payloads: [(String, String, JSONValue)] = [
            ("string", "a string", "hello"),
            ("number", "a number", 42),
            ("object", "an object", ["text": "hi", "n": 1, "nested": ["ok": true]]),
            ("array", "an array", ["a", 1, false, nil]),
            ("unicode", "non-ASCII text (é, ✓, 🙃)", "héllo ✓ 🙃"),
            ("boolean", "a boolean", true),
        ]
        var cases = payloads.map { name, what, message in
            ConformanceCase(
                "publish.get.\(name)", "Publishing \(what) is acknowledged with a timetoken", spec: "§4.1",
                steps: [
                    .publish("ch-pub", message),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, statusCode: 200, timetokenPaths: ["timetoken"])),
                    .expectJournal(.count(endpoint: "publish", query: ["uuid": "{uuid}"], atLeast: 1, atMost: 1), withinMs: 500),
                ],
                expected: [.acknowledgment])
        }
        cases += [
            ConformanceCase(
                "publish.post.object", "A POST publish carries the message in the body and is acknowledged", spec: "§4.2",
                steps: [
                    .publish("ch-pub", ["text": "posted"], usePOST: true),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"])),
                    .expectJournal(.count(endpoint: "publish", query: [:], atLeast: 1, atMost: 1), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.meta.object", "Publish with meta sends the meta query parameter", spec: "§4.1",
                steps: [
                    .publish("ch-pub", "with meta", meta: ["tag": "x"]),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                    .expectJournal(.count(endpoint: "publish", query: ["meta": "*"], atLeast: 1), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.store.disabled", "storeInHistory=false sends store=0", spec: "§4.1",
                steps: [
                    .perform(.publish(channel: "ch-pub", message: "not stored", storeInHistory: false)),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                    .expectJournal(.count(endpoint: "publish", query: ["store": "0"], atLeast: 1), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.fire.not-stored-not-replicated", "Fire is a publish sent with store=0 and norep, acknowledged with a timetoken", spec: "§4.3",
                steps: [
                    .perform(.fire(channel: "ch-fire", message: ["to": "functions"])),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"])),
                    // `norep` is `true` or `1` depending on the SDK (spec §4.1 table).
                    .expectJournal(.count(endpoint: "publish", query: ["store": "0", "norep": "true|1"], atLeast: 1, atMost: 1), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.channel.encoded-name", "A channel name with spaces and non-ASCII is percent-encoded and accepted", spec: "§2.3",
                steps: [
                    .publish("ch pub ünï", "encoded"),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, statusCode: 200)),
                    .expectJournal(.pathContains(endpoint: "publish", substring: "ch%20pub%20", true), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.result.two-publishes", "Two publishes are two requests, each acknowledged", spec: "§4.1",
                steps: [
                    .publish("ch-pub", "one"), .expectResult(.init(category: .some(.acknowledgment), isError: false)),
                    .publish("ch-pub", "two"), .expectResult(.init(category: .some(.acknowledgment), isError: false)),
                    .expectJournal(.count(endpoint: "publish", atLeast: 2, atMost: 2), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.signal.string", "A signal is acknowledged with a timetoken", spec: "§4.4",
                steps: [
                    .perform(.signal(channel: "ch-sig", message: "ping")),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, statusCode: 200, timetokenPaths: ["timetoken"])),
                    .expectJournal(.count(endpoint: "signal", atLeast: 1, atMost: 1), withinMs: 500),
                ],
                expected: [.acknowledgment]),
            ConformanceCase(
                "publish.signal.object", "A small object signal is acknowledged", spec: "§4.4",
                steps: [
                    .perform(.signal(channel: "ch-sig", message: ["typing": true])),
                    .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"])),
                ],
                expected: [.acknowledgment]),
        ]
        return cases
    }
}
