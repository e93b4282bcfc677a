// SPDX-License-Identifier: MIT

/// The cross-origin fields of every PubNub service, as the live service sends them (counted
/// over recorded answers: /work spec `http-headers.md`, docs/endpoints.md "CORS"), as one table
/// keyed by path prefix. The transport appends the fields of the first matching rule (and
/// `Date`) to every answer: successes, errors, 204s, the file download's 307 and fault answers.
///
/// Recorded: the methods, credentials, exposed headers and `Cache-Control` of each service.
/// INFERRED: the preflight answers (no `OPTIONS` exchange was recorded), the fields of the mock's
/// own file storage (S3 answers with its bucket's rules there), of message actions and of
/// `/__admin/` (not a live service). Rules are tried in order: the most frequent first.
package enum PubNubCORS {
    /// `Cache-Control` of the REST services' JSON answers.
    static let noCache = "no-cache"
    /// `Cache-Control` of Access Manager answers.
    static let noStore = "no-cache, no-store, must-revalidate"
    /// The methods every PubNub preflight admits (INFERRED), plus the requested one.
    static let preflightMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"

    /// The table (see the type's notes).
    package static let rules: [CORSRule] = [
        CORSRule(pathPrefix: "/publish/", method: "POST", allowMethods: "POST", cacheControl: noCache),
        CORSRule(pathPrefix: "/publish/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(pathPrefix: "/v2/subscribe/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(pathPrefix: "/signal/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(pathPrefix: "/time/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(pathPrefix: "/subscribe/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(pathPrefix: "/v2/presence/", allowMethods: "OPTIONS, GET, POST", cacheControl: noCache),
        CORSRule(
            pathPrefix: "/v3/history-with-actions/", allowMethods: "GET, POST, DELETE, OPTIONS", allowCredentials: true,
            cacheControl: noCache),
        CORSRule(pathPrefix: "/v3/history/", allowMethods: "GET, POST, DELETE, OPTIONS", cacheControl: noCache),
        CORSRule(pathPrefix: "/v2/history/", allowMethods: "GET, POST, DELETE, OPTIONS", cacheControl: noCache),
        CORSRule(pathPrefix: "/v2/objects/", allowCredentials: true, exposeHeaders: "*", cacheControl: noCache),
        CORSRule(pathPrefix: "/v1/channel-registration/", allowMethods: "GET", cacheControl: noCache),
        CORSRule(
            pathPrefix: "/v1/push/", allowMethods: "GET, POST, DELETE, OPTIONS", allowCredentials: true, exposeHeaders: "*",
            cacheControl: noCache),
        CORSRule(
            pathPrefix: "/v2/push/", allowMethods: "GET, POST, DELETE, OPTIONS", allowCredentials: true, exposeHeaders: "*",
            cacheControl: noCache),
        // generate-upload-url (POST): no methods recorded; list, delete and the download: GET.
        CORSRule(pathPrefix: "/v1/files/", method: "POST", allowCredentials: true, exposeHeaders: "*", cacheControl: noCache),
        CORSRule(pathPrefix: "/v1/files/", allowMethods: "GET", allowCredentials: true, exposeHeaders: "*", cacheControl: noCache),
        // The mock's own storage (S3 on the live service; INFERRED): uploads by POST, downloads by GET.
        CORSRule(pathPrefix: FileRoutes.storagePrefix, allowMethods: "GET, HEAD, POST, PUT", exposeHeaders: "*"),
        CORSRule(
            pathPrefix: "/v2/auth/", allowMethods: "GET", allowHeaders: "Origin, X-Requested-With, Content-Type, Accept",
            cacheControl: noStore),
        CORSRule(
            pathPrefix: "/v1/auth/", allowMethods: "GET", allowHeaders: "Origin, X-Requested-With, Content-Type, Accept",
            cacheControl: noStore),
        CORSRule(pathPrefix: "/v3/pam/", method: "DELETE", allowMethods: "DELETE", allowCredentials: true, exposeHeaders: "*", cacheControl: noStore),
        CORSRule(pathPrefix: "/v3/pam/", allowCredentials: true, exposeHeaders: "*", cacheControl: noStore),
        CORSRule(pathPrefix: "/v1/message-actions/", allowMethods: preflightMethods, exposeHeaders: "*", cacheControl: noCache),
        // The control API and the extensions' routes (Pusher's auth endpoint): INFERRED, not a live service.
        CORSRule(pathPrefix: "/__admin", allowMethods: preflightMethods, exposeHeaders: "*", cacheControl: noCache),
    ]

    /// Every other path (unknown paths answered 404, the extensions' own prefixes).
    package static let fallback = CORSRule(pathPrefix: "", allowMethods: preflightMethods, exposeHeaders: "*")

    /// The policy of a mock PubNub server (preflight answers cached a day by browsers).
    package static let policy = CORSPolicy(rules: rules, fallback: fallback, maxAgeSeconds: 86_400)
}
