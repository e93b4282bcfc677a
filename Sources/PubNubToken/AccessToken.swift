// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubCrypto

/// Why a text is not an Access Manager v3 token.
public enum AccessTokenError: Error, Sendable, Hashable {
    /// Not base64 (URL or standard alphabet, padded or not).
    case notBase64
    /// The bytes are not one CBOR item.
    case notCBOR(CBORError)
    /// A CBOR item, but not a token map: `field` is missing or has the wrong type.
    case invalidField(String)
}

/// An Access Manager v3 token as the live service issues it: base64url (with `=` padding) of a
/// CBOR map with byte-string keys `v, t, ttl, res, pat, meta, [uuid], sig` in that order.
public struct AccessToken: Sendable, Hashable {
    /// Always 2.
    public var version: Int
    /// Issue time, Unix seconds.
    public var timestamp: Int64
    /// Lifetime in minutes.
    public var ttl: Int
    public var resources: TokenGrants
    public var patterns: TokenGrants
    /// The grant's `meta` (a map with text keys), kept as CBOR so re-encoding is exact.
    public var meta: CBORValue
    /// The authorized uuid, when the grant named one.
    public var authorizedUUID: String?
    /// The issuer's signature (32 bytes from this service; clients never check it).
    public var signature: [UInt8]

    public init(
        version: Int = 2, timestamp: Int64, ttl: Int, resources: TokenGrants, patterns: TokenGrants,
        meta: CBORValue = .map([]), authorizedUUID: String? = nil, signature: [UInt8] = []
    ) {
        self.version = version
        self.timestamp = timestamp
        self.ttl = ttl
        self.resources = resources
        self.patterns = patterns
        self.meta = meta
        self.authorizedUUID = authorizedUUID
        self.signature = signature
    }

    /// Unix second at which the token lapses (`t + ttl * 60`).
    public var expiresAt: Int64 { timestamp + Int64(ttl) * 60 }

    /// `meta` as JSON.
    public var metaJSON: JSONValue { CBORJSON.json(meta) }

    // MARK: Encoding

    /// The CBOR map without `sig`: the bytes the issuer signs.
    public var unsignedCBOR: [UInt8] { CBORCodec.encode(.map(entries(includingSignature: false))) }

    /// The token text: base64url of the CBOR map, `=` padded like the service's current tokens.
    public var text: String {
        let raw = CBORCodec.encode(.map(entries(includingSignature: true)))
        return String(ByteEncoding.base64(raw).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    private func entries(includingSignature: Bool) -> [CBORMapEntry] {
        func key(_ name: String) -> CBORValue { .bytes(Array(name.utf8)) }
        func grants(_ side: TokenGrants) -> CBORValue {
            .map(TokenResourceKind.allCases.map { kind in
                CBORMapEntry(key(kind.rawValue), .map(side[kind].map { CBORMapEntry(.text($0.name), .int(Int64($0.mask))) }))
            })
        }
        var out = [
            CBORMapEntry(key("v"), .int(Int64(version))),
            CBORMapEntry(key("t"), .int(timestamp)),
            CBORMapEntry(key("ttl"), .int(Int64(ttl))),
            CBORMapEntry(key("res"), grants(resources)),
            CBORMapEntry(key("pat"), grants(patterns)),
            CBORMapEntry(key("meta"), meta),
        ]
        if let authorizedUUID { out.append(CBORMapEntry(key("uuid"), .text(authorizedUUID))) }
        if includingSignature { out.append(CBORMapEntry(key("sig"), .bytes(signature))) }
        return out
    }

    // MARK: Parsing

    /// Parses a token text as clients do: URL or standard base64 alphabet, `=` padding (or `%3D`)
    /// optional; keys as byte or text strings.
    public static func parse(_ text: String) throws(AccessTokenError) -> AccessToken {
        var normalized = text.replacingPercentPadding().map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        while normalized.last == "=" { normalized.removeLast() }
        normalized += String(repeating: "=", count: (4 - normalized.count % 4) % 4)
        guard !normalized.isEmpty, let raw = try? ByteEncoding.bytes(fromBase64: String(normalized)) else {
            throw .notBase64
        }
        let item: CBORValue
        do { item = try CBORCodec.decode(raw) } catch { throw .notCBOR(error) }
        guard let fields = item.textKeyedEntries else { throw .invalidField("map") }
        func field(_ name: String) -> CBORValue? { fields.first { $0.key == name }?.value }
        guard let version = field("v")?.int64Value else { throw .invalidField("v") }
        guard let timestamp = field("t")?.int64Value else { throw .invalidField("t") }
        guard let ttl = field("ttl")?.int64Value else { throw .invalidField("ttl") }
        let resources = try grants(field("res"), name: "res")
        let patterns = try grants(field("pat"), name: "pat")
        let meta = field("meta") ?? .map([])
        var uuid: String?
        if let value = field("uuid") {
            guard case .text(let name) = value else { throw .invalidField("uuid") }
            uuid = name
        }
        guard case .bytes(let signature)? = field("sig") else { throw .invalidField("sig") }
        return AccessToken(
            version: Int(clamping: version), timestamp: timestamp, ttl: Int(clamping: ttl), resources: resources,
            patterns: patterns, meta: meta, authorizedUUID: uuid, signature: signature)
    }

    private static func grants(_ value: CBORValue?, name: String) throws(AccessTokenError) -> TokenGrants {
        guard let value, let kinds = value.textKeyedEntries else { throw .invalidField(name) }
        var out = TokenGrants()
        for (kindName, members) in kinds {
            guard let kind = TokenResourceKind(rawValue: kindName) else { continue }
            guard let list = members.textKeyedEntries else { throw .invalidField(name + "." + kindName) }
            for (resource, mask) in list {
                guard let bits = mask.int64Value else { throw .invalidField(name + "." + kindName + "." + resource) }
                out[kind].append(TokenGrantEntry(name: resource, mask: Int(clamping: bits)))
            }
        }
        return out
    }
}

extension String {
    /// `%3D` (a URL-encoded `=`) back to `=`.
    fileprivate func replacingPercentPadding() -> String {
        guard contains("%") else { return self }
        let bytes = Array(utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "3"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "d")
            {
                out.append(UInt8(ascii: "="))
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
