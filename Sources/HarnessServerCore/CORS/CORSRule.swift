// SPDX-License-Identifier: MIT

/// The cross-origin header set of one service: which requests it covers (a path prefix, and
/// optionally one method) and the fields its answers carry. Data, not code: a module lists its
/// services' rules in a ``CORSPolicy``.
public struct CORSRule: Sendable, Hashable {
    /// The raw request path starts with this (e.g. `/v2/presence/`).
    public var pathPrefix: String
    /// Only requests with this method (upper case); `nil` = any method.
    public var method: String?
    /// `Access-Control-Allow-Methods` of the service's answers; `nil` = the field is not sent.
    public var allowMethods: String?
    /// `Access-Control-Allow-Credentials: true` on the service's answers.
    public var allowCredentials: Bool
    /// `Access-Control-Expose-Headers` of the service's answers; `nil` = not sent.
    public var exposeHeaders: String?
    /// `Access-Control-Allow-Headers` of the service's answers (not only of preflights); `nil` = not sent.
    public var allowHeaders: String?
    /// `Cache-Control` of the service's answers when the handler set none; `nil` = not sent.
    public var cacheControl: String?
    /// The methods a preflight for this service admits (`Access-Control-Allow-Methods` of the
    /// preflight answer, which always admits the requested method as well).
    public var preflightMethods: String

    public init(
        pathPrefix: String, method: String? = nil, allowMethods: String? = nil, allowCredentials: Bool = false,
        exposeHeaders: String? = nil, allowHeaders: String? = nil, cacheControl: String? = nil,
        preflightMethods: String = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
    ) {
        self.pathPrefix = pathPrefix
        self.method = method
        self.allowMethods = allowMethods
        self.allowCredentials = allowCredentials
        self.exposeHeaders = exposeHeaders
        self.allowHeaders = allowHeaders
        self.cacheControl = cacheControl
        self.preflightMethods = preflightMethods
    }

    /// The fields of an answer under this rule, in order: `Access-Control-Allow-Origin: *` first;
    /// `Cache-Control` only when `withCacheControl` (the handler set none of its own).
    /// `preflight`: the fields of a preflight answer, which sets the methods and headers lists itself.
    public func fields(withCacheControl: Bool, preflight: Bool = false) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("Access-Control-Allow-Origin", "*")]
        if !preflight, let allowMethods { fields.append(("Access-Control-Allow-Methods", allowMethods)) }
        if !preflight, let allowHeaders { fields.append(("Access-Control-Allow-Headers", allowHeaders)) }
        if allowCredentials { fields.append(("Access-Control-Allow-Credentials", "true")) }
        if let exposeHeaders { fields.append(("Access-Control-Expose-Headers", exposeHeaders)) }
        if withCacheControl, let cacheControl { fields.append(("Cache-Control", cacheControl)) }
        return fields
    }

    /// `fields(withCacheControl:)` as the bytes of header lines (`Name: value\r\n` each).
    func encodedFields(withCacheControl: Bool, preflight: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields(withCacheControl: withCacheControl, preflight: preflight) {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        return bytes
    }
}
