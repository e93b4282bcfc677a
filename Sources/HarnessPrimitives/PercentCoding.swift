// SPDX-License-Identifier: MIT

/// Percent-encoding and -decoding (RFC 3986 §2.1): the one implementation the client, the server
/// and the signing strings share. Decoding refuses malformed input instead of guessing.
package enum PercentCoding {
    /// Which bytes `encode` leaves as they are; every other byte becomes `%XX` (upper-case hex).
    package struct Kept: Sendable {
        /// Whether `~` is left (RFC 3986 unreserved) or escaped (PubNub's signing strings).
        package var tilde: Bool
        /// Further bytes left as they are (e.g. `,` in a list-valued query parameter).
        package var extra: Set<UInt8>

        package init(tilde: Bool = true, extra: Set<UInt8> = []) {
            self.tilde = tilde
            self.extra = extra
        }

        /// RFC 3986's unreserved set: `A-Z a-z 0-9 - . _ ~`.
        package static let unreserved = Kept()
        /// The unreserved set without `~`: what PubNub's v2 signature encodes with.
        package static let unreservedWithoutTilde = Kept(tilde: false)

        func keeps(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                true
            case UInt8(ascii: "~"): tilde || extra.contains(byte)
            default: !extra.isEmpty && extra.contains(byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte of `text`'s UTF-8 that `kept` does not keep.
    package static func encode(_ text: String, keeping kept: Kept = .unreserved) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if kept.keeps(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`); `nil` for a bad escape or non-UTF-8 result.
    package static func decode(_ text: String, plusAsSpace: Bool) -> String? {
        var copy = text
        let decoded = copy.withUTF8 { input -> String?? in
            if !input.contains(UInt8(ascii: "%")) && !(plusAsSpace && input.contains(UInt8(ascii: "+"))) {
                return .none  // nothing to decode: the text itself
            }
            return .some(decode(bytes: input, plusAsSpace: plusAsSpace))
        }
        return decoded ?? text
    }

    /// Percent-decodes `input` (and `+` as a space when `plusAsSpace`); `nil` for a malformed
    /// escape or a result that is not UTF-8.
    package static func decode(bytes input: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        // Decoded into scratch memory (on the stack for the usual short pieces); an all-ASCII
        // result is valid UTF-8 as it stands and skips the validation pass.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, input.count)) { output -> String? in
            var count = 0
            var bits: UInt8 = 0
            var index = 0
            while index < input.count {
                var byte = input[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < input.count,
                        let high = ByteEncoding.nibble(input[index + 1]), let low = ByteEncoding.nibble(input[index + 2])
                    else { return nil }
                    byte = high << 4 | low
                    index += 3
                } else {
                    if plusAsSpace && byte == UInt8(ascii: "+") { byte = UInt8(ascii: " ") }
                    index += 1
                }
                output[count] = byte
                bits |= byte
                count += 1
            }
            let decoded = UnsafeBufferPointer(rebasing: output[..<count])
            return bits < 0x80 ? String(decoding: decoded, as: UTF8.self) : String(validating: decoded, as: UTF8.self)
        }
    }
}
