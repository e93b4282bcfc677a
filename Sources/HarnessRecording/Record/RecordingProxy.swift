// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import Logging
import MockPubNubServer
import Synchronization

/// How a ``RecordingProxy`` listens, where it forwards and where it records.
public struct RecordingProxyConfiguration: Sendable {
    /// The listeners (plain, and TLS with the run's minted CA as `serve` has them).
    public var transport = TransportConfiguration()
    /// The origin every request is forwarded to.
    public var upstream: UpstreamOrigin
    /// The CAs trusted for an `https` upstream and `https` storage URLs (`.system` by default).
    public var upstreamTrust: HTTPTrust = .system
    /// The recording file (created or truncated at start).
    public var output: String
    /// Query parameters, header names and JSON members to redact besides the built-in ones.
    public var redact: [String] = []
    /// Seconds the upstream may take to answer one request (a subscribe long-poll takes minutes).
    public var upstreamTimeout: Double = 330
    /// Files larger than this are recorded by size only.
    public var maxFileBytes = 5 << 20
    /// A free note kept in the recording.
    public var note: String?
    /// The harness version written into the recording.
    public var tool = "pubnub-harness"

    public init(upstream: UpstreamOrigin, output: String) {
        self.upstream = upstream
        self.output = output
        transport.port = 0
        // A long-poll is in flight, not idle; a client between requests may wait long.
        transport.idleTimeout = .seconds(300)
    }
}

/// The recording proxy (`pubnub-harness record`): a client points at it; it forwards each request
/// to the upstream origin through ``HTTPClient`` and appends every exchange, redacted, to a
/// recording (docs/recordings.md).
///
/// The event loops only hand a request over and later write its answer: each forwarded request
/// waits for the upstream on a thread of its own (a subscribe long-poll may take minutes), never
/// on an event loop or the Swift concurrency pool. Storage URLs in generate-upload-url answers
/// and in redirects are rewritten to the proxy, which forwards the upload or download to them.
public final class RecordingProxy: Sendable {
    public let configuration: RecordingProxyConfiguration
    /// The listeners.
    public let host: ServerHost
    private let recorder: ExchangeRecorder

    /// Creates the recording file and a stopped proxy (its TLS certificates minted).
    public init(configuration: RecordingProxyConfiguration, logger: Logger? = nil) throws(ProxyError) {
        self.configuration = configuration
        let writer = try RecordingWriter(
            path: configuration.output,
            origin: RecordingOrigin(upstream: configuration.upstream.description, started: ISOTime.now(), tool: configuration.tool,
                                    note: configuration.note))
        let recorder = ExchangeRecorder(
            redactor: Redactor(extraNames: configuration.redact, maxFileBytes: configuration.maxFileBytes), writer: writer)
        self.recorder = recorder
        let handler = try ProxyHandler(configuration: configuration, recorder: recorder)
        var transport = configuration.transport
        transport.cors = nil
        transport.bodyLimitOverrides.append(BodyLimitOverride(pathPrefix: ForwardedMessages.uploadPrefix, maxBodyBytes: 64 << 20))
        do throws(ServerHostError) {
            host = try ServerHost(configuration: transport, logger: logger) { _ in HostRoutes(fallback: handler) }
        } catch {
            throw .listen("\(error)")
        }
    }

    /// Binds the listeners; returns the plain address.
    @discardableResult
    public func start() throws(ProxyError) -> BoundAddress {
        do throws(ServerHostError) { return try host.start() } catch { throw .listen("\(error)") }
    }

    /// The plain address (`nil` before `start()`).
    public var address: BoundAddress? { host.address }
    /// The TLS address, when a TLS port was configured.
    public var tlsAddress: BoundAddress? { host.tlsAddress }
    /// The test CA clients of the TLS listener must trust.
    public var certificateAuthorityPEM: String { host.certificateAuthorityPEM }
    /// The minted certificates (to write the CA to a file).
    public var tlsMaterial: TLSMaterial { host.tlsMaterial }

    /// Exchanges written to the recording so far.
    public var recordedCount: Int { recorder.writtenCount }
    /// The first failure to write the recording, if any.
    public var writeFailure: ProxyError? { recorder.failure }

    /// Stops listening, writes the exchanges still waiting as `unfinished` and closes the file.
    /// Blocks; from async code use ``shutdown()``.
    public func stop() {
        host.stop()
        recorder.close()
    }

    /// ``stop()`` without blocking the Swift concurrency pool.
    public func shutdown() async {
        await host.shutdown()
        recorder.close()
    }
}

/// Forwards requests and records them (the proxy's only route).
final class ProxyHandler: RequestHandler {
    let upstream: UpstreamOrigin
    let client: HTTPClient
    let trust: HTTPTrust
    let timeout: Double
    let recorder: ExchangeRecorder
    /// The storage URL each exchange's answer named (upload URL or redirect), by exchange id.
    private let storageURLs = Mutex<[Int: String]>([:])
    /// Clients of storage origins other than the upstream.
    private let storageClients = Mutex<[UpstreamOrigin: HTTPClient]>([:])

    init(configuration: RecordingProxyConfiguration, recorder: ExchangeRecorder) throws(ProxyError) {
        upstream = configuration.upstream
        trust = configuration.upstreamTrust
        timeout = configuration.upstreamTimeout
        self.recorder = recorder
        do throws(HTTPClientError) {
            client = try HTTPClient(host: upstream.host, port: upstream.port, trust: upstream.isTLS ? trust : nil,
                                    userAgent: "pubnub-harness-record")
        } catch {
            throw .upstreamTrust(error.description)
        }
    }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        if request.rawPath.hasPrefix(ForwardedMessages.uploadPrefix) || request.rawPath.hasPrefix(ForwardedMessages.storagePrefix) {
            forwardToStorage(request, responder: responder)
            return
        }
        let pending = recorder.begin(request)
        forward(ForwardedMessages.upstreamRequest(request), with: client, pending: pending, responder: responder) { [self] response in
            clientAnswer(response, pending: pending, request: request, context: context)
        }
    }

    /// The answer the client gets: the upstream's, with a storage URL rewritten to the proxy.
    private func clientAnswer(_ response: HTTPClientResponse, pending: ExchangeRecorder.Pending, request: HTTPRequest,
                              context: RequestContext) -> HTTPResponse {
        var answer = ForwardedMessages.clientResponse(status: response.statusCode, headers: response.headers, body: response.body)
        if pending.endpoint == PubNubEndpoint.generateUploadURL.rawValue, response.statusCode == 200 {
            let plain = RecordedBody.decoded(response.body, contentEncoding: response.header("content-encoding"))
            let proxyURL = ForwardedMessages.proxyURL(request: request, context: context, path: ForwardedMessages.uploadPrefix + "\(pending.id)")
            if let rewritten = ForwardedMessages.rewritingUploadURL(plain, to: proxyURL) {
                storageURLs.withLock { $0[pending.id] = rewritten.storageURL }
                answer.body = rewritten.body
                answer.headers.remove("Content-Encoding")
            }
        } else if (300..<400).contains(response.statusCode), let location = response.header("location"),
            UpstreamOrigin.split(url: location) != nil
        {
            storageURLs.withLock { $0[pending.id] = location }
            answer.headers.set("Location", ForwardedMessages.proxyURL(request: request, context: context,
                                                                       path: ForwardedMessages.storagePrefix + "\(pending.id)"))
        }
        return answer
    }

    /// An upload or download through the proxy, forwarded to the storage URL the linked answer named.
    private func forwardToStorage(_ request: HTTPRequest, responder: Responder) {
        let isUpload = request.rawPath.hasPrefix(ForwardedMessages.uploadPrefix)
        let prefix = isUpload ? ForwardedMessages.uploadPrefix : ForwardedMessages.storagePrefix
        guard let id = Int(request.rawPath.dropFirst(prefix.count)), let url = storageURLs.withLock({ $0[id] }),
            let (origin, target) = UpstreamOrigin.split(url: url)
        else {
            responder.send(.respond(HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"],
                                                 body: Array("record proxy: no storage URL for \(request.rawPath)\n".utf8))))
            return
        }
        let storageClient: HTTPClient
        do throws(HTTPClientError) {
            storageClient = try client(for: origin)
        } catch {
            responder.send(.respond(HTTPResponse(status: 502, headers: ["Content-Type": "text/plain"],
                                                 body: Array("record proxy: storage \(origin): \(error)\n".utf8))))
            return
        }
        let pending = recorder.beginStorage(request, origin: origin.description, target: target,
                                            link: StorageLink(kind: isUpload ? .upload : .download, of: id))
        forward(ForwardedMessages.upstreamRequest(request, target: target), with: storageClient, pending: pending, responder: responder) {
            ForwardedMessages.clientResponse(status: $0.statusCode, headers: $0.headers, body: $0.body)
        }
    }

    private func client(for origin: UpstreamOrigin) throws(HTTPClientError) -> HTTPClient {
        if origin == upstream { return client }
        if let known = storageClients.withLock({ $0[origin] }) { return known }
        let made = try HTTPClient(host: origin.host, port: origin.port, trust: origin.isTLS ? trust : nil, userAgent: "pubnub-harness-record")
        return storageClients.withLock { clients in
            if let raced = clients[origin] { return raced }
            clients[origin] = made
            return made
        }
    }

    /// Sends `request` upstream on a thread of its own, records the exchange, then answers the
    /// client (`answer` shapes the upstream's response); a client that goes away cancels it.
    private func forward(
        _ request: HTTPClientRequest, with client: HTTPClient, pending: ExchangeRecorder.Pending, responder: Responder,
        answer: @escaping @Sendable (HTTPClientResponse) -> HTTPResponse
    ) {
        let cancel = CancellationSignal()
        responder.onCancel { cancel.cancel() }
        let recorder = self.recorder
        let timeout = self.timeout
        let thread = Thread {
            switch client.performBlocking(request, timeout: timeout, cancel: cancel) {
            case .success(let response):
                recorder.finish(pending, status: response.statusCode, headers: response.headers, body: response.body)
                responder.send(.respond(answer(response)))
            case .failure(let error) where cancel.isCancelled || error == .cancelled:
                recorder.finish(pending, outcome: .cancelled, error: nil)
            case .failure(let error):
                recorder.finish(pending, outcome: .upstreamFailed, error: error.description)
                responder.send(Self.failureAction(error))
            }
        }
        thread.name = "record-forward"
        thread.start()
    }

    /// What the client sees when the upstream failed: the same break where there is one (a reset,
    /// a close), else 502 (504 for a timeout) naming the failure.
    static func failureAction(_ error: HTTPClientError) -> ResponseAction {
        switch error {
        case .connectionLost: return .close(.reset)
        case .closedBeforeResponse: return .close(.fin)
        case .timedOut:
            return .respond(HTTPResponse(status: 504, headers: ["Content-Type": "text/plain"], body: Array("record proxy: upstream \(error)\n".utf8)))
        default:
            return .respond(HTTPResponse(status: 502, headers: ["Content-Type": "text/plain"], body: Array("record proxy: upstream \(error)\n".utf8)))
        }
    }
}

/// ISO 8601 times as recordings write them.
enum ISOTime {
    /// Now, UTC, to the millisecond (`2026-11-30T08:15:02.123Z`).
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
