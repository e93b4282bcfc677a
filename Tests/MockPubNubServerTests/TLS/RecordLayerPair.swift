// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A `ServerTLSStream` and an OpenSSL client on one loopback TCP connection, both non-blocking and
/// driven from the test's one thread (poll(2) between steps), so that a test decides exactly when
/// each side reads and writes. Every loop is bounded by a deadline.
final class RecordLayerPair {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let stream: ServerTLSStream
    let client: OpaquePointer
    let serverFD: Int32
    let clientFD: Int32
    private let clientContext: OpaquePointer
    private let deadline: ContinuousClock.Instant
    /// Handshake message types the client received after its handshake (24 = KeyUpdate).
    let received = ReceivedMessages()

    /// Connects and completes the handshake. `suites` restricts the client's TLS 1.3 suites
    /// (`SSL_set_ciphersuites`); `maxVersion` caps its protocol version.
    /// `earlyData` is written by the client as soon as its handshake is done, before the server's
    /// has completed (it then waits in the socket behind the client's Finished).
    init(
        material: TLSMaterial, recordLayer: TLSRecordLayer = .own, suites: String? = nil, maxVersion: Int32 = 0,
        earlyData: [UInt8]? = nil, seconds: Double = 10
    ) throws {
        deadline = ContinuousClock.now + TestTime.duration(seconds)
        let (listenFD, port) = try TestSockets.listenLoopback()
        defer { close(listenFD) }
        let clientFD = TestSockets.connectLoopback(port: port, timeoutMilliseconds: Int(TestTime.budgetMs(5_000)))
        guard clientFD >= 0 else { throw Failure(description: "connect errno \(-clientFD)") }
        let serverFD = accept(listenFD, nil, nil)
        guard serverFD >= 0 else {
            close(clientFD)
            throw Failure(description: "accept errno \(errno)")
        }
        for fd in [clientFD, serverFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        self.clientFD = clientFD
        self.serverFD = serverFD
        stream = try ServerTLSStream(context: TLSServerContext(material: material, fault: .tlsTrusted, recordLayer: recordLayer), fd: serverFD)
        var options = TLSClientOptions(trustedCAPEM: material.certificateAuthorityPEM)
        options.maxVersion = maxVersion
        clientContext = try TLSTestClient.makeContext(options)
        if let suites { _ = SSL_CTX_set_ciphersuites(clientContext, suites) }
        client = TLSTestClient.makeSession(clientContext, fd: clientFD, host: "localhost")!
        SSL_set_msg_callback(client) { writing, _, contentType, buffer, length, _, argument in
            guard writing == 0, contentType == SSL3_RT_HANDSHAKE, length > 0, let buffer, let argument else { return }
            let type = buffer.load(as: UInt8.self)
            Unmanaged<ReceivedMessages>.fromOpaque(argument).takeUnretainedValue().types.append(type)
        }
        _ = SSL_ctrl(client, SSL_CTRL_SET_MSG_CALLBACK_ARG, 0, Unmanaged.passUnretained(received).toOpaque())
        try handshake(earlyData: earlyData)
    }

    deinit {
        SSL_free(client)
        SSL_CTX_free(clientContext)
        close(clientFD)
        close(serverFD)
    }

    final class ReceivedMessages {
        var types: [UInt8] = []
    }

    private func handshake(earlyData: [UInt8]?) throws {
        var clientDone = false
        var serverDone = false
        while !(clientDone && serverDone) {
            if !clientDone {
                let rc = SSL_connect(client)
                if rc == 1 {
                    clientDone = true
                    if let earlyData, !serverDone {
                        let written = earlyData.withUnsafeBytes { SSL_write(client, $0.baseAddress, Int32($0.count)) }
                        guard written == Int32(earlyData.count) else { throw Failure(description: "client early write") }
                    }
                } else {
                    let code = SSL_get_error(client, rc)
                    guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
                        throw Failure(description: "client handshake: SSL error \(code) \(Self.clientErrors())")
                    }
                }
            }
            if !serverDone {
                switch stream.handshake() {
                case .bytes: serverDone = true
                case .wantRead, .wantWrite: break
                case let other: throw Failure(description: "server handshake: \(other)")
                }
            }
            if !(clientDone && serverDone) { try pause() }
        }
        received.types.removeAll()
    }

    /// Waits (bounded) until either socket is readable or a short interval passed.
    func pause() throws {
        guard ContinuousClock.now < deadline else { throw Failure(description: "deadline passed") }
        var fds = [pollfd(fd: clientFD, events: Int16(POLLIN), revents: 0), pollfd(fd: serverFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, 10)
    }

    /// The client's queued OpenSSL reasons.
    static func clientErrors() -> [String] {
        var reasons: [String] = []
        for _ in 0..<16 {
            let code = ERR_get_error()
            if code == 0 { break }
            reasons.append(ERR_reason_error_string(code).map { String(cString: $0) } ?? "reason \(code)")
        }
        return reasons
    }

    // MARK: Moving bytes

    /// Sends `bytes` from the client (SSL_write) while the server reads; returns what the server read.
    func fromClient(_ bytes: [UInt8]) throws -> [UInt8] {
        var sent = 0
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while got.count < bytes.count {
            if sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { SSL_write(client, $0.baseAddress, Int32($0.count)) }
                if n > 0 {
                    sent += Int(n)
                } else {
                    let code = SSL_get_error(client, n)
                    guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
                        throw Failure(description: "client write: SSL error \(code) \(Self.clientErrors())")
                    }
                }
            }
            switch buffer.withUnsafeMutableBytes({ stream.read(into: $0) }) {
            case .bytes(let n): got += buffer[0..<n]
            case .wantRead, .wantWrite: try pause()
            case let other: throw Failure(description: "server read: \(other)")
            }
        }
        return got
    }

    /// Writes `bytes` from the server (re-offering unwritten bytes, as a connection does) while the
    /// client reads (with `clientReadsAtOnce` false, only once a server write was refused or all
    /// was written); returns what the client read and whether a server write was refused.
    func fromServer(_ bytes: [UInt8], clientReadsAtOnce: Bool = true) throws -> (received: [UInt8], sawWantWrite: Bool) {
        var written = 0
        var got: [UInt8] = []
        var sawWantWrite = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while got.count < bytes.count {
            if written < bytes.count {
                switch bytes[written...].withUnsafeBytes({ stream.write($0) }) {
                case .bytes(let n): written += n
                case .wantWrite: sawWantWrite = true
                case let other: throw Failure(description: "server write: \(other)")
                }
            }
            guard clientReadsAtOnce || sawWantWrite || written == bytes.count else { continue }
            let n = buffer.withUnsafeMutableBytes { SSL_read(client, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                got += buffer[0..<Int(n)]
            } else {
                let code = SSL_get_error(client, n)
                guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
                    throw Failure(description: "client read: SSL error \(code) \(Self.clientErrors())")
                }
                var fds = [pollfd(fd: clientFD, events: Int16(POLLIN), revents: 0), pollfd(fd: serverFD, events: Int16(POLLOUT), revents: 0)]
                guard ContinuousClock.now < deadline else { throw Failure(description: "deadline passed") }
                _ = poll(&fds, 2, 10)
            }
        }
        return (got, sawWantWrite)
    }

    /// Reads on the server until it returns something other than bytes or `.wantRead` (bounded).
    func serverReadsToEnd() throws -> IOResult {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let result = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
            switch result {
            case .bytes, .wantRead: try pause()
            default: return result
            }
        }
    }

    /// Reads on the client until it ends: nil for a clean close_notify, else the OpenSSL reasons.
    func clientReadsToEnd() throws -> [String]? {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let n = buffer.withUnsafeMutableBytes { SSL_read(client, $0.baseAddress, Int32($0.count)) }
            if n > 0 { continue }
            let code = SSL_get_error(client, n)
            if code == SSL_ERROR_ZERO_RETURN { return nil }
            if code == SSL_ERROR_WANT_READ {
                try pause()
                continue
            }
            return Self.clientErrors() + ["SSL error \(code)"]
        }
    }

    /// Sends raw bytes on the client's socket, beside its TLS session.
    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(clientFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// A deterministic byte pattern of `count` bytes.
func recordPattern(_ count: Int, seed: Int = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ seed &+ $0 >> 9) }
}
