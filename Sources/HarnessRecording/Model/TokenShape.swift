// SPDX-License-Identifier: MIT
import HarnessPrimitives
import PubNubToken

/// The key paths of an Access Manager v3 token's CBOR map, without values: what a recording keeps
/// of a token it redacts, and what `verify` compares a replayed token by.
enum TokenShape {
    /// The shape of `text` (`v`, `t`, `ttl`, `res`, `res.chan`, `res.chan.<name>`, …, `sig`), or
    /// nil when it is not a token. `rename` maps resource names (a replay's fresh names back).
    static func of(_ text: String, rename: (String) -> String = { $0 }) -> [String]? {
        guard text.utf8.count >= 20, (try? AccessToken.parse(text)) != nil else { return nil }
        guard let raw = try? bytes(text), let item = try? CBORCodec.decode(raw), let top = item.textKeyedEntries else { return nil }
        var paths: [String] = []
        for (key, value) in top {
            paths.append(key)
            guard key == "res" || key == "pat" || key == "meta", let kinds = value.textKeyedEntries else { continue }
            for (kind, members) in kinds {
                paths.append(key + "." + kind)
                for (name, _) in members.textKeyedEntries ?? [] { paths.append(key + "." + kind + "." + rename(name)) }
            }
        }
        return paths.sorted()
    }

    /// The token's bytes (base64url or base64, padding optional, `%3D` read as `=`).
    private static func bytes(_ text: String) throws -> [UInt8] {
        var normalized = text.replacingOccurrences(of: "%3D", with: "=").replacingOccurrences(of: "%3d", with: "=")
            .map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        while normalized.last == "=" { normalized.removeLast() }
        normalized += String(repeating: "=", count: (4 - normalized.count % 4) % 4)
        return try ByteEncoding.bytes(fromBase64: String(normalized))
    }
}
