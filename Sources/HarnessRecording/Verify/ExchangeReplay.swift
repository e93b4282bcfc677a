// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import MockPubNubServer
import Synchronization

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
