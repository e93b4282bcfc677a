// SPDX-License-Identifier: MIT
import MockPubNubServer
import Testing
@testable import ConformanceKit

/// The timeline model is pure: journal entries and timed observations in, drawn items out; the
/// HTML and text renderings draw exactly those items.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TimelineModelTests {
    static let t0 = 1_800_000_000.0

    static func entry(_ sequence: UInt64, at offsetMs: Double, _ method: String, _ path: String, query: [QueryItem] = [],
                      connection: UInt64, onConnection: Int, rule: String? = nil, fault: FaultKind? = nil,
                      answer: JournalAnswer?, tls: Bool = false) -> JournalEntry {
        var entry = JournalEntry(sequence: sequence, method: method, path: path, query: query, arrivalTime: t0 + offsetMs / 1_000,
                                 endpoint: nil, subscribeKey: "sk", rule: rule, connectionID: connection, localPort: 8090, isTLS: tls)
        entry.requestOnConnection = onConnection
        entry.fault = fault
        entry.matchNumber = fault == nil ? nil : 1
        entry.answer = answer
        return entry
    }

    /// Subscribe handshake answered, a publish faulted with 503, a time request reset, a long-poll the client abandons.
    static let journal: [JournalEntry] = [
        entry(1, at: 0, "GET", "/v2/subscribe/sub-c-0123456789abcdef0123/room/0",
              query: [QueryItem(name: "tt", value: "0"), QueryItem(name: "uuid", value: "user-1"), QueryItem(name: "pnsdk", value: "x")],
              connection: 1, onConnection: 0, answer: JournalAnswer(kind: "respond", status: 200, bytes: 45, durationMs: 2, close: "keep-alive")),
        entry(2, at: 10, "GET", "/publish/p/sk/0/room/0/1", connection: 2, onConnection: 0, rule: "busy", fault: .status,
              answer: JournalAnswer(kind: "respond", status: 503, bytes: 60, durationMs: 1, close: "keep-alive")),
        entry(3, at: 20, "GET", "/time/0", connection: 2, onConnection: 1, rule: "drop", fault: .reset,
              answer: JournalAnswer(kind: "close", durationMs: 0.5, close: "reset")),
        entry(4, at: 900.2, "GET", "/v2/subscribe/sk/room/0", query: [QueryItem(name: "tt", value: "17")], connection: 3, onConnection: 0,
              answer: JournalAnswer(kind: "cancelled", durationMs: 1_000), tls: true),
    ]

    static let observations: [TimedObservation] = [
        TimedObservation(kind: .step, time: t0 - 0.001, text: "step 1 perform subscribe", step: 1),
        TimedObservation(kind: .status, time: t0 + 0.003, text: "PNConnectedCategory (subscribe)"),
        TimedObservation(kind: .step, time: t0 + 0.009, text: "step 2 perform publish", step: 2),
        TimedObservation(kind: .result, time: t0 + 0.012, text: "PNUnknownCategory (HTTP 503)"),
        TimedObservation(kind: .event, time: t0 + 0.015, text: "message on room"),
        TimedObservation(kind: .step, time: t0 + 0.019, text: "step 3 expectStatus PNTimeoutCategory within 500 ms", step: 3),
    ]

    static let failedTimeline = TimelineModel.build(journal: journal.reversed(), observations: observations,
                                                    failingStep: 3, failed: true)

    @Test func itemsComeFromTheJournalInTimeOrder() throws {
        let timeline = Self.failedTimeline
        #expect(timeline.journalRequests == 4 && timeline.journalFaults == 2)
        #expect(timeline.count(.request) == 4)
        #expect(timeline.count(.answer) == 3)  // 200, 503 and the reset (nothing sent); the abandon is a connection event
        #expect(timeline.count(.fault) == 2)
        #expect(timeline.items.filter { $0.kind == .connection }.map(\.label) == [
            "accept #1 on port 8090", "accept #2 on port 8090", "reset #2 (RST)", "accept #3 (TLS) on port 8090",
            "client closed #3 before an answer (1.00 s)",
        ])
        #expect(timeline.items.map(\.atMs) == timeline.items.map(\.atMs).sorted())
        #expect(timeline.origin == Self.t0 - 0.001)
        let first = try #require(timeline.items.first { $0.kind == .request })
        // Long segments cut in the middle; pnsdk and uuid left out; the full line kept.
        #expect(first.label == "GET /v2/subscribe/sub-c-0123456789…ef0123/room/0 tt=0")
        #expect(first.full == "GET /v2/subscribe/sub-c-0123456789abcdef0123/room/0?tt=0&uuid=user-1&pnsdk=x")
        #expect(first.atMs == 1)
        #expect(timeline.items.filter { $0.kind == .answer }.map(\.label) == ["200 · 45 B · 2.0 ms", "503 · 60 B · 1.0 ms", "close (reset) · 0.5 ms"])
        #expect(timeline.items.filter { $0.kind == .fault }.map(\.label) == ["fault status (rule busy, match 1)", "fault reset (rule drop, match 1)"])
        // The fault sits right after its request.
        let faultIndex = try #require(timeline.items.firstIndex { $0.kind == .fault })
        #expect(timeline.items[faultIndex - 1].kind == .request && timeline.items[faultIndex - 1].sequence == 2)
    }

    @Test func theFailingStepIsMarked() {
        #expect(Self.failedTimeline.items.filter(\.failing).map(\.label) == ["step 3 expectStatus PNTimeoutCategory within 500 ms"])
        #expect(TimelineModel.failingStep(in: "missing: X\nstep 3: expected PNTimeoutCategory, not observed") == 3)
        #expect(TimelineModel.failingStep(in: "time budget of 2000 ms exceeded at step 12") == 12)
        #expect(TimelineModel.failingStep(in: "setup: refused") == nil)
        // No step named: the last item carries the mark.
        let unnamed = TimelineModel.build(journal: Self.journal, observations: [], failed: true)
        #expect(unnamed.items.last?.failing == true && unnamed.items.filter(\.failing).count == 1)
        #expect(TimelineModel.build(journal: Self.journal, observations: []).items.allSatisfy { !$0.failing })
    }

    @Test func listenerFaultsAndEmptyJournals() {
        let tls = TimelineModel.build(journal: [], observations: [TimedObservation(kind: .status, time: Self.t0, text: "PNTLSUntrustedCertificateCategory")],
                                      listenerFault: "tls-expired")
        #expect(tls.items.map(\.kind) == [.listener, .status])
        #expect(tls.items[0].label.hasPrefix("listener fault tls-expired: TLS"))
        #expect(TimelineModel.build(journal: [], observations: []).items.isEmpty)
    }

    /// What the HTML draws per kind equals the model (and so the journal's counts).
    @Test func htmlDrawsEveryItemWithItsKind() {
        var result = CaseResult(id: "faults.x.y", suite: "faults", title: "t", spec: "§1", outcome: .fail, expected: [], observed: [],
                                durationSeconds: 1, detail: "step 3: expected PNTimeoutCategory, not observed")
        result.timeline = Self.failedTimeline
        let html = TimelineHTML.section(result, anchor: result.id)
        for kind in TimelineItem.Kind.allCases {
            #expect(html.components(separatedBy: "data-tl=\"\(kind.rawValue)\"").count - 1 == Self.failedTimeline.count(kind), "\(kind)")
        }
        #expect(html.contains("data-requests=\"4\" data-faults=\"2\" data-open-at-fail"))
        #expect(html.hasPrefix("<details class=\"tl\" open>"))
        #expect(html.components(separatedBy: "data-failing").count == 2)
        // The pauses before the long-poll and before the client abandons it are gap rows.
        #expect(html.components(separatedBy: "data-tl=\"gap\"").count == 3)
        #expect(!html.contains("<script") && !html.contains("src="))
        var passed = result
        passed.outcome = .pass
        #expect(TimelineHTML.section(passed, anchor: "a").hasPrefix("<details class=\"tl\"><summary>"))
    }

    @Test func textTimelineForTheConsole() {
        let lines = TimelineText.render(Self.failedTimeline)
        #expect(lines.count == Self.failedTimeline.items.count + 2)  // plus two gap lines
        #expect(lines.contains { $0.contains("|-- GET /publish/p/sk/0/room/0/1") && $0.hasSuffix("-->|") })
        #expect(lines.contains { $0.contains("|<-- 503 · 60 B · 1.0 ms") })
        #expect(lines.contains { $0.hasSuffix("| ⚡ fault reset (rule drop, match 1)") })
        #expect(lines.contains { $0.contains("== step 3 expectStatus") && $0.hasSuffix("<== failed here") })
        #expect(lines.contains { $0.contains("⋯ 880 ms ⋯") } && lines.contains { $0.contains("⋯ 1.00 s ⋯") })
    }

    /// A thousand requests stay one row each, with the counts intact.
    @Test func aThousandRequests() {
        let journal = (1...1_000).map { n in
            Self.entry(UInt64(n), at: Double(n) * 3, "GET", "/time/0", connection: 1, onConnection: n - 1,
                       answer: JournalAnswer(kind: "respond", status: 200, bytes: 19, durationMs: 1, close: "keep-alive"))
        }
        let timeline = TimelineModel.build(journal: journal, observations: [])
        #expect(timeline.count(.request) == 1_000 && timeline.count(.answer) == 1_000 && timeline.count(.connection) == 1)
        var result = CaseResult(id: "a.b.c", suite: "a", title: "", spec: "", outcome: .pass, expected: [], observed: [], durationSeconds: 3, detail: "")
        result.timeline = timeline
        let html = TimelineHTML.section(result, anchor: "a.b.c")
        #expect(html.components(separatedBy: "data-tl=\"request\"").count - 1 == 1_000)
        #expect(html.utf8.count < 600_000)
    }
}

extension TimelineModelTests {
    /// A TLS listener of the case's own: its accept and the client's alert come from the
    /// listener's connection events; the journal's first-request accept is then left out.
    @Test func aPushNoticeIsNoConnection() {
        var notice = JournalEntry(sequence: 2, method: "PUSH", path: "/push/apns2/device-1", arrivalTime: Self.t0 + 0.004,
                                  endpoint: .push, subscribeKey: "sk", connectionID: 0, localPort: 0)
        notice.requestOnConnection = 0
        let timeline = TimelineModel.build(journal: [Self.journal[0], notice], observations: [])
        #expect(timeline.journalRequests == 2 && timeline.count(.request) == 2)
        #expect(timeline.items.filter { $0.kind == .connection }.map(\.label) == ["accept #1 on port 8090"])
        #expect(timeline.count(.answer) == 1)
    }

    @Test func listenerConnectionEvents() {
        let events = [
            ConnectionEvent(kind: .accepted, time: Self.t0, localPort: 4711, detail: "tls-expired"),
            ConnectionEvent(kind: .tlsHandshakeFailed, time: Self.t0 + 0.002, localPort: 4711, connectionID: 9,
                            detail: "TLS handshake failed (errno 0): SSL routines: sslv3 alert certificate expired"),
            ConnectionEvent(kind: .closedDuringHandshake, time: Self.t0 + 0.003, localPort: 4711, connectionID: 10, detail: ""),
        ]
        let timeline = TimelineModel.build(journal: [], observations: [], connectionEvents: events, listenerFault: "tls-expired")
        #expect(timeline.items.map(\.label) == [
            "listener fault tls-expired: TLS: certificate the client must reject (its alert ends the handshake)",
            "accept on port 4711 (tls-expired)", "TLS handshake failed #9: SSL routines: sslv3 alert certificate expired",
            "client closed #10 during the TLS handshake",
        ])
        let withRequest = TimelineModel.build(journal: [Self.journal[0]], observations: [], connectionEvents: [events[0]])
        #expect(withRequest.items.filter { $0.kind == .connection }.map(\.label) == ["accept on port 4711 (tls-expired)"])
        var result = CaseResult(id: "tls.a.b", suite: "tls", title: "", spec: "", outcome: .pass, expected: [], observed: [], durationSeconds: 0, detail: "")
        result.timeline = timeline
        #expect(TimelineHTML.section(result, anchor: "x").contains(#"<div class="tl-row k-connection bad" data-tl="connection">"#))
    }
}
