// SPDX-License-Identifier: MIT

/// The CryptoModule header: `"PNED"`, version, 4-byte cryptor id, cryptor-data length, cryptor data.
///
/// The length is one byte when below 255, otherwise `0xFF` and two big-endian bytes (the majority encoding;
/// SDKs disagree for lengths of 255 and more, none of which a real cryptor uses).
public struct CryptorHeader: Sendable, Hashable {
    /// `"PNED"`.
    public static let sentinel: [UInt8] = Array("PNED".utf8)
    /// The only header version that exists.
    public static let currentVersion: UInt8 = 1
    /// The AES-CBC cryptor id, `"ACRH"`.
    public static let aesCBCCryptorID: [UInt8] = Array("ACRH".utf8)

    /// Header version (1).
    public var version: UInt8
    /// Four bytes naming the cryptor.
    public var cryptorID: [UInt8]
    /// Cryptor-specific data (for `ACRH`, the 16-byte IV).
    public var cryptorData: [UInt8]

    /// A header with the given fields.
    public init(version: UInt8 = CryptorHeader.currentVersion, cryptorID: [UInt8], cryptorData: [UInt8]) {
        self.version = version
        self.cryptorID = cryptorID
        self.cryptorData = cryptorData
    }

    /// The header bytes. `cryptorData` longer than 65535 bytes or an id other than 4 bytes is a caller error.
    public func encoded() -> [UInt8] {
        precondition(cryptorID.count == 4 && cryptorData.count <= 0xFFFF, "invalid cryptor header fields")
        var bytes = Self.sentinel + [version] + cryptorID
        if cryptorData.count < 255 {
            bytes.append(UInt8(cryptorData.count))
        } else {
            bytes += [0xFF, UInt8(cryptorData.count >> 8), UInt8(cryptorData.count & 0xFF)]
        }
        return bytes + cryptorData
    }

    /// Parses the header at the start of `data`.
    /// - Returns: `nil` when `data` does not start with `"PNED"` (headerless, legacy data); otherwise the header
    ///   and its length in bytes (where the ciphertext starts).
    /// - Throws: ``CryptoError/Kind/unknownVersion`` for a version other than 1,
    ///   ``CryptoError/Kind/truncatedHeader`` when the data ends inside the header or its cryptor data.
    public static func parse(_ data: [UInt8]) throws(CryptoError) -> (header: CryptorHeader, length: Int)? {
        var failure: CryptoError?
        let result = data.withUnsafeBufferPointer { buffer -> (header: CryptorHeader, length: Int)? in
            do throws(CryptoError) {
                guard let layout = try HeaderLayout.parse(buffer) else { return nil }
                let header = CryptorHeader(
                    version: buffer[4],
                    cryptorID: Array(buffer[5..<9]),
                    cryptorData: Array(buffer[layout.cryptorData])
                )
                return (header, layout.headerLength)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result
    }
}

/// Where the parts of a `PNED` header lie in a buffer (no copies; used on the decrypt path).
struct HeaderLayout {
    var isAESCBC: Bool
    var cryptorData: Range<Int>
    var headerLength: Int

    static func parse(_ data: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> HeaderLayout? {
        guard data.count >= 4, data[0] == 0x50, data[1] == 0x4E, data[2] == 0x45, data[3] == 0x44 else { return nil }
        guard data.count >= 5 else { throw CryptoError(.truncatedHeader, "PNED header ends before its version byte") }
        // Only version 1 exists; 0 is rejected too (python only rejects versions above 1).
        guard data[4] == CryptorHeader.currentVersion else {
            throw CryptoError(.unknownVersion, "PNED header version \(data[4]) is not supported (only 1)")
        }
        guard data.count >= 10 else {
            throw CryptoError(.truncatedHeader, "PNED header is \(data.count) bytes, shorter than the minimal 10")
        }
        var length = Int(data[9])
        var dataStart = 10
        if length == 0xFF {
            guard data.count >= 12 else {
                throw CryptoError(.truncatedHeader, "PNED header ends inside its 2-byte cryptor-data length")
            }
            length = Int(data[10]) << 8 | Int(data[11])
            dataStart = 12
        }
        guard data.count >= dataStart + length else {
            throw CryptoError(
                .truncatedHeader,
                "PNED header declares \(length) bytes of cryptor data but only \(data.count - dataStart) follow"
            )
        }
        let isAESCBC = data[5] == 0x41 && data[6] == 0x43 && data[7] == 0x52 && data[8] == 0x48
        return HeaderLayout(isAESCBC: isAESCBC, cryptorData: dataStart..<(dataStart + length), headerLength: dataStart + length)
    }
}
