// SPDX-License-Identifier: MIT

/// Presence (spec §5.6, §6): events, here now, where now, state, heartbeats.
enum PresenceSuite {
    /// Another user ("ghost") joins `channel` through a heartbeat sent by the runner.
    static func ghostJoins(_ channel: String, heartbeat: Int = 60) -> CaseStep {
        .serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/\(channel)/heartbeat",
                       query: ["uuid": "ghost", "heartbeat": String(heartbeat)])
    }

    static var cases: [ConformanceCase] { basicCases + observedCases }

    /// The window in which a client sends `count` heartbeats (the first on joining) at an interval
    /// under a second: `count - 1` whole seconds, the shortest interval every client can be given
    /// (SDKs taking whole seconds round up), plus one second for the first heartbeat's offset and
    /// the load a run's time scale does not capture.
    static func heartbeatWindowMs(count: Int) -> Int { (count - 1) * 1_000 + 1_000 }

    static var basicCases: [ConformanceCase] {
        let presence: Set<Capability> = [.presence]
        return [
            ConformanceCase(
                "presence.events.own-join", "Subscribing with presence delivers the client's own join", spec: "§5.6",
                steps: [.subscribe(["ch-p"], withPresence: true), .expect(.connected),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "join", uuid: "{uuid}"), withinMs: 1_000)],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.events.other-join", "Another user's join is delivered with the occupancy", spec: "§5.6",
                steps: [.subscribe(["ch-p"], withPresence: true), .expect(.connected), SubscribeSuite.longPollInFlight,
                        ghostJoins("ch-p"),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "join", uuid: "ghost", occupancy: 2), withinMs: 1_000)],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.events.other-leave", "Another user's leave is delivered", spec: "§5.6",
                steps: [.subscribe(["ch-p"], withPresence: true), .expect(.connected), SubscribeSuite.longPollInFlight,
                        ghostJoins("ch-p"),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "join", uuid: "ghost"), withinMs: 1_000),
                        .serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/ch-p/leave", query: ["uuid": "ghost"]),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "leave", uuid: "ghost"), withinMs: 1_000)],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.events.timeout", "A user whose heartbeat lapses produces a timeout event", spec: "§5.6",
                steps: [.subscribe(["ch-p"], withPresence: true), .expect(.connected), SubscribeSuite.longPollInFlight,
                        ghostJoins("ch-p", heartbeat: 1),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "timeout", uuid: "ghost"), withinMs: 3_000)],
                expected: [.connected], timeBudget: .seconds(4), requires: presence),
            ConformanceCase(
                "presence.events.state-change", "Another user's state change is delivered with the state", spec: "§5.6",
                steps: [.subscribe(["ch-p"], withPresence: true), .expect(.connected), SubscribeSuite.longPollInFlight,
                        ghostJoins("ch-p"),
                        .serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/ch-p/uuid/ghost/data",
                                       query: ["uuid": "ghost", "state": #"{"mood":"calm"}"#]),
                        .expectPresence(ExpectedPresence(channel: "ch-p", action: "state-change", uuid: "ghost", state: ["mood": "calm"]), withinMs: 1_000)],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.here-now.other", "Here now lists another user present on the channel", spec: "§6.3",
                steps: [ghostJoins("ch-p"), .perform(.hereNow(channels: ["ch-p"])),
                        .expectResult(.success(["totalOccupancy": 1, "channels": ["ch-p": ["occupancy": 1, "uuids": [["uuid": "ghost"]]]]]))],
                expected: [], requires: presence),
            ConformanceCase(
                "presence.here-now.self", "Here now counts the subscribed client itself", spec: "§6.3",
                steps: [.subscribe(["ch-p"]), .expect(.connected),
                        .perform(.hereNow(channels: ["ch-p"])),
                        .expectResult(.success(["channels": ["ch-p": ["occupancy": 1, "uuids": [["uuid": "{uuid}"]]]]]))],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.here-now.empty", "Here now on an empty channel reports occupancy 0", spec: "§6.3",
                steps: [.perform(.hereNow(channels: ["ch-empty"])),
                        .expectResult(.success(["totalOccupancy": 0]))],
                expected: [], requires: presence),
            ConformanceCase(
                "presence.here-now.with-state", "Here now with state returns the state a user set", spec: "§6.3",
                steps: [ghostJoins("ch-p"),
                        .serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/ch-p/uuid/ghost/data",
                                       query: ["uuid": "ghost", "state": #"{"age":7}"#]),
                        .perform(.hereNow(channels: ["ch-p"], includeUUIDs: true, includeState: true)),
                        .expectResult(.success(["channels": ["ch-p": ["uuids": [["uuid": "ghost", "state": ["age": 7]]]]]]))],
                expected: [], requires: presence),
            ConformanceCase(
                "presence.where-now.self", "Where now lists the channels the client is subscribed to", spec: "§6.5",
                steps: [.subscribe(["ch-p"]), .expect(.connected), .perform(.whereNow(uuid: nil)),
                        .expectResult(.success(["channels": ["ch-p"]]))],
                expected: [.connected], requires: presence),
            ConformanceCase(
                "presence.where-now.other", "Where now for another uuid lists that user's channels", spec: "§6.5",
                steps: [ghostJoins("ch-p"), .perform(.whereNow(uuid: "ghost")), .expectResult(.success(["channels": ["ch-p"]]))],
                expected: [], requires: presence),
            ConformanceCase(
                "presence.state.set-get", "State set on a channel is returned by get state", spec: "§6.6",
                steps: [.perform(.setState(channels: ["ch-p"], state: ["mood": "happy"])),
                        .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                        .perform(.getState(channels: ["ch-p"], uuid: nil)),
                        .expectResult(.success(["channels": ["ch-p": ["mood": "happy"]]]))],
                expected: [.acknowledgment], requires: presence),
            ConformanceCase(
                "presence.state.other-user", "Get state for another uuid returns that user's state", spec: "§6.7",
                steps: [.serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/ch-p/uuid/ghost/data",
                                       query: ["uuid": "ghost", "state": #"{"k":"v"}"#]),
                        .perform(.getState(channels: ["ch-p"], uuid: "ghost")),
                        .expectResult(.success(["channels": ["ch-p": ["k": "v"]]]))],
                expected: [], requires: presence),
            ConformanceCase(
                // The window holds two heartbeats of a client given its interval in whole seconds
                // (the Python driver rounds 200 ms up to 1 s), with a full second to spare. At 1.2 s it held them with ~0.2 s to spare,
                // which a load the run's time scale did not measure (the probe reads once, before
                // the run; ×1.3 was measured under 12 busy loops) could eat: the verdict changed
                // under load (docs/reliability.md). A client ignoring the interval (its default of
                // several seconds) still sends one heartbeat in the window, and one sending in
                // bursts still breaks the spacing.
                "presence.heartbeat.interval", "With a heartbeat interval the client sends heartbeats at that interval", spec: "§6.1",
                client: ClientOverrides(presenceHeartbeatValue: 20, presenceHeartbeatIntervalMs: 200),
                steps: [.subscribe(["ch-p"]), .expect(.connected),
                        .expectJournal(.spacing(endpoint: "heartbeat", count: 2, minimumIntervalMs: 200), withinMs: heartbeatWindowMs(count: 2))],
                expected: [.connected], timeBudget: .seconds(3), requires: presence),
        ]
    }
}
