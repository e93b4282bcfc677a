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
