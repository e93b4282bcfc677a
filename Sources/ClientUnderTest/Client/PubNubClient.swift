// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import Synchronization

/// A PubNub client with the 4.x Result/Status model, on its own sockets and OpenSSL.
///
/// Every operation is available as `async` (results returned, failures thrown as `PNStatus`;
/// acknowledgment-only operations return their `PNStatus`) and with a completion handler.
/// Streamed events (messages, signals, presence, statuses) go to listeners and event streams.
public final class PubNubClient: Sendable {
    let settings: Mutex<PubNubConfiguration>
    let transport: HTTPTransport
    let listeners = Mutex<[any PubNubListener]>([])
    let streams = Mutex<[Int: AsyncStream<PubNubEvent>.Continuation]>([:])
    let nextStreamID = Mutex(0)
    let subscriber: Subscriber
    let publishSequence = Mutex(0)
    let inFlight = Mutex<(next: Int, signals: [Int: CancellationSignal])>((0, [:]))

    /// Validates the configuration and sets up TLS. Throws `ConfigurationError` naming the field.
    public init(configuration: PubNubConfiguration) throws(ConfigurationError) {
        try configuration.validate()
        settings = Mutex(configuration)
        do {
            transport = try HTTPTransport(host: configuration.host, port: configuration.port,
                                          trustedCA: configuration.tlsEnabled ? configuration.trustedCA : nil,
                                          userAgent: configuration.sdkName)
        } catch {
            throw ConfigurationError(field: "trustedCA", reason: error.description)
        }
        subscriber = Subscriber()
        subscriber.attach(self)
    }

    /// A copy of the current configuration (the uuid may change with `setUUID`).
    public var configuration: PubNubConfiguration { settings.withLock { $0 } }

    // MARK: Listeners

    /// Adds a listener; it is held strongly until removed.
    public func addListener(_ listener: any PubNubListener) {
        listeners.withLock { $0.append(listener) }
    }

    public func removeListener(_ listener: any PubNubListener) {
        listeners.withLock { $0.removeAll { $0 === listener } }
    }

    /// A stream of every event delivered to listeners from now on. Ends when the task iterating it
    /// is cancelled.
    public func events() -> AsyncStream<PubNubEvent> {
        let id = nextStreamID.withLock { value in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<PubNubEvent>.makeStream()
        continuation.onTermination = { [weak self] _ in _ = self?.streams.withLock { $0.removeValue(forKey: id) } }
        streams.withLock { $0[id] = continuation }
        return stream
    }

    func emit(_ event: PubNubEvent) {
        for listener in listeners.withLock({ $0 }) {
            switch event {
            case .message(let m): listener.client(self, didReceiveMessage: m)
            case .signal(let s): listener.client(self, didReceiveSignal: s)
            case .file(let f): listener.client(self, didReceiveFileEvent: f)
            case .presence(let p): listener.client(self, didReceivePresenceEvent: p)
            case .status(let s): listener.client(self, didReceiveStatus: s)
            case .appContext(let e): listener.client(self, didReceiveAppContextEvent: e)
            case .messageAction(let e): listener.client(self, didReceiveMessageAction: e)
            }
        }
        for continuation in streams.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    // MARK: Request execution

    var targetBuilder: RequestTargetBuilder {
        settings.withLock { config in
            var builder = RequestTargetBuilder(uuid: config.uuid, sdkName: config.sdkName, authKey: config.authToken ?? config.authKey)
            if let secret = config.secretKey, let publishKey = config.publishKey {
                builder.signer = RequestSigner(publishKey: publishKey, secretKey: secret)
            }
            return builder
        }
    }

    /// Sends a request and returns its JSON body or a status.
    func send(_ request: PubNubRequest, timeout: Double? = nil, cancel: CancellationSignal = CancellationSignal()) async
        -> Result<JSONValue, PNStatus>
    {
        let http = targetBuilder.httpRequest(for: request)
        let limit = timeout ?? settings.withLock { $0.nonSubscribeRequestTimeout }
        let tracked = request.operation != .subscribe
        let id = tracked ? inFlight.withLock { state in
            state.next += 1
            state.signals[state.next] = cancel
            return state.next
        } : 0
        let outcome = await transport.perform(http, timeout: limit, cancel: cancel)
        if tracked { _ = inFlight.withLock { $0.signals.removeValue(forKey: id) } }
        return ResponseClassifier.body(of: outcome, request: request, summary: http.summary)
    }

    /// Cancels every request in flight except subscribe long-polls; each completes with a
    /// `PNCancelledCategory` status.
    public func cancelAllRequests() {
        for signal in inFlight.withLock({ Array($0.signals.values) }) { signal.cancel() }
    }

    /// Sends, parses, and delivers the outcome; failed statuses get a `retry()` that repeats this.
    func run<T: Sendable>(_ request: PubNubRequest, parse: @escaping @Sendable (JSONValue) -> Result<T, PNStatus>,
                          deliver: @escaping @Sendable (Result<T, PNStatus>) -> Void)
    {
        Task {
            let body = await self.send(request)
            var outcome = body.flatMap(parse)
            if case .failure(let status) = outcome {
                outcome = .failure(status.withRetry { [weak self] in self?.run(request, parse: parse, deliver: deliver) })
            }
            deliver(outcome)
        }
    }

    /// Async form of `run`: the first outcome is returned; outcomes of later `retry()` calls that fail
    /// go to the status listeners.
    func perform<T: Sendable>(_ request: PubNubRequest, parse: @escaping @Sendable (JSONValue) -> Result<T, PNStatus>)
        async -> Result<T, PNStatus>
    {
        let delivered = Mutex(false)
        return await withCheckedContinuation { continuation in
            run(request, parse: parse) { [weak self] outcome in
                let first = delivered.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first {
                    continuation.resume(returning: outcome)
                } else if case .failure(let status) = outcome {
                    self?.emit(.status(status))
                }
            }
        }
    }

    /// The common "expected shape" check: a parser returning nil becomes MalformedResponse.
    static func shaped<T>(_ request: PubNubRequest, _ parse: @escaping @Sendable (JSONValue) -> T?)
        -> @Sendable (JSONValue) -> Result<T, PNStatus>
    {
        { body in
            if let value = parse(body) { return .success(value) }
            return .failure(ResponseClassifier.malformed(request, request.path, 200, "unexpected response shape", body))
        }
    }

    /// Parser of acknowledgment-only operations (any JSON body is fine).
    static func acknowledgment(_ request: PubNubRequest) -> @Sendable (JSONValue) -> Result<PNStatus, PNStatus> {
        { _ in .success(PNStatus(category: .acknowledgment, operation: request.operation, statusCode: 200)) }
    }
}

extension PNStatus {
    func withRetry(_ action: @escaping @Sendable () -> Void) -> PNStatus {
        PNStatus(category: category, operation: operation, statusCode: statusCode,
                 willAutomaticallyRetry: willAutomaticallyRetry, errorData: errorData,
                 subscribedChannels: subscribedChannels, subscribedChannelGroups: subscribedChannelGroups,
                 currentTimetoken: currentTimetoken, lastTimetoken: lastTimetoken, request: request, retryAction: action)
    }
}
