// SPDX-License-Identifier: MIT

/// The built-in comparison rules: what the service chooses itself in each endpoint's answers
/// (docs/recordings.md, "Default rules"; `verify --print-default-rules` prints them). A recording's
/// own `rules` add to these, or replace them with `replace_defaults`.
public enum DefaultRules {
    /// Rules of every endpoint: timetokens of messages and actions, App Context eTags and update
    /// times, presence event times.
    public static let common = ComparisonRules(
        formatOnly: ["$..updated", "$..timestamp", "$..precise_timestamp", "$..pn_timestamp", "$..pn_precise_timestamp", "$..created"],
        learn: ["$..timetoken", "$..actionTimetoken", "$..messageTimetoken", "$..eTag"])

    /// Rules by endpoint name, over ``common``.
    public static let byEndpoint: [String: ComparisonRules] = [
        "time": ComparisonRules(learn: ["$[0]"]),
        "publish": ComparisonRules(learn: ["$[2]"]),
        "signal": ComparisonRules(learn: ["$[2]"]),
        "publish-file": ComparisonRules(learn: ["$[2]"]),
        // v2 (`{"t":…,"m":[…]}`) and the legacy v1 array (`[[…],"<tt>",…]`).
        "subscribe": ComparisonRules(formatOnly: ["$.t.r", "$.m[*].a", "$.m[*].p.r"], learn: ["$.t.t", "$.m[*].p.t", "$[1]"]),
        "history": ComparisonRules(learn: ["$[1]", "$[2]"]),
        "fetch-messages-with-actions": ComparisonRules(formatOnly: ["$.more.url"], learn: ["$.more.start"]),
        "message-counts": ComparisonRules(formatOnly: ["$.more.*.url"]),
        "get-message-actions": ComparisonRules(formatOnly: ["$.more.url"], learn: ["$.more.start", "$.more.end"]),
        "grant-token": ComparisonRules(learn: ["$.data.token"]),
        "audit": ComparisonRules(formatOnly: ["$..ttl"]),
        "objects": ComparisonRules(learn: ["$.next", "$.prev"]),
        "generate-upload-url": ComparisonRules(
            formatOnly: ["$.file_upload_request.url", "$.file_upload_request.expiration_date", "$.file_upload_request.form_fields[*].value"],
            learn: ["$.data.id"]),
        "list-files": ComparisonRules(learn: ["$.data[*].id", "$.next"]),
        "here-now": ComparisonRules(unordered: ["$.uuids", "$.payload.channels.*.uuids"]),
        "global-here-now": ComparisonRules(unordered: ["$.payload.channels.*.uuids"]),
        "where-now": ComparisonRules(unordered: ["$.payload.channels"]),
        "channel-group-list": ComparisonRules(unordered: ["$.payload.channels"]),
    ]

    /// The defaults of `endpoint`.
    public static func rules(for endpoint: String) -> ComparisonRules {
        common.merged(with: byEndpoint[endpoint])
    }
}
