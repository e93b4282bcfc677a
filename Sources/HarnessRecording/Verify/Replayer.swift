// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import MockPubNubServer
import Synchronization

/// How `verify` replays a recording.
public struct VerifyOptions: Sendable {
    /// Start each exchange no earlier than its recorded offset from the start (as well as after the
    /// exchanges that had ended before it began); false: as soon as those have ended.
    public var keepTiming = true
    /// Seconds beyond the recorded duration a replayed answer may take before it counts as missing.
    public var slackSeconds = 10.0
    /// The tag of the replay's fresh keys and names (random when nil).
    public var tag: String?

    public init(keepTiming: Bool = true, slackSeconds: Double = 10, tag: String? = nil) {
        self.keepTiming = keepTiming
        self.slackSeconds = slackSeconds
        self.tag = tag
    }
}

/// Replays a recording against a target and judges every exchange (docs/recordings.md, "verify").
///
/// Exchanges run as they did: each starts once every exchange that had ended before it began has
/// ended in the replay too (so a publish that woke a long-poll runs while the replayed long-poll
/// waits), and, with `keepTiming`, not before its recorded offset. Each request is built with the
/// replay's fresh keys and names and the values learned so far (``ValueMapper``), sent through
/// ``HTTPClient`` (its own threads), and its answer compared with ``ExchangeComparer``.
public struct Replayer: Sendable {
    public let recording: Recording
    public let target: any VerifyTarget
    public let options: VerifyOptions

    public init(recording: Recording, target: any VerifyTarget, options: VerifyOptions = VerifyOptions()) {
        self.recording = recording
        self.target = target
        self.options = options
    }

    /// Replays every exchange; the verdicts in exchange id order.
    public func run() async throws(VerifyError) -> [ExchangeVerdict] {
        let identity = FreshIdentity(recording: recording, tag: options.tag ?? FreshIdentity.randomTag())
        var rules: [Int: CompiledRules] = [:]
        do throws(RecordingError) { try recording.validateRules() } catch { throw .rules(error) }
        for exchange in recording.exchanges {
            do throws(RecordingError) { rules[exchange.id] = try CompiledRules(recording.rules(for: exchange)) } catch { throw .rules(error) }
        }
        for (placeholder, secret) in identity.secrets.sorted(by: { $0.key < $1.key }) {
            guard let sub = identity.values[placeholder], let pub = identity.publishKeys[placeholder] else { continue }
            try await target.register(Keyset(subscribeKey: sub, publishKey: pub, secretKey: secret))
        }
        let client: HTTPClient
        do throws(HTTPClientError) {
            client = try HTTPClient(host: target.host, port: target.port, trust: nil, userAgent: "pubnub-harness-verify")
        } catch {
            throw .serverUnreachable(error.description)
        }
        let context = ReplayContext(
            recording: recording, identity: identity, rules: rules, client: client, options: options,
            tokenShapes: Dictionary(recording.keys.filter { $0.kind == .token }.map { ($0.placeholder, $0.tokenShape) }, uniquingKeysWith: { a, _ in a }))
        let schedule = ReplaySchedule(recording.exchanges)
        let board = CompletionBoard(count: recording.exchanges.count)
        let start = ContinuousClock.now
        let verdicts = await withTaskGroup(of: ExchangeVerdict.self) { group in
            for exchange in schedule.byStart {
                let waitFor = schedule.endedBefore(exchange)
                let position = schedule.endPosition(of: exchange)
                let keepTiming = options.keepTiming
                group.addTask {
                    await board.wait(untilFirst: waitFor)
                    if keepTiming {
                        try? await Task.sleep(until: start + .milliseconds(Int64(exchange.startedMs - schedule.firstStartMs)), clock: .continuous)
                    }
                    let verdict = await context.replay(exchange)
                    board.complete(position)
                    return verdict
                }
            }
            var out: [ExchangeVerdict] = []
            for await verdict in group { out.append(verdict) }
            return out
        }
        client.closeIdleConnections()
        return verdicts.sorted { $0.id < $1.id }
    }
}

/// When each exchange may start: after the exchanges that had ended before it began.
struct ReplaySchedule: Sendable {
    let byStart: [RecordedExchange]
    /// Exchange ids in the order their recorded answers ended.
    private let endOrder: [Int: Int]
    private let endTimes: [Double]
    let firstStartMs: Double

    init(_ exchanges: [RecordedExchange]) {
        byStart = exchanges.sorted { ($0.startedMs, $0.id) < ($1.startedMs, $1.id) }
        let byEnd = exchanges.sorted { ($0.endedMs, $0.startedMs, $0.id) < ($1.endedMs, $1.startedMs, $1.id) }
        endOrder = Dictionary(byEnd.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        endTimes = byEnd.map(\.endedMs)
        firstStartMs = byStart.first?.startedMs ?? 0
    }

    /// How many exchanges (the first in end order) ended strictly before `exchange` began.
    func endedBefore(_ exchange: RecordedExchange) -> Int {
        var low = 0
        var high = endTimes.count
        while low < high {
            let middle = (low + high) / 2
            if endTimes[middle] < exchange.startedMs { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func endPosition(of exchange: RecordedExchange) -> Int { endOrder[exchange.id] ?? 0 }
}

/// Which exchanges (by end position) have ended in the replay; tasks wait for a prefix of them.
final class CompletionBoard: Sendable {
    private struct State {
        var done: [Bool]
        var prefix = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(done: Array(repeating: false, count: count))) }

    /// Returns once the first `count` exchanges in end order have ended.
    func wait(untilFirst count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.prefix >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func complete(_ position: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard position < state.done.count else { return [] }
            state.done[position] = true
            while state.prefix < state.done.count, state.done[state.prefix] { state.prefix += 1 }
            let prefix = state.prefix
            let ready = state.waiters.filter { $0.count <= prefix }.map(\.continuation)
            state.waiters.removeAll { $0.count <= prefix }
            return ready
        }
        for continuation in released { continuation.resume() }
    }
}

/// What the replay of every exchange shares: the fresh identity, the learned values, the answers
/// later storage exchanges follow.
final class ReplayContext: Sendable {
    let recording: Recording
    let identity: FreshIdentity
    let rules: [Int: CompiledRules]
    let client: HTTPClient
    let options: VerifyOptions
    let tokenShapes: [String: [String]?]
    let mapper = ValueMapper()
    /// Replayed answers (decoded, not mapped back) by exchange id, for the storage exchanges that follow them.
    private let answers = Mutex<[Int: ReplayedAnswer]>([:])
    private let storageClients = Mutex<[UpstreamOrigin: HTTPClient]>([:])

    init(recording: Recording, identity: FreshIdentity, rules: [Int: CompiledRules], client: HTTPClient, options: VerifyOptions,
         tokenShapes: [String: [String]?]) {
        self.recording = recording
        self.identity = identity
        self.rules = rules
        self.client = client
        self.options = options
        self.tokenShapes = tokenShapes
    }

    func replay(_ exchange: RecordedExchange) async -> ExchangeVerdict {
        let summary = "\(exchange.request.method) \(exchange.request.origin ?? "")\(exchange.request.path)"
        var verdict = ExchangeVerdict(id: exchange.id, endpoint: exchange.endpoint, request: summary, outcome: .skipped,
                                      recordedMs: exchange.durationMs)
        switch exchange.outcome {
        case .upstreamFailed:
            verdict.note = "not replayed: the upstream failed in the recording (\(exchange.error ?? "no answer"))"
            return verdict
        case .unfinished:
            verdict.note = "not replayed: still waiting when recording stopped"
            return verdict
        case .answered, .cancelled:
            break
        }
        let linked = exchange.storage.flatMap { link in answers.withLock { $0[link.of] } }
        let request: ReplayRequest
        switch ReplayRequestBuilder.build(exchange, identity: identity, substitutions: mapper.substitutions(),
                                          now: Int64(Date().timeIntervalSince1970), linked: linked) {
        case .success(let built): request = built
        case .failure(let problem):
            verdict.note = "not replayed: \(problem)"
            return verdict
        }
        let abandoned = exchange.outcome == .cancelled
        let timeout = exchange.durationMs / 1000 + (abandoned ? 0 : options.slackSeconds)
        let http = HTTPClientRequest(method: request.method, target: request.target, body: request.body, contentType: request.contentType,
                                     headers: request.headers)
        let began = ContinuousClock.now
        let outcome = await client(for: request.origin).perform(http, timeout: max(timeout, 0.05))
        let elapsed = ContinuousClock.now - began
        verdict.replayedMs = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        if abandoned {
            verdict.note = "not compared: the client abandoned it in the recording after \(Int(exchange.durationMs)) ms"
            return verdict
        }
        let raw: ReplayedAnswer
        switch outcome {
        case .success(let response):
            let headers = response.headers.map { NameValue(ForwardedMessages.displayName($0.name), $0.value) }
            raw = ReplayedAnswer(status: response.statusCode, headers: headers,
                                 body: RecordedBody.decoded(response.body, contentEncoding: response.header("content-encoding")))
        case .failure(let error):
            verdict.outcome = .error
            verdict.note = "no answer: \(error)"
            return verdict
        }
        answers.withLock { $0[exchange.id] = raw }
        guard let recorded = exchange.response, let rules = rules[exchange.id] else { return verdict }
        let mapped = mapBack(raw)
        let comparison = ExchangeComparer.compare(recorded: recorded, replayed: mapped, rules: rules, tokenShapes: tokenShapes,
                                                  known: mapper.substitutions().exact, tokenRename: { [identity] in identity.mapBackName($0) })
        let learned = mapper.learn(comparison.learned, startedMs: exchange.startedMs, endedMs: exchange.endedMs)
        verdict.differences = comparison.differences + learned
        verdict.outcome = verdict.differences.isEmpty ? .pass : .fail
        if verdict.outcome == .fail {
            verdict.recordedAnswer = AnswerText.render(status: recorded.status, headers: recorded.headers, body: recorded.bodyBytes)
            verdict.replayedAnswer = AnswerText.render(status: mapped.status, headers: mapped.headers, body: mapped.body)
        }
        return verdict
    }

    /// A replayed answer with the replay's keys, names and tokens mapped back to the recording's.
    private func mapBack(_ answer: ReplayedAnswer) -> ReplayedAnswer {
        let substitutions = mapper.substitutions()
        func back(_ text: String) -> String { identity.mapBack(substitutions.mapBackTokens(text)) }
        var mapped = answer
        mapped.headers = answer.headers.map { NameValue($0.name, back($0.value)) }
        if let text = String(validating: answer.body, as: UTF8.self) { mapped.body = Array(back(text).utf8) }
        return mapped
    }

    private func client(for origin: UpstreamOrigin?) -> HTTPClient {
        guard let origin, !(origin.host == client.host && origin.port == client.port && !origin.isTLS) else { return client }
        return storageClients.withLock { clients in
            if let known = clients[origin] { return known }
            let made = (try? HTTPClient(host: origin.host, port: origin.port, trust: origin.isTLS ? .system : nil,
                                        userAgent: "pubnub-harness-verify")) ?? client
            clients[origin] = made
            return made
        }
    }
}

/// An answer as people read it in a report: status line, the compared header fields, the body.
enum AnswerText {
    static let bodyLimit = 64 * 1024

    static func render(status: Int, headers: [NameValue], body: [UInt8]) -> String {
        var text = "\(status) \(HTTPResponse.standardReason(status))\n"
        for field in headers {
            let lower = field.name.lowercased()
            if ExchangeComparer.valueFields.contains(lower) || ExchangeComparer.presenceFields.contains(lower) || lower.hasPrefix("access-control-") {
                text += "\(field.name): \(field.value)\n"
            }
        }
        text += "\n"
        if let utf8 = String(validating: body.prefix(bodyLimit), as: UTF8.self) {
            text += utf8 + (body.count > bodyLimit ? "\n… (\(body.count) bytes)" : "")
        } else {
            text += "(\(body.count) bytes of binary data)"
        }
        return text
    }
}
