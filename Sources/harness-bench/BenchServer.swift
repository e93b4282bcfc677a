// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix
import HarnessServerCore
import Synchronization

/// The transport core with a minimal publish/subscribe handler, to measure the core on its own.
///
/// Not the PubNub service: publish answers `[1,"Sent","<tt>"]` and hands one message to every
/// parked subscribe; subscribe with `tt=0` answers the handshake, any other `tt` parks.
final class BenchHandler: RequestHandler {
    private let parked = Mutex<[Responder]>([])

    static func timetoken() -> String { String(UInt64(cposix_wall_seconds() * 10_000_000)) }

    /// `[1,"Sent","<tt>"]` written straight into bytes (the service writes its publish answer so
    /// too): the bench handler's own cost stays small beside the transport's. One allocation.
    static func sentBody(timetoken: UInt64) -> [UInt8] {
        let prefix: StaticString = "[1,\"Sent\",\""
        // Written on the stack, then copied once into an array of its exact size.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { space in
            let base = space.baseAddress!
            base.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            var used = prefix.utf8CodeUnitCount
            used += HTTPResponseEncoder.writeDecimal(timetoken, to: base + used)
            base[used] = UInt8(ascii: "\"")
            base[used + 1] = UInt8(ascii: "]")
            return Array(UnsafeBufferPointer(start: base, count: used + 2))
        }
    }

    /// The paths the handler answers.
    enum Route { case publish, subscribe, time, other }

    /// The route of a raw path, decided on its bytes: no string is made per request
    /// (`String.hasPrefix` would also compare Unicode-canonically, far slower).
    static func route(ofPath path: UnsafeBufferPointer<UInt8>) -> Route {
        if starts(path, with: "/publish/") { return .publish }
        if starts(path, with: "/v2/subscribe/") { return .subscribe }
        if path.count == 7 && starts(path, with: "/time/0") { return .time }
        return .other
    }

    /// Whether `bytes` start with the bytes of `prefix`.
    static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        bytes.count >= prefix.utf8CodeUnitCount && memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        switch request.withRawPathBytes(Self.route(ofPath:)) {
        case .publish:
            let timetoken = UInt64(cposix_wall_seconds() * 10_000_000)
            responder.send(.respond(.bench(200, Self.sentBody(timetoken: timetoken))))
            let waiting = parked.withLock { list -> [Responder] in
                defer { list.removeAll() }
                return list
            }
            guard !waiting.isEmpty else { return }
            let tt = String(timetoken)
            let channel = request.pathSegments?.dropFirst(4).first ?? "ch"
            let message = request.pathSegments?.last ?? "null"
            let body = "{\"t\":{\"t\":\"\(tt)\",\"r\":1},\"m\":[{\"a\":\"1\",\"f\":0,\"i\":\"bench\",\"p\":{\"t\":\"\(tt)\",\"r\":1},"
                + "\"k\":\"bench\",\"c\":\"\(channel)\",\"d\":\(message)}]}"
            let action = ResponseAction.respond(.bench(200, body))
            // One batch, as the service hands out a publish's answers: each loop gets its share in one hop.
            Responder.send(waiting.map { ($0, action) })
        case .subscribe:
            let tt = request.queryItems?["tt"] ?? "0"
            if tt == "0" {
                responder.send(.respond(.bench(200, "{\"t\":{\"t\":\"\(Self.timetoken())\",\"r\":1},\"m\":[]}")))
            } else {
                parked.withLock { $0.append(responder) }
            }
        case .time:
            responder.send(.respond(.bench(200, "[\(Self.timetoken())]")))
        case .other:
            responder.send(.respond(.bench(404, "{\"error\":true,\"status\":404}")))
        }
    }
}

enum BenchServer {
    static func run(port: Int, loops: Int?) {
        // Block SIGINT/SIGTERM in every thread (the loops inherit the mask) and wait for them here.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var configuration = HTTPServerConfiguration(port: port)
        if let loops { configuration.eventLoopCount = loops }
        let server = HTTPServer(configuration: configuration, handler: BenchHandler())
        do {
            let address = try server.start()
            emit("listening on \(address) pid \(getpid())")
        } catch {
            emit("harness-bench: \(error)", to: 2)
            exit(1)
        }
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
    }
}

extension HTTPResponse {
    /// A response with PubNub's content type, as the bench handler answers (same bytes as the service's).
    static func bench(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: benchHeaders, body: Array(body.utf8))
    }

    /// The same with the body already in bytes.
    static func bench(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: benchHeaders, body: body)
    }

    /// Built once and shared, as the service does.
    private static let benchHeaders: HTTPHeaders = ["Content-Type": "text/javascript; charset=\"UTF-8\""]
}
