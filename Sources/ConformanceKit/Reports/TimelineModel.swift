// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer

/// One thing drawn on a case's timeline.
public struct TimelineItem: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A request, client → mock.
        case request
        /// The server's answer to a request, mock → client.
        case answer
        /// A fault that fired on a request (at the mock).
        case fault
        /// A connection event: accepted, closed (FIN), reset (RST), closed by the client.
        case connection
        /// A listener of the case's own with a transport or TLS fault (every connection to it).
        case listener
        /// A status or result category the client reported.
        case status
        /// A message or presence event the client delivered.
        case event
        /// A step of the case starting.
        case step
    }

    public var kind: Kind
    /// Milliseconds from the timeline's origin (the first thing on it).
    public var atMs: Double
    /// The main text: `GET /v2/subscribe/… tt=0`, `200 · 312 B · 4 ms`, `fault status (rule r1)`.
    public var label: String
    /// The full text where the label is shortened (the request line), else empty.
    public var full: String
    /// The connection a request, answer or connection event belongs to.
    public var connection: UInt64?
    /// The journal sequence of a request and of what happened to it (answer, fault).
    public var sequence: UInt64?
    /// Whether this marks where the case failed.
    public var failing: Bool

    public init(kind: Kind, atMs: Double, label: String, full: String = "", connection: UInt64? = nil,
                sequence: UInt64? = nil, failing: Bool = false) {
        self.kind = kind
        self.atMs = atMs
        self.label = label
        self.full = full
        self.connection = connection
        self.sequence = sequence
        self.failing = failing
    }

    /// Whether the item is an arrow between client and mock (a request or an answer).
    public var isArrow: Bool { kind == .request || kind == .answer }
}

/// A case's timeline: the wire as the server journalled it and what the client reported, on one
/// time axis. Built by ``TimelineModel/build(journal:observations:listenerFault:failingStep:)``.
public struct CaseTimeline: Sendable, Hashable {
    /// In time order (ties keep the order they were built in: request, fault, answer).
    public var items: [TimelineItem]
    /// Requests in the case's journal, counted straight from the journal.
    public var journalRequests: Int
    /// Journal entries on which a fault fired.
    public var journalFaults: Int
    /// The step the case failed at, when its failure names one.
    public var failingStep: Int?
    /// Unix seconds of the origin (`atMs` 0).
    public var origin: Double

    public init(items: [TimelineItem], journalRequests: Int, journalFaults: Int, failingStep: Int?, origin: Double) {
        self.items = items
        self.journalRequests = journalRequests
        self.journalFaults = journalFaults
        self.failingStep = failingStep
        self.origin = origin
    }

    /// How many items of `kind` are drawn.
    public func count(_ kind: TimelineItem.Kind) -> Int { items.count { $0.kind == kind } }
}

/// Turns a case's journal and the client's timed observations into its timeline (pure).
public enum TimelineModel {
    /// Characters a request label keeps of one path segment or query value before it is cut.
    static let segmentLimit = 24
    /// Query parameters left out of labels (they are on every request and say little).
    static let quietParameters: Set<String> = ["pnsdk", "requestid", "uuid", "instanceid", "signature", "timestamp"]

    /// - Parameters:
    ///   - journal: the case's journal entries (any order; sorted by sequence).
    ///   - observations: the client's statuses, results, events and the steps, with times.
    ///   - connectionEvents: accepts and TLS handshake outcomes on the case's own listener.
    ///   - listenerFault: the fault of the case's own listener (`tls-expired`, ...), if it had one.
    ///   - failingStep: the step the case failed at; its step item and, failing that, the last item are marked.
    ///   - failed: whether the case failed (marks the last item when no step is known).
    public static func build(
        journal: [JournalEntry], observations: [TimedObservation], connectionEvents: [ConnectionEvent] = [],
        listenerFault: String? = nil,
        failingStep: Int? = nil, failed: Bool = false
    ) -> CaseTimeline {
        let entries = journal.sorted { $0.sequence < $1.sequence }
        let times = entries.map(\.arrivalTime) + observations.map(\.time) + connectionEvents.map(\.time)
        let origin = times.min() ?? 0
        func ms(_ time: Double) -> Double { ((time - origin) * 1_000 * 1_000).rounded() / 1_000 }
        var items: [TimelineItem] = []
        if let listenerFault {
            items.append(TimelineItem(kind: .listener, atMs: 0, label: "listener fault \(listenerFault): \(listenerNote(listenerFault))"))
        }
        // The listener's own accepts are exact; without them a connection's first request stands for its accept.
        let acceptsKnown = connectionEvents.contains { $0.kind == .accepted }
        for entry in entries {
            let at = ms(entry.arrivalTime)
            // A push notice (endpoint `push`) is the service's own entry: no connection, no answer.
            if entry.requestOnConnection == 0, !acceptsKnown, entry.endpoint != .push {
                items.append(TimelineItem(kind: .connection, atMs: at,
                                          label: "accept #\(entry.connectionID)\(entry.isTLS ? " (TLS)" : "") on port \(entry.localPort)",
                                          connection: entry.connectionID))
            }
            items.append(TimelineItem(kind: .request, atMs: at, label: requestLabel(entry), full: entry.line,
                                      connection: entry.connectionID, sequence: entry.sequence))
            if let fault = entry.fault {
                let rule = entry.rule.map { " (rule \($0)\(entry.matchNumber.map { ", match \($0)" } ?? ""))" } ?? ""
                items.append(TimelineItem(kind: .fault, atMs: at, label: "fault \(fault.rawValue)\(rule)",
                                          connection: entry.connectionID, sequence: entry.sequence))
            }
            guard let answer = entry.answer else { continue }
            let answeredAt = ((at + answer.durationMs) * 1_000).rounded() / 1_000
            switch answer.kind {
            case "cancelled":
                items.append(TimelineItem(kind: .connection, atMs: answeredAt,
                                          label: "client closed #\(entry.connectionID) before an answer (\(format(answer.durationMs)))",
                                          connection: entry.connectionID, sequence: entry.sequence))
                continue
            case "hang":
                items.append(TimelineItem(kind: .answer, atMs: answeredAt, label: "no answer (hang)",
                                          connection: entry.connectionID, sequence: entry.sequence))
                continue
            default:
                items.append(TimelineItem(kind: .answer, atMs: answeredAt, label: answerLabel(answer),
                                          connection: entry.connectionID, sequence: entry.sequence))
            }
            switch answer.close {
            case CloseMode.fin.rawValue?:
                items.append(TimelineItem(kind: .connection, atMs: answeredAt, label: "close #\(entry.connectionID) (FIN)",
                                          connection: entry.connectionID, sequence: entry.sequence))
            case CloseMode.reset.rawValue?:
                items.append(TimelineItem(kind: .connection, atMs: answeredAt, label: "reset #\(entry.connectionID) (RST)",
                                          connection: entry.connectionID, sequence: entry.sequence))
            default:
                break
            }
        }
        for event in connectionEvents {
            items.append(TimelineItem(kind: .connection, atMs: ms(event.time), label: connectionLabel(event), connection: event.connectionID))
        }
        for observation in observations {
            let kind: TimelineItem.Kind = switch observation.kind {
            case .status, .result: .status
            case .event: .event
            case .step: .step
            }
            let failing = observation.kind == .step && observation.step != nil && observation.step == failingStep
            items.append(TimelineItem(kind: kind, atMs: ms(observation.time), label: observation.text, failing: failing))
        }
        // Stable: equal times keep the order above (journal first, request before its fault).
        items = items.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        if failed, !items.contains(where: \.failing), !items.isEmpty {
            items[items.count - 1].failing = true
        }
        return CaseTimeline(items: items, journalRequests: entries.count, journalFaults: entries.count { $0.fault != nil },
                            failingStep: failingStep, origin: origin)
    }

    /// The step a failure detail names first (`step 4: …`, `… exceeded at step 4`), if any.
    public static func failingStep(in detail: String) -> Int? {
        guard let range = detail.range(of: #"step \d+"#, options: .regularExpression) else { return nil }
        return Int(detail[range].dropFirst(5))
    }

    /// `GET /v2/subscribe/sub-c-…/room/0 tt=0&tr=12`: long segments and values cut in the
    /// middle, the parameters every request carries left out.
    public static func requestLabel(_ entry: JournalEntry) -> String {
        let path = entry.path.split(separator: "/", omittingEmptySubsequences: false).map { cut(String($0)) }.joined(separator: "/")
        let query = entry.query.filter { !quietParameters.contains($0.name) }.map { "\($0.name)=\(cut($0.value))" }
        return "\(entry.method) \(path)\(query.isEmpty ? "" : " " + query.joined(separator: "&"))"
    }

    /// `accept on port 4711 (tls-expired)`, `TLS handshake failed #12: …alert certificate expired`.
    public static func connectionLabel(_ event: ConnectionEvent) -> String {
        let id = event.connectionID.map { " #\($0)" } ?? ""
        switch event.kind {
        case .accepted: return "accept on port \(event.localPort)\(event.detail == "none" ? "" : " (\(event.detail))")"
        case .tlsHandshakeFailed:
            let reason = event.detail.replacing(#/^TLS handshake failed( \(errno \d+\))?: /#, with: "")
            return "TLS handshake failed\(id): \(reason)"
        case .closedDuringHandshake: return "client closed\(id) during the TLS handshake"
        }
    }

    /// `200 · 312 B · 4 ms`, `raw 80 B, then reset · 2 ms`, `close (fin) · 1 ms`.
    public static func answerLabel(_ answer: JournalAnswer) -> String {
        switch answer.kind {
        case "respond": "\(answer.status.map(String.init) ?? "?") · \(answer.bytes) B · \(format(answer.durationMs))"
        case "raw", "drip": "\(answer.kind) \(answer.bytes) B, then \(answer.close ?? "?") · \(format(answer.durationMs))"
        case "close": "close (\(answer.close ?? "?")) · \(format(answer.durationMs))"
        default: "\(answer.kind) · \(format(answer.durationMs))"
        }
    }

    /// What a listener fault does to every connection, as the client meets it.
    static func listenerNote(_ fault: String) -> String {
        switch fault {
        case "none": "plain HTTP on a port of the case's own"
        case "tls-trusted": "TLS with a certificate the client trusts"
        case "close-on-accept": "accept, then close (FIN) before a byte"
        case "reset-on-accept": "accept, then reset (RST)"
        case "stall-on-accept": "accept, then silence"
        case "tls-abort-after-client-hello": "TLS: reads the ClientHello, closes (FIN)"
        case "tls-reset-during-handshake": "TLS: reads the ClientHello, resets (RST)"
        case "tls-stall-handshake": "TLS: never answers the ClientHello"
        case "tls-plain-http": "TLS port answering plain HTTP"
        case "tls-version-mismatch": "TLS 1.0/1.1 only: protocol-version alert"
        case "tls-no-shared-cipher": "TLS: no shared cipher, handshake-failure alert"
        case "tls-self-signed", "tls-untrusted-ca", "tls-expired", "tls-not-yet-valid", "tls-wrong-host":
            "TLS: certificate the client must reject (its alert ends the handshake)"
        default: "every connection"
        }
    }

    static func cut(_ text: String) -> String {
        guard text.count > segmentLimit else { return text }
        return String(text.prefix(segmentLimit - 8)) + "…" + String(text.suffix(6))
    }

    static func format(_ ms: Double) -> String {
        ms >= 1_000 ? String(format: "%.2f s", ms / 1_000) : ms < 10 ? String(format: "%.1f ms", ms) : String(format: "%.0f ms", ms)
    }
}
