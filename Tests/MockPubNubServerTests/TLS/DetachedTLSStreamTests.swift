// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc
import Testing
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The stream's own TLS 1.3 record layer, one connection at a time: which handshakes detach from
/// OpenSSL, bytes both ways in each suite, partial writes, KeyUpdate, alerts and broken records.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct DetachedTLSStreamTests {
    static let suites = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"]

    @Test(arguments: suites)
    func eachSuiteDetachesAndCarriesRecordsBothWays(suite: String) throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate(), suites: suite)
        #expect(pair.stream.isDetached)
        #expect(String(cString: SSL_CIPHER_get_name(SSL_get_current_cipher(pair.client))) == suite)
        // Over 16 KB each way: several records, the last one short.
        let up = recordPattern(40_000, seed: 1)
        expectSameElements(try pair.fromClient(up), up)
        let down = recordPattern(70_001, seed: 2)
        expectSameElements(try pair.fromServer(down).received, down)
        // A short exchange afterwards still uses the right sequence numbers.
        #expect(try pair.fromClient(Array("ping".utf8)) == Array("ping".utf8))
        #expect(try pair.fromServer(Array("pong".utf8)).received == Array("pong".utf8))
    }

    @Test func bytesRightBehindTheClientFinishedAreReadAfterDetaching() throws {
        let request = Array("GET /time/0 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let pair = try RecordLayerPair(material: TLSMaterial.generate(), earlyData: request)
        // OpenSSL reads record by record: the request stays in the socket for the detached stream.
        #expect(pair.stream.isDetached)
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while got.count < request.count {
            switch buffer.withUnsafeMutableBytes({ pair.stream.read(into: $0) }) {
            case .bytes(let n): got += buffer[0..<n]
            case .wantRead: try pair.pause()
            case let other:
                Issue.record("read: \(other)")
                return
            }
        }
        #expect(got == request)
    }

    @Test func anIdleDetachedConnectionHoldsNoBuffers() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        let detached = try #require(pair.stream.detachedStream)
        #expect(!detached.holdsReceiveBuffer)
        expectSameElements(try pair.fromClient(recordPattern(20_000)), recordPattern(20_000))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(buffer.withUnsafeMutableBytes { pair.stream.read(into: $0) } == .wantRead)
        #expect(!detached.holdsReceiveBuffer)
        #expect(!detached.holdsUnsentRecords)
    }

    @Test func writesLargerThanTheSocketBufferGoOutAcrossRefusedWrites() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        let body = recordPattern(6_000_000, seed: 3)
        // The client reads nothing until the server's socket refused a write.
        let (received, sawWantWrite) = try pair.fromServer(body, clientReadsAtOnce: false)
        #expect(sawWantWrite)
        expectSameElements(received, body)
        #expect(pair.stream.detachedStream?.holdsUnsentRecords == false)
    }

    @Test func gatheredPiecesShareRecords() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 30000\r\n\r\n".utf8)
        let body = recordPattern(30_000)
        let result = head.withUnsafeBytes { h in
            body.withUnsafeBytes { b in
                [h, b].withUnsafeBufferPointer { pair.stream.write(gathering: $0) }
            }
        }
        #expect(result == .bytes(head.count + body.count))
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var records = 0
        while got.count < head.count + body.count {
            let n = buffer.withUnsafeMutableBytes { SSL_read(pair.client, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                got += buffer[0..<Int(n)]
                records += 1
            } else {
                try pair.pause()
            }
        }
        expectSameElements(got, head + body)
        // SSL_read returns one record at a time: 30,043 bytes make two records, not three.
        #expect(records == 2)
    }

    @Test(arguments: [false, true])
    func clientKeyUpdateIsFollowed(requested: Bool) throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        #expect(SSL_key_update(pair.client, requested ? SSL_KEY_UPDATE_REQUESTED : SSL_KEY_UPDATE_NOT_REQUESTED) == 1)
        #expect(try pair.fromClient(Array("after update".utf8)) == Array("after update".utf8))
        expectSameElements(try pair.fromServer(recordPattern(20_000)).received, recordPattern(20_000))
        // The server answers a requested update with its own KeyUpdate, and only then.
        #expect(pair.received.types == (requested ? [24] : []))
        expectSameElements(try pair.fromClient(recordPattern(30_000, seed: 9)), recordPattern(30_000, seed: 9))
        // A second update in the other generation works too.
        #expect(SSL_key_update(pair.client, SSL_KEY_UPDATE_REQUESTED) == 1)
        #expect(try pair.fromClient(Array("again".utf8)) == Array("again".utf8))
        #expect(try pair.fromServer(Array("still".utf8)).received == Array("still".utf8))
    }

    @Test func clientCloseNotifyIsACleanEndOfStream() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        #expect(try pair.fromClient(Array("bye".utf8)) == Array("bye".utf8))
        _ = SSL_shutdown(pair.client)
        #expect(try pair.serverReadsToEnd() == .eof)
        #expect(pair.stream.lastError == nil)
    }

    @Test func serverShutdownSendsCloseNotify() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        #expect(try pair.fromServer(Array("last".utf8)).received == Array("last".utf8))
        pair.stream.shutdownWrite()
        #expect(try pair.clientReadsToEnd() == nil)
    }

    @Test func aCorruptedRecordFailsWithBadRecordMACAndTheAlert() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        pair.sendRaw([0x17, 0x03, 0x03, 0x00, 0x20] + recordPattern(32))
        guard case .failed(0, let detail) = try pair.serverReadsToEnd() else {
            Issue.record("the server did not fail")
            return
        }
        #expect(detail == "TLS record layer: bad_record_mac: a record failed authentication")
        #expect(pair.stream.lastError == .record(.badRecordMAC))
        let clientSaw = try #require(try pair.clientReadsToEnd())
        #expect(clientSaw.contains("sslv3 alert bad record mac") || clientSaw.contains("tlsv1 alert bad record mac"), "\(clientSaw)")
    }

    @Test func anOversizedRecordFailsWithRecordOverflow() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        pair.sendRaw([0x17, 0x03, 0x03, 0x41, 0x01])
        guard case .failed(0, _) = try pair.serverReadsToEnd() else {
            Issue.record("the server did not fail")
            return
        }
        #expect(pair.stream.lastError == .record(.recordOverflow(bodyLength: 0x4101)))
        let clientSaw = try #require(try pair.clientReadsToEnd())
        #expect(clientSaw.contains("tlsv1 alert record overflow"), "\(clientSaw)")
    }

    @Test(arguments: [
        [0x16, 0x03, 0x03, 0x00, 0x04, 0x18, 0x00, 0x00, 0x00] as [UInt8],  // a plaintext handshake record
        [0x14, 0x03, 0x03, 0x00, 0x01, 0x01],  // change_cipher_spec after the handshake
        [0x17, 0x03, 0x01, 0x00, 0x20],  // a protected record with another version
    ])
    func recordsOfAnotherKindFailWithUnexpectedMessage(bytes: [UInt8]) throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate())
        pair.sendRaw(bytes)
        guard case .failed(0, let detail) = try pair.serverReadsToEnd() else {
            Issue.record("the server did not fail")
            return
        }
        #expect(detail.contains("unexpected_message"))
        let clientSaw = try #require(try pair.clientReadsToEnd())
        #expect(clientSaw.contains("sslv3 alert unexpected message") || clientSaw.contains("tlsv1 alert unexpected message"), "\(clientSaw)")
    }

    /// Two detached streams facing each other over loopback, the client's keys mirrored.
    private func mirroredPair() throws -> (server: DetachedTLSStream, client: DetachedTLSStream, fds: [Int32]) {
        let (listenFD, port) = try TestSockets.listenLoopback()
        defer { close(listenFD) }
        let clientFD = TestSockets.connectLoopback(port: port, timeoutMilliseconds: Int(TestTime.budgetMs(5_000)))
        let serverFD = accept(listenFD, nil, nil)
        for fd in [clientFD, serverFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let clientSecret = recordPattern(32, seed: 1)
        let serverSecret = recordPattern(32, seed: 2)
        let server = try clientSecret.withUnsafeBytes { c in
            try serverSecret.withUnsafeBytes { s in try DetachedTLSStream(fd: serverFD, suite: .chacha20Poly1305SHA256, clientSecret: c, serverSecret: s) }
        }
        let client = try serverSecret.withUnsafeBytes { s in
            try clientSecret.withUnsafeBytes { c in try DetachedTLSStream(fd: clientFD, suite: .chacha20Poly1305SHA256, clientSecret: s, serverSecret: c) }
        }
        return (server, client, [clientFD, serverFD])
    }

    @Test func aPeerAlertOtherThanCloseNotifyIsAFailureNamingIt() throws {
        let (server, client, fds) = try mirroredPair()
        defer { for fd in fds { close(fd) } }
        #expect(Array("hi".utf8).withUnsafeBytes { client.write($0) } == .bytes(2))
        client.sendAlert(TLSAlert(code: 90))
        var buffer = [UInt8](repeating: 0, count: 64)
        var results: [IOResult] = []
        let deadline = ContinuousClock.now + TestTime.duration(5)
        while ContinuousClock.now < deadline {
            let result = buffer.withUnsafeMutableBytes { server.read(into: $0) }
            if result == .wantRead {
                _ = TestSockets.wait(fds[1], for: Int16(POLLIN), until: deadline)
                continue
            }
            results.append(result)
            if case .failed = result { break }
        }
        #expect(results == [.bytes(2), .failed(errno: 0, detail: "TLS record layer: the peer sent the alert user_canceled")])
        #expect(server.lastError == .record(.peerAlert(code: 90, name: "user_canceled")))
        // Nothing is sent after a peer's alert.
        #expect(Array("late".utf8).withUnsafeBytes { server.write($0) } != .bytes(4))
    }

    @Test func tls12ClientsKeepOpenSSL() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate(), maxVersion: TLS1_2_VERSION)
        #expect(!pair.stream.isDetached)
        #expect(pair.stream.protocolVersion == "TLSv1.2")
        expectSameElements(try pair.fromClient(recordPattern(20_000)), recordPattern(20_000))
        expectSameElements(try pair.fromServer(recordPattern(50_000)).received, recordPattern(50_000))
    }

    @Test func theOpenSSLRecordLayerNeverDetaches() throws {
        let pair = try RecordLayerPair(material: TLSMaterial.generate(), recordLayer: .openssl)
        #expect(!pair.stream.isDetached)
        #expect(pair.stream.protocolVersion == "TLSv1.3")
        expectSameElements(try pair.fromServer(recordPattern(50_000)).received, recordPattern(50_000))
    }
}

/// The pure pieces: labels, nonces, record headers and inner plaintext.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSRecordFormatTests {
    @Test func hkdfLabelIsLengthLabelAndEmptyContext() {
        #expect(TLS13KeySchedule.hkdfLabel("key", length: 16) == [0x00, 0x10, 9] + Array("tls13 key".utf8) + [0])
        #expect(TLS13KeySchedule.hkdfLabel("traffic upd", length: 48) == [0x00, 0x30, 17] + Array("tls13 traffic upd".utf8) + [0])
    }

    @Test func keysFromTheRFC8448ServerApplicationSecret() throws {
        // RFC 8448 §3 (simple 1-RTT handshake), {server} application traffic keys.
        let secret = hex("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")
        let block = UnsafeMutableRawPointer.allocate(byteCount: TrafficKeys.byteCount, alignment: 8)
        defer { block.deallocate() }
        var keys = try secret.withUnsafeBytes { try TrafficKeys(suite: .aes128GCMSHA256, base: block, secret: $0) }
        #expect(Array(keys.key) == hex("9f02283b6c9c07efc26bb9f2ac92e356"))
        #expect(Array(keys.iv) == hex("cf782b88dd83549aadf1e984"))
        keys.sequence = 1
        var nonce = [UInt8](repeating: 0, count: 12)
        nonce.withUnsafeMutableBytes { keys.nonce(into: $0) }
        #expect(nonce == hex("cf782b88dd83549aadf1e985"))
        keys.sequence = 0x0102
        nonce.withUnsafeMutableBytes { keys.nonce(into: $0) }
        #expect(nonce == hex("cf782b88dd83549aadf1e886"))
        try keys.update()
        #expect(keys.sequence == 0)
        #expect(Array(keys.key) != hex("9f02283b6c9c07efc26bb9f2ac92e356"))
    }

    @Test func headers() {
        func header(_ bytes: [UInt8]) -> TLSRecordFormat.Header { bytes.withUnsafeBytes { TLSRecordFormat.header($0) } }
        #expect(header([0x17, 0x03, 0x03, 0x00]) == .incomplete)
        #expect(header([0x17, 0x03, 0x03, 0x41, 0x00]) == .record(bodyLength: 16_640))
        #expect(header([0x17, 0x03, 0x03, 0x41, 0x01]) == .overflow(bodyLength: 16_641))
        #expect(header([0x15, 0x03, 0x03, 0x00, 0x02]) == .unexpected(type: 0x15, version: 0x0303))
    }

    @Test func innerPlaintextStripsPadding() {
        func inner(_ bytes: [UInt8]) -> (UInt8, Int)? { bytes.withUnsafeBytes { TLSRecordFormat.innerContent($0) }.map { ($0.type, $0.length) } }
        #expect(inner([0x61, 0x62, 0x17, 0, 0, 0])! == (0x17, 2))
        #expect(inner([0x17])! == (0x17, 0))
        #expect(inner([0, 0, 0]) == nil)
    }

    @Test func postHandshakeMessages() {
        func message(_ bytes: [UInt8]) -> TLSRecordFormat.PostHandshakeMessage { bytes.withUnsafeBytes { TLSRecordFormat.postHandshakeMessage($0) } }
        #expect(message([24, 0, 0, 1, 0]) == .keyUpdate(updateRequested: false))
        #expect(message([24, 0, 0, 1, 1]) == .keyUpdate(updateRequested: true))
        #expect(message([4, 0, 0, 1, 0]) == .unexpected("handshake message type 4 after the handshake"))
        #expect(message([24, 0, 0, 1, 2]) == .unexpected("KeyUpdate request_update 2"))
        #expect(message([24, 0, 0, 1, 0, 24]) == .unexpected("KeyUpdate of 1 bytes in a record of 6"))
    }

    @Test func keyLogLinesYieldOnlyTheApplicationSecrets() {
        let capture = TLS13SecretCapture()
        let random = String(repeating: "ab", count: 32)
        "CLIENT_HANDSHAKE_TRAFFIC_SECRET \(random) \(String(repeating: "11", count: 32))".withCString { capture.take(line: $0) }
        #expect(capture.clientSecret.count == 0)
        "CLIENT_TRAFFIC_SECRET_0 \(random) \(String(repeating: "0A", count: 48))".withCString { capture.take(line: $0) }
        "SERVER_TRAFFIC_SECRET_0 \(random) \(String(repeating: "f1", count: 32))".withCString { capture.take(line: $0) }
        #expect(Array(capture.clientSecret) == [UInt8](repeating: 0x0a, count: 48))
        #expect(Array(capture.serverSecret) == [UInt8](repeating: 0xf1, count: 32))
        "SERVER_TRAFFIC_SECRET_0 \(random) zz".withCString { capture.take(line: $0) }
        #expect(capture.serverSecret.count == 0)
    }

    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
