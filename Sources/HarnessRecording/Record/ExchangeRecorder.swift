// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer
import Synchronization

/// The recording side of the proxy: numbers the exchanges, redacts them (one ``Redactor`` for the
/// whole run, so placeholders are stable) and appends each to the file when it ends. One lock.
final class ExchangeRecorder: Sendable {
    /// What is known of an exchange between its request and its end.
    struct Pending: Sendable {
        var id: Int
        var endpoint: String
        var startedMs: Double
        var request: RecordedRequest
        var subscribeKey: String?
        var storage: StorageLink?
    }

    private struct State {
        var redactor: Redactor
        var writer: RecordingWriter?
        var nextID = 1
        var pending: [Int: Pending] = [:]
        var written = 0
        var failure: ProxyError?
    }

    private let state: Mutex<State>
    private let start = ContinuousClock.now

    init(redactor: Redactor, writer: sending RecordingWriter) {
        state = Mutex(State(redactor: redactor, writer: writer))
    }

    private var elapsedMs: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// Starts the exchange of a request to the service.
    func begin(_ request: HTTPRequest) -> Pending {
        let subscribeKey = (try? PubNubRoute.classify(request).get())?.subscribeKey
        let now = elapsedMs
        return state.withLock { state in
            let (recorded, endpoint) = state.redactor.redact(request)
            defer { state.nextID += 1 }
            let pending = Pending(id: state.nextID, endpoint: endpoint, startedMs: now, request: recorded, subscribeKey: subscribeKey)
            state.pending[pending.id] = pending
            return pending
        }
    }

    /// Starts the exchange of a request the proxy forwards to a storage URL.
    func beginStorage(_ request: HTTPRequest, origin: String, target: String, link: StorageLink) -> Pending {
        let now = elapsedMs
        return state.withLock { state in
            let recorded = state.redactor.redactStorage(request, origin: origin, target: target)
            defer { state.nextID += 1 }
            let endpoint = link.kind == .upload ? PubNubEndpoint.storageUpload.rawValue : PubNubEndpoint.storageDownload.rawValue
            let pending = Pending(id: state.nextID, endpoint: endpoint, startedMs: now, request: recorded, storage: link)
            state.pending[pending.id] = pending
            return pending
        }
    }

    /// Ends an exchange with the upstream's answer (`body` as it travelled).
    func finish(_ pending: Pending, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        let now = elapsedMs
        state.withLock { state in
            let response = state.redactor.redactResponse(status: status, headers: headers, body: body, subscribeKey: pending.subscribeKey)
            append(pending, outcome: .answered, response: response, error: nil, endedMs: now, state: &state)
        }
    }

    /// Ends an exchange without an answer.
    func finish(_ pending: Pending, outcome: ExchangeOutcome, error: String?) {
        let now = elapsedMs
        state.withLock { state in append(pending, outcome: outcome, response: nil, error: error, endedMs: now, state: &state) }
    }

    private func append(
        _ pending: Pending, outcome: ExchangeOutcome, response: RecordedResponse?, error: String?, endedMs: Double, state: inout State
    ) {
        guard state.pending.removeValue(forKey: pending.id) != nil, let writer = state.writer else { return }
        let exchange = RecordedExchange(
            id: pending.id, endpoint: pending.endpoint, startedMs: pending.startedMs, durationMs: max(0, endedMs - pending.startedMs),
            outcome: outcome, error: error, request: pending.request, response: response, storage: pending.storage)
        do throws(ProxyError) {
            try writer.append(exchange, keys: state.redactor.keys, names: state.redactor.names)
            state.written += 1
        } catch {
            state.failure = state.failure ?? error
        }
    }

    /// Writes the exchanges still waiting as `unfinished` and closes the file; later ends are dropped.
    func close() {
        let now = elapsedMs
        state.withLock { state in
            for pending in state.pending.values.sorted(by: { $0.id < $1.id }) {
                append(pending, outcome: .unfinished, response: nil, error: nil, endedMs: now, state: &state)
            }
            state.writer = nil
        }
    }

    /// Exchanges written so far.
    var writtenCount: Int { state.withLock { $0.written } }

    /// The first write failure, if any.
    var failure: ProxyError? { state.withLock { $0.failure } }
}
