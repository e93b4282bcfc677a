// SPDX-License-Identifier: MIT

/// A pass over CBOR item headers before libcbor sees the bytes: every length or count must fit in
/// what remains and nesting must stay within `CBORCodec.maxDepth`, so a hostile header claiming
/// billions of entries is refused before libcbor allocates room for them. Pure, no allocation per item.
enum CBORPrecheck {
    static func isPlausible(_ bytes: [UInt8]) -> Bool {
        var index = 0
        /// Items still expected at each open array/map level (maps count keys and values).
        var pending: [Int] = [1]
        while let last = pending.last {
            if last == 0 {
                pending.removeLast()
                continue
            }
            pending[pending.count - 1] -= 1
            guard index < bytes.count else { return false }
            let initial = bytes[index]
            index += 1
            let major = initial >> 5, info = initial & 0x1F
            var argument: UInt64
            switch info {
            case 0..<24:
                argument = UInt64(info)
            case 24, 25, 26, 27:
                let size = 1 << Int(info - 24)
                guard index + size <= bytes.count else { return false }
                argument = 0
                for byte in bytes[index..<index + size] { argument = argument << 8 | UInt64(byte) }
                index += size
            default:
                return false  // indefinite lengths and reserved values are not in tokens
            }
            let remaining = UInt64(bytes.count - index)
            switch major {
            case 2, 3:
                guard argument <= remaining else { return false }
                index += Int(argument)
            case 4, 5:
                // Each entry needs at least one byte (a map entry two), so a count above what remains is a lie.
                guard argument <= remaining, pending.count <= CBORCodec.maxDepth else { return false }
                pending.append(Int(major == 5 ? argument * 2 : argument))
            case 6:
                guard pending.count <= CBORCodec.maxDepth else { return false }
                pending.append(1)
            default:
                break
            }
        }
        // Bytes after the first item are `CBORCodec.decode`'s to report (`trailingBytes`).
        return true
    }
}
