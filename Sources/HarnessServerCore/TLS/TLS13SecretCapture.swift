// SPDX-License-Identifier: MIT
internal import COpenSSL
import HarnessPrimitives

/// The two TLS 1.3 application traffic secrets of one server `SSL`, caught from OpenSSL's key-log
/// callback during the handshake (lines `CLIENT_TRAFFIC_SECRET_0 <random> <hex>` and
/// `SERVER_TRAFFIC_SECRET_0 <random> <hex>`), so that the stream can take over the record layer.
///
/// The secrets are never logged or exposed: they stay in this object, are handed to the detached
/// stream once and are zeroed when it is released. Owned by the stream on its loop thread; the
/// callback runs inside `SSL_accept` on that same thread.
final class TLS13SecretCapture {
    /// Client (index 0) and server (index 1) secrets, each up to 48 bytes.
    private let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * TLS13CipherSuite.maxSecretLength, alignment: 8)
    private(set) var clientLength = 0
    private(set) var serverLength = 0

    init() { storage.initializeMemory(as: UInt8.self, repeating: 0) }

    deinit {
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        storage.deallocate()
    }

    /// The client's application traffic secret (empty until caught).
    var clientSecret: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<clientLength]) }
    /// The server's application traffic secret (empty until caught).
    var serverSecret: UnsafeRawBufferPointer {
        let start = TLS13CipherSuite.maxSecretLength
        return UnsafeRawBufferPointer(rebasing: storage[start..<start + serverLength])
    }

    /// Takes one key-log line; lines other than the two application secrets are ignored.
    func take(line: UnsafePointer<CChar>) {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self), count: strlen(line))
        if let secret = Self.secret(in: bytes, label: Self.clientLabel) {
            clientLength = Self.decodeHex(secret, into: UnsafeMutableRawBufferPointer(rebasing: storage[0..<TLS13CipherSuite.maxSecretLength]))
        } else if let secret = Self.secret(in: bytes, label: Self.serverLabel) {
            let start = TLS13CipherSuite.maxSecretLength
            serverLength = Self.decodeHex(secret, into: UnsafeMutableRawBufferPointer(rebasing: storage[start..<start + TLS13CipherSuite.maxSecretLength]))
        }
    }

    private static let clientLabel = Array("CLIENT_TRAFFIC_SECRET_0 ".utf8)
    private static let serverLabel = Array("SERVER_TRAFFIC_SECRET_0 ".utf8)

    /// The hex text after `label` and the client random, or nil when the line has another label.
    static func secret(in line: UnsafeBufferPointer<UInt8>, label: [UInt8]) -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard line.count > label.count, line.starts(with: label) else { return nil }
        let rest = line[label.count...]
        guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        return line[(space + 1)...]
    }

    /// Decodes lowercase or uppercase hex into `out`; returns the byte count, 0 when the text is
    /// not hex or does not fit.
    static func decodeHex(_ text: Slice<UnsafeBufferPointer<UInt8>>, into out: UnsafeMutableRawBufferPointer) -> Int {
        guard text.count % 2 == 0, text.count / 2 <= out.count else { return 0 }
        var index = text.startIndex
        var written = 0
        while index < text.endIndex {
            guard let high = ByteEncoding.nibble(text[index]), let low = ByteEncoding.nibble(text[index + 1]) else { return 0 }
            out[written] = high << 4 | low
            written += 1
            index += 2
        }
        return written
    }


    // MARK: Attaching to an SSL

    /// The `SSL` ex_data slot holding the capture (unretained: the stream owns both and frees
    /// the `SSL` first).
    static let exDataIndex: Int32 = CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL, 0, nil, nil, nil, nil)

    /// Installs the key-log callback on a server context (every `SSL` made from it reports its
    /// secrets to the capture attached to it, if any).
    static func install(on context: OpaquePointer) {
        _ = exDataIndex
        SSL_CTX_set_keylog_callback(context) { ssl, line in
            guard let ssl, let line, let pointer = SSL_get_ex_data(ssl, TLS13SecretCapture.exDataIndex) else { return }
            Unmanaged<TLS13SecretCapture>.fromOpaque(pointer).takeUnretainedValue().take(line: line)
        }
    }

    /// Attaches this capture to `ssl` (before the handshake starts).
    func attach(to ssl: OpaquePointer) -> Bool {
        SSL_set_ex_data(ssl, Self.exDataIndex, Unmanaged.passUnretained(self).toOpaque()) == 1
    }
}
