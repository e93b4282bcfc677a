// SPDX-License-Identifier: MIT

/// The error responses of the service, byte for byte (spec §4.5, §5.8, §6.6, §6.8, §7, §8, §9, §10).
enum PubNubErrors {
    /// `[0,"<text>","<tt>"]` — publish and signal refusals.
    static func publishRefusal(_ text: String, timetoken: UInt64) -> HTTPResponse {
        .pubNub(400, "[0," + JSONText.quote(text) + ",\"" + String(timetoken) + "\"]")
    }

    /// 403 Access Manager denial naming the denied channels and groups (spec §9.1). An empty
    /// payload is left out (a subkey-level denial such as global here now).
    static func forbidden(channels: [String], groups: [String], trailingNewline: Bool = false) -> HTTPResponse {
        var payload: [String] = []
        if !channels.isEmpty { payload.append("\"channels\":" + JSONText.stringArray(channels, separator: ",")) }
        if !groups.isEmpty { payload.append("\"channel-groups\":" + JSONText.stringArray(groups, separator: ",")) }
        var body = "{\"message\":\"Forbidden\","
        if !payload.isEmpty { body += "\"payload\":{" + payload.joined(separator: ",") + "}," }
        body += "\"error\":true,\"service\":\"Access Manager\",\"status\":403}"
        if trailingNewline { body += "\n" }
        return .pubNub(403, body)
    }

    /// An Access Manager error without payload, e.g. a signature mismatch (UNVERIFIED wording).
    static func accessManager(_ status: Int, _ message: String) -> HTTPResponse {
        .pubNub(status, "{\"message\":" + JSONText.quote(message) + ",\"error\":true,\"service\":\"Access Manager\",\"status\":" + String(status) + "}")
    }

    /// The generic 400 for requests that cannot be parsed (bad escapes, bad timetokens).
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
        .pubNub(400, "{\"status\": 400, \"error\": 1, \"message\": " + JSONText.quote(message) + ", \"service\": \"Presence\"}")
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
        !name.isEmpty && !name.unicodeScalars.contains { scalar in
            scalar == "," || scalar == "/" || scalar == "\\" || scalar == "*" || scalar.value < 0x20 || scalar.value == 0x7F
        }
    }

    static let presenceSuffix = "-pnpres"

    static func isPresence(_ name: String) -> Bool { name.hasSuffix(presenceSuffix) }

    /// `ch-pnpres` → `ch`; other names unchanged.
    static func base(_ name: String) -> String {
        isPresence(name) ? String(name.dropLast(presenceSuffix.count)) : name
    }
}
