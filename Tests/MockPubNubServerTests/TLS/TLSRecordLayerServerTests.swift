// SPDX-License-Identifier: MIT
import COpenSSL
import Foundation
import Glibc
import HarnessWebSocket
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The own record layer behind a real `HTTPServer` TLS listener: each TLS 1.3 suite, requests and
/// answers over 16 KB, a client's close_notify, and a corrupted record that ends only its connection.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSRecordLayerServerTests {
    /// Echoes a POST body; `GET /bytes/N` answers N pattern bytes.
    static let handler = ClosureHandler { request, _, responder in
        if request.method == "GET", request.target.hasPrefix("/bytes/"), let count = Int(request.target.dropFirst(7)) {
            responder.send(.respond(HTTPResponse(status: 200, headers: [:], body: recordPattern(count))))
        } else {
            responder.send(.respond(HTTPResponse(status: 200, headers: [:], body: request.body)))
        }
    }

    /// Runs `body` with a blocking TLS client connected to a started server's TLS listener.
    private func withClient<T: Sendable>(
        recordLayer: TLSRecordLayer = .own, suites: String? = nil, maxVersion: Int32 = 0,
        _ body: @escaping @Sendable (BlockingTLSClient, _ port: Int) throws -> T
    ) async throws -> T {
        let result: Result<T, any Error> = await TestSockets.onDedicatedThread {
            Result {
                let material = try TLSMaterial.generate()
                let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: Self.handler)
                try server.start()
                defer { server.stop() }
                let address = try server.addListener(
                    host: "127.0.0.1", port: 0, fault: .none, streamFactory: .tls(material: material, recordLayer: recordLayer))
                let client = try BlockingTLSClient(port: address.port, material: material, suites: suites, maxVersion: maxVersion)
                return try body(client, address.port)
            }
        }
        return try result.get()
    }

    @Test(arguments: DetachedTLSStreamTests.suites)
    func largeRequestsAndAnswersInEachSuite(suite: String) async throws {
        try await withClient(suites: suite) { client, _ in
            #expect(client.cipherName == suite)
            let upload = recordPattern(200_000, seed: 5)
            client.write(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(upload.count)\r\n\r\n".utf8) + upload)
            let echoed = try client.readResponse()
            expectSameElements(echoed.body, upload)
            // Larger than the loopback socket buffers: the server's writes are refused and resumed.
            client.write(Array("GET /bytes/3000000 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            let big = try client.readResponse()
            expectSameElements(big.body, recordPattern(3_000_000))
            // Connection: close ends with the server's close_notify.
            #expect(client.readEnd() == nil)
        }
    }

    /// Echoes binary messages on `/ws`.
    struct EchoExtension: ServerExtension {
        struct Echo: WebSocketHandler {
            func webSocketDidOpen(_ connection: WebSocketHandle) {}
            func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) {}
            func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) { connection.send(binary: bytes) }
            func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {}
        }

        func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
            request.rawPath == "/ws" ? .accept(Echo()) : .notMine
        }
    }

    @Test(arguments: DetachedTLSStreamTests.suites)
    func webSocketMessagesInEachSuite(suite: String) async throws {
        let result: Result<Void, any Error> = await TestSockets.onDedicatedThread {
            Result {
                var configuration = TransportConfiguration()
                configuration.tlsPort = 0
                configuration.eventLoopCount = 1
                let host = try ServerHost(configuration: configuration, extensions: [EchoExtension()])
                try host.start()
                defer { host.stop() }
                let client = try BlockingTLSClient(port: try #require(host.tlsAddress).port, material: host.tlsMaterial, suites: suite)
                #expect(client.cipherName == suite)
                client.write(Array(("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
                let head = try client.readHead()
                #expect(head.hasPrefix("HTTP/1.1 101 "))
                var encoder = WebSocketFrameEncoder.client()
                for size in [5, 40_000, 200_000] {
                    let message = recordPattern(size, seed: size)
                    client.write(encoder.encodeBinary(message))
                    // The server's frame: 0x82, then the length (7, 16 or 64 bits), unmasked.
                    let lengthBytes = size < 126 ? 0 : size < 65_536 ? 2 : 8
                    let frame = try client.readExactly(2 + lengthBytes + size)
                    #expect(frame[0] == 0x82)
                    #expect(Array(frame[(2 + lengthBytes)...]) == message)
                }
            }
        }
        try result.get()
    }

    @Test func tls12ClientsAreServedByOpenSSL() async throws {
        try await withClient(maxVersion: TLS1_2_VERSION) { client, _ in
            #expect(client.version == "TLSv1.2")
            client.write(Array("GET /bytes/40000 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer1 = try client.readResponse()
            expectSameElements(answer1.body, recordPattern(40_000))
        }
    }

    @Test func theOpenSSLRecordLayerStillServes() async throws {
        try await withClient(recordLayer: .openssl) { client, _ in
            client.write(Array("GET /bytes/40000 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer2 = try client.readResponse()
            expectSameElements(answer2.body, recordPattern(40_000))
        }
    }

    @Test func aCorruptedRecordEndsItsConnectionOnlyAndIsAnswered() async throws {
        try await withClient { client, port in
            client.write(Array("GET /bytes/10 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer3 = try client.readResponse()
            expectSameElements(answer3.body, recordPattern(10))
            client.sendRaw([0x17, 0x03, 0x03, 0x00, 0x20] + recordPattern(32))
            let end = try #require(client.readEnd())
            #expect(end.joined(separator: "; ").contains("alert bad record mac"), "\(end)")
            // The server is still up: a new connection is answered.
            let material = client.material
            let second = try BlockingTLSClient(port: port, material: material)
            second.write(Array("GET /bytes/5 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer4 = try second.readResponse()
            expectSameElements(answer4.body, recordPattern(5))
        }
    }

    @Test func keyUpdateThroughTheServer() async throws {
        try await withClient { client, _ in
            #expect(SSL_key_update(client.ssl, SSL_KEY_UPDATE_REQUESTED) == 1)
            client.write(Array("GET /bytes/20000 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer5 = try client.readResponse()
            expectSameElements(answer5.body, recordPattern(20_000))
            #expect(SSL_key_update(client.ssl, SSL_KEY_UPDATE_NOT_REQUESTED) == 1)
            client.write(Array("GET /bytes/30000 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let answer6 = try client.readResponse()
            expectSameElements(answer6.body, recordPattern(30_000))
        }
    }
}

/// A blocking OpenSSL client for one connection (SO_RCVTIMEO bounds every read).
// @unchecked Sendable: made and used by one test thread only, inside withClient.
final class BlockingTLSClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let ssl: OpaquePointer
    let material: TLSMaterial
    private let context: OpaquePointer
    private let fd: Int32
    private var buffered: [UInt8] = []

    init(port: Int, material: TLSMaterial, suites: String? = nil, maxVersion: Int32 = 0) throws {
        self.material = material
        var options = TLSClientOptions(trustedCAPEM: material.certificateAuthorityPEM)
        options.maxVersion = maxVersion
        context = try TLSTestClient.makeContext(options)
        if let suites { _ = SSL_CTX_set_ciphersuites(context, suites) }
        fd = TestSockets.connectLoopback(port: UInt16(port), timeoutMilliseconds: Int(TestTime.budgetMs(5_000)))
        guard fd >= 0, let ssl = TLSTestClient.makeSession(context, fd: fd, host: "localhost") else {
            SSL_CTX_free(context)
            throw Failure(description: "connect")
        }
        self.ssl = ssl
        guard SSL_connect(ssl) == 1 else { throw Failure(description: "handshake \(RecordLayerPair.clientErrors())") }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
        if fd >= 0 { close(fd) }
    }

    var cipherName: String { String(cString: SSL_CIPHER_get_name(SSL_get_current_cipher(ssl))) }
    var version: String { String(cString: SSL_get_version(ssl)) }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one response with a Content-Length body.
    func readResponse() throws -> (head: String, body: [UInt8]) {
        for _ in 0..<100_000 {
            if let end = findHeadEnd() {
                let head = String(decoding: buffered[0..<end], as: UTF8.self)
                let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
                if buffered.count >= end + 4 + length {
                    let body = Array(buffered[(end + 4)..<(end + 4 + length)])
                    buffered.removeFirst(end + 4 + length)
                    return (head, body)
                }
            }
            guard try readMore() else {
                let head = String(decoding: buffered.prefix(120), as: UTF8.self)
                throw Failure(description: "the connection ended inside a response (\(buffered.count) bytes: \(head))")
            }
        }
        throw Failure(description: "no response")
    }

    /// Reads a response head (through the blank line) and leaves what follows buffered.
    func readHead() throws -> String {
        for _ in 0..<100_000 {
            if let end = findHeadEnd() {
                let head = String(decoding: buffered[0..<end], as: UTF8.self)
                buffered.removeFirst(end + 4)
                return head
            }
            guard try readMore() else { throw Failure(description: "the connection ended inside a head") }
        }
        throw Failure(description: "no head")
    }

    /// Reads exactly `count` bytes.
    func readExactly(_ count: Int) throws -> [UInt8] {
        for _ in 0..<100_000 where buffered.count < count {
            guard try readMore() else { throw Failure(description: "the connection ended after \(buffered.count) of \(count) bytes") }
        }
        guard buffered.count >= count else { throw Failure(description: "\(buffered.count) of \(count) bytes") }
        let bytes = Array(buffered[0..<count])
        buffered.removeFirst(count)
        return bytes
    }

    /// Reads to the end: nil after a clean close_notify, else the OpenSSL reasons.
    func readEnd() -> [String]? {
        for _ in 0..<100_000 {
            do {
                if try !readMore() { return nil }
            } catch {
                return ["\(error)"]
            }
        }
        return ["no end"]
    }

    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        ERR_clear_error()
        let n = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        if n > 0 {
            buffered += chunk[0..<Int(n)]
            return true
        }
        let code = SSL_get_error(ssl, n)
        if code == SSL_ERROR_ZERO_RETURN { return false }
        throw Failure(description: (RecordLayerPair.clientErrors() + ["SSL error \(code)"]).joined(separator: "; "))
    }

    private func findHeadEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for index in 0...(buffered.count - 4)
        where buffered[index] == 13 && buffered[index + 1] == 10 && buffered[index + 2] == 13 && buffered[index + 3] == 10 {
            return index
        }
        return nil
    }
}
