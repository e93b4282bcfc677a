// SPDX-License-Identifier: MIT
import Glibc
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// What the test server saw on its one connection.
struct TLSServerOutcome: Sendable {
    /// The handshake's final result: `.bytes(0)` on success, else the failure.
    var handshake: IOResult?
    var detail: String?
    var selectedALPN: String?
    var protocolVersion: String?
    var request: [UInt8] = []
    /// The read result that ended the connection after the response was written.
    var finalRead: IOResult?
    var setupFailure: String?
}

/// A test-only TLS server: accepts one connection on 127.0.0.1 (port 0), wraps the non-blocking
/// socket in a `ServerTLSStream`, drives it with poll(2), reads one request head and answers `response`.
/// Stands in for the event-loop listener, which lives elsewhere.
final class TLSTestServer: Sendable {
    let port: UInt16
    private let listenFD: Int32
    private let context: TLSServerContext
    private let response: [UInt8]

    init(context: TLSServerContext, response: [UInt8]) throws {
        signal(SIGPIPE, SIG_IGN)  // OpenSSL writes with write(); see ServerTLSStream
        let (fd, port) = try TestSockets.listenLoopback()
        self.listenFD = fd
        self.port = port
        self.context = context
        self.response = response
    }

    deinit { close(listenFD) }

    /// Serves one connection; blocking, bounded by `seconds` (a budget, stretched by
    /// ``TestTime/scale``). Call on a dedicated thread.
    func serveOne(seconds: Double = 5) -> TLSServerOutcome {
        var outcome = TLSServerOutcome()
        let deadline = ContinuousClock.now + TestTime.duration(seconds)
        guard TestSockets.wait(listenFD, for: Int16(POLLIN), until: deadline) else {
            outcome.setupFailure = "no connection"
            return outcome
        }
        let fd = accept(listenFD, nil, nil)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // not inherited by processes tests start
        guard fd >= 0 else {
            outcome.setupFailure = "accept errno \(errno)"
            return outcome
        }
        defer { close(fd) }
        guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            outcome.setupFailure = "fcntl errno \(errno)"
            return outcome
        }
        let stream: ServerTLSStream
        do { stream = try ServerTLSStream(context: context, fd: fd) } catch {
            outcome.setupFailure = "\(error)"
            return outcome
        }
        let handshake = drive(fd, until: deadline) { stream.handshake() }
        outcome.handshake = handshake
        guard handshake == .bytes(0) else {
            outcome.detail = stream.lastError?.description
            return outcome
        }
        outcome.selectedALPN = stream.selectedALPN
        outcome.protocolVersion = stream.protocolVersion
        outcome.request = readHead(stream, fd, until: deadline)
        writeAll(stream, fd, until: deadline)
        stream.shutdownWrite()
        outcome.finalRead = drainUntilEnd(stream, fd, until: deadline)
        return outcome
    }

    private func drive(_ fd: Int32, until deadline: ContinuousClock.Instant, _ step: () -> IOResult) -> IOResult {
        for _ in 0..<100_000 {
            let result = step()
            switch result {
            case .wantRead:
                guard TestSockets.wait(fd, for: Int16(POLLIN), until: deadline) else { return .failed(errno: ETIMEDOUT, detail: "timeout") }
            case .wantWrite:
                guard TestSockets.wait(fd, for: Int16(POLLOUT), until: deadline) else { return .failed(errno: ETIMEDOUT, detail: "timeout") }
            default:
                return result
            }
        }
        return .failed(errno: ETIMEDOUT, detail: "too many steps")
    }

    private func readHead(_ stream: ServerTLSStream, _ fd: Int32, until deadline: ContinuousClock.Instant) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        for _ in 0..<1_000 {
            let result = drive(fd, until: deadline) { buffer.withUnsafeMutableBytes { stream.read(into: $0) } }
            guard case .bytes(let n) = result, n > 0 else { break }
            received.append(contentsOf: buffer[0..<n])
            if received.count >= 4, Array(received.suffix(4)) == terminator { break }
        }
        return received
    }

    private func writeAll(_ stream: ServerTLSStream, _ fd: Int32, until deadline: ContinuousClock.Instant) {
        var offset = 0
        for _ in 0..<100_000 where offset < response.count {
            let result = drive(fd, until: deadline) { response[offset...].withUnsafeBytes { stream.write($0) } }
            guard case .bytes(let n) = result, n > 0 else { return }
            offset += n
        }
    }

    private func drainUntilEnd(_ stream: ServerTLSStream, _ fd: Int32, until deadline: ContinuousClock.Instant) -> IOResult? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<1_000 {
            let result = drive(fd, until: deadline) { buffer.withUnsafeMutableBytes { stream.read(into: $0) } }
            guard case .bytes = result else { return result }
        }
        return nil
    }
}
