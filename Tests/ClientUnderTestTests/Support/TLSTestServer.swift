// SPDX-License-Identifier: MIT
import COpenSSL
import Foundation
import Glibc
import Synchronization

/// Test certificates made with the `openssl` command-line tool in a temporary directory:
/// a CA, a leaf for localhost/127.0.0.1, an expired leaf, a leaf for another host, a self-signed
/// leaf, and a leaf from an untrusted CA. EC P-256 keys (fast).
final class TestCertificates: Sendable {
    let directory: String

    /// Made once per test process, on a dedicated thread (the `openssl` runs block).
    static let shared = Task<TestCertificates, any Error> {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try TestCertificates() }) }
            thread.start()
        }
    }

    private init() throws {
        directory = NSTemporaryDirectory() + "pn-client-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        let script = """
            set -e
            cd '\(directory)'
            exec >/dev/null 2>&1
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1' > good.ext
            printf 'subjectAltName=DNS:other.example' > other.ext
            openssl req -x509 \(ec) -keyout ca.key -out ca.pem -days 3650 -subj /CN=TestCA
            openssl req -x509 \(ec) -keyout rogue.key -out rogue.pem -days 3650 -subj /CN=RogueCA
            for name in good expired wronghost unknownca; do
              openssl req \(ec) -keyout $name.key -out $name.csr -subj /CN=localhost
            done
            openssl x509 -req -in good.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out good.pem -days 365 -extfile good.ext
            openssl x509 -req -in expired.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out expired.pem -days -1 -extfile good.ext
            openssl x509 -req -in wronghost.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out wronghost.pem -days 365 -extfile other.ext
            openssl x509 -req -in unknownca.csr -CA rogue.pem -CAkey rogue.key -CAcreateserial -out unknownca.pem -days 365 -extfile good.ext
            openssl req -x509 \(ec) -keyout selfsigned.key -out selfsigned.pem -days 365 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1
            """
        guard Self.runShell(script) == 0 else { throw POSIXError(.EIO) }
    }

    /// Runs `/bin/sh -c script` with posix_spawn and waits for it; returns the exit status.
    private static func runShell(_ script: String) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(script), nil]
        defer { for arg in argv { free(arg) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return (status >> 8) & 0xFF
    }

    var caFile: String { directory + "/ca.pem" }
    func cert(_ name: String) -> String { "\(directory)/\(name).pem" }
    func key(_ name: String) -> String { "\(directory)/\(name).key" }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

/// A one-thread-per-connection TLS server on 127.0.0.1:0 answering every request with `[17000000000000000]`,
/// or (raw mode) writing fixed bytes right after accept, before any TLS.
final class TLSTestServer: Sendable {
    enum Mode: Sendable {
        case tls(cert: String, key: String)
        case raw([UInt8])
        /// Closes the connection right after accept.
        case hangUp
    }

    let port: Int
    private let listenFD: Int32
    private let mode: Mode
    /// The server SSL_CTX as an address (set once in init, freed in deinit; SSL_new on it is thread-safe).
    private let contextBits: Int
    private let stopped = Mutex(false)

    init(_ mode: Mode) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(fd, 16)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listenFD = fd
        self.mode = mode
        if case .tls(let cert, let key) = mode {
            guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw POSIXError(.ENOMEM) }
            guard SSL_CTX_use_certificate_chain_file(ctx, cert) == 1,
                SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1
            else { throw POSIXError(.EINVAL) }
            contextBits = Int(bitPattern: UnsafeRawPointer(ctx))
        } else {
            contextBits = 0
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    func stop() {
        guard stopped.withLock({ s in defer { s = true }; return !s }) else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }

    deinit {
        stop()
        if contextBits != 0 { SSL_CTX_free(OpaquePointer(bitPattern: contextBits)) }
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listenFD, nil, nil)
            if client < 0 { return }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        switch mode {
        case .hangUp:
            return
        case .raw(let bytes):
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(fd, &sink, sink.count, 0) > 0 {}
        case .tls:
            guard let ssl = SSL_new(OpaquePointer(bitPattern: contextBits)) else { return }
            defer { SSL_free(ssl) }
            SSL_set_fd(ssl, fd)
            guard SSL_accept(ssl) == 1 else { return }
            var request: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: [13, 10, 13, 10]) {
                let n = SSL_read(ssl, &chunk, Int32(chunk.count))
                if n <= 0 { return }
                request += chunk[0..<Int(n)]
            }
            let body = "[17000000000000000]"
            let response = "HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            _ = SSL_write(ssl, response, Int32(response.utf8.count))
            SSL_shutdown(ssl)
        }
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
