// SPDX-License-Identifier: MIT

/// The error responses of the service, byte for byte (spec §4.5, §5.8, §6.6, §6.8, §7, §8, §9, §10).
enum PubNubErrors {
    /// `[0,"<text>","<tt>"]` — publish and signal refusals (recorded with the quoted charset, 2016-2020).
    static func publishRefusal(_ text: String, timetoken: UInt64) -> HTTPResponse {
        .pubNub(400, "[0," + PubNubJSON.quote(text) + ",\"" + String(timetoken) + "\"]")
    }

    /// How an Access Manager 403 is laid out: compact (subscribe, presence, as recorded 2020-2022)
    /// or with spaces after `:` and `,` (publish, as recorded 2024).
    enum ForbiddenLayout {
        case compact, spaced
    }

    /// 403 Access Manager denial naming the denied channels and groups (spec §9.1), unquoted
    /// charset and a trailing line feed as recorded. Groups carry their namespace prefix, `:` for
    /// the root namespace (recorded `":test-channel-group1"`). An empty payload is left out (a
    /// subkey-level denial such as global here now; UNVERIFIED).
    static func forbidden(channels: [String], groups: [String], layout: ForbiddenLayout = .compact) -> HTTPResponse {
        let spaced = layout == .spaced
        let colon = spaced ? ": " : ":", comma = spaced ? ", " : ","
        let names = groups.map { $0.contains(":") ? $0 : ":" + $0 }
        var payload: [String] = []
        if !channels.isEmpty { payload.append("\"channels\"" + colon + PubNubJSON.stringArray(channels, separator: comma)) }
        if !names.isEmpty { payload.append("\"channel-groups\"" + colon + PubNubJSON.stringArray(names, separator: comma)) }
        var body = "{\"message\"" + colon + "\"Forbidden\"" + comma
        if !payload.isEmpty { body += "\"payload\"" + colon + "{" + payload.joined(separator: comma) + "}" + comma }
        body += "\"error\"" + colon + "true" + comma + "\"service\"" + colon + "\"Access Manager\"" + comma
            + "\"status\"" + colon + "403}\n"
        return .pubNub(403, body, .unquoted)
    }

    /// An Access Manager error without payload, e.g. a signature mismatch (UNVERIFIED wording),
    /// or the recorded 400 `Auth-only grants are reserved for future use`; unquoted charset and a
    /// trailing line feed, as every recorded Access Manager error.
    static func accessManager(_ status: Int, _ message: String) -> HTTPResponse {
        .pubNub(status, "{\"message\":" + PubNubJSON.quote(message) + ",\"error\":true,\"service\":\"Access Manager\",\"status\":"
            + String(status) + "}\n", .unquoted)
    }

    /// The generic 400 for requests that cannot be parsed (bad escapes, bad timetokens).
    /// UNVERIFIED: the recorded body names "Access Manager"; the Balancer, which parses URLs, is more plausible.
    static func couldNotParse() -> HTTPResponse {
        .pubNub(400, "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}")
    }

    /// 404 for unknown paths, in the Presence service's recorded style (UNVERIFIED for other paths).
    static func notFound(path: String) -> HTTPResponse {
        .pubNub(404, "{\"message\": \"Not found: '" + path + "'\",\"error\": 1,\"service\": \"Presence\"}")
    }

    /// The channel-registry 400 for reserved characters in channel or group names.
    static func reservedCharacter() -> HTTPResponse {
        .pubNub(400, "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}")
    }

    /// A Presence-service 400 such as `No state specified.`.
    static func presence(_ message: String) -> HTTPResponse {
        .pubNub(400, "{\"status\": 400, \"error\": 1, \"message\": " + PubNubJSON.quote(message) + ", \"service\": \"Presence\"}")
    }

    /// A message-actions service error, `{"status": N, "error": {"message": …, "source": "actions"}}`
    /// (UNVERIFIED: the shape the objects service uses, spec §9.1; no actions error is recorded).
    static func messageActions(_ status: Int, _ message: String) -> HTTPResponse {
        .pubNub(status, "{\"status\": " + String(status) + ", \"error\": {\"message\": " + PubNubJSON.quote(message)
            + ", \"source\": \"actions\"}}")
    }

    /// The history (v3) 400 `Invalid Arguments`.
    static func invalidHistoryArguments() -> HTTPResponse {
        .pubNub(400, "{\"status\": 400, \"error\": true, \"error_message\": \"Invalid Arguments\", \"channels\": {}}")
    }
}

/// Channel and group names: PubNub reserves `,` `/` `\` `*` and control characters (decision:
/// `:` and `.` stay allowed because namespaced groups and wildcard prefixes use them).
enum ChannelNames {
    static func isValid(_ name: String) -> Bool {
        // On the UTF-8 bytes: every scalar tested is ASCII, and an ASCII byte is always its own scalar.
        // Read in place (no copy of the string); a string without contiguous UTF-8 is copied.
        func refused(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.contains { byte in
                byte == UInt8(ascii: ",") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "*")
                    || byte < 0x20 || byte == 0x7F
            }
        }
        guard !name.isEmpty else { return false }
        if let refusedInPlace = name.utf8.withContiguousStorageIfAvailable(refused) { return !refusedInPlace }
        var copy = name
        return !copy.withUTF8(refused)
    }

    static let presenceSuffix = "-pnpres"

    static func isPresence(_ name: String) -> Bool { name.hasSuffix(presenceSuffix) }

    /// `ch-pnpres` → `ch`; other names unchanged.
    static func base(_ name: String) -> String {
        isPresence(name) ? String(name.dropLast(presenceSuffix.count)) : name
    }
}
