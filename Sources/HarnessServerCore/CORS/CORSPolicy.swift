// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Cross-origin resource sharing for every answer of a host (pure: a request in, fields or a
/// preflight answer out).
///
/// The first rule whose path prefix (and method, if it names one) fits a request decides the
/// fields of its answer; `fallback` covers every other path. The transport appends the chosen
/// rule's fields (encoded once, here) and a `Date` to each well-framed answer, so the hot path
/// pays a prefix match and no string work. Preflights (`OPTIONS`) are answered by ``preflight(_:)``.
///
/// The preflight answer is INFERRED: the live services' preflights were never recorded; the
/// answer is what a browser needs (a 2xx admitting the requested method and headers).
public struct CORSPolicy: Sendable, Hashable {
    /// The rules, tried in order.
    public let rules: [CORSRule]
    /// The rule of paths no rule covers.
    public let fallback: CORSRule
    /// `Access-Control-Max-Age` of preflight answers, in seconds.
    public let maxAgeSeconds: Int
    /// Each rule's prefix as bytes (index-aligned with `rules`), then the fallback's (empty).
    private let prefixes: [[UInt8]]
    /// The encoded fields of rule `i` (`fallback` at `rules.count`; n = `rules.count + 1`):
    /// `[i]` with `Cache-Control`, `[n + i]` without, `[2n + i]` of a preflight answer (without
    /// the methods and headers lists and `Cache-Control`, which the preflight answer sets itself).
    private let blocks: [[UInt8]]

    /// - Parameters:
    ///   - rules: tried in order; put the most frequent services first (publish, subscribe).
    ///   - fallback: the rule of every other path (its `pathPrefix` is not used).
    ///   - maxAgeSeconds: how long a browser may cache a preflight answer.
    public init(rules: [CORSRule], fallback: CORSRule, maxAgeSeconds: Int = 86_400) {
        self.rules = rules
        self.fallback = fallback
        self.maxAgeSeconds = maxAgeSeconds
        prefixes = rules.map { Array($0.pathPrefix.utf8) }
        let all = rules + [fallback]
        blocks = all.map { $0.encodedFields(withCacheControl: true) } + all.map { $0.encodedFields(withCacheControl: false) }
            + all.map { $0.encodedFields(withCacheControl: false, preflight: true) }
    }

    /// The index of the rule covering `request` (`rules.count` for the fallback).
    public func ruleIndex(for request: HTTPRequest) -> Int {
        let method = request.method
        return request.withRawPathBytes { path -> Int in
            prefixes.withUnsafeBufferPointer { prefixes -> Int in
                for index in prefixes.indices where Self.hasPrefix(path, prefixes[index]) {
                    if let wanted = rules[index].method, wanted != method { continue }
                    return index
                }
                return prefixes.count
            }
        }
    }

    /// What the transport appends to the answer of `request`: its rule's index, or (an `OPTIONS`
    /// request) `rules.count + 1` plus it, for the fields of a preflight answer.
    public func decoration(for request: HTTPRequest) -> Int {
        let index = ruleIndex(for: request)
        return Self.isPreflight(request) ? rules.count &+ 1 &+ index : index
    }

    /// The rule at `index` (as ``ruleIndex(for:)`` returns).
    public func rule(at index: Int) -> CORSRule { index < rules.count ? rules[index] : fallback }

    /// The header lines of `decoration` (as ``decoration(for:)`` returns), encoded once:
    /// `Cache-Control` included only when the handler set none (`withCacheControl`).
    func encodedFields(rule decoration: Int, withCacheControl: Bool) -> [UInt8] {
        let count = rules.count &+ 1
        if decoration >= count { return blocks[count &* 2 &+ (decoration &- count)] }
        return blocks[withCacheControl ? decoration : count &+ decoration]
    }

    /// Whether `request` is a preflight this policy answers: any `OPTIONS` request (a browser's
    /// preflight names `Access-Control-Request-Method`; one without is answered alike).
    public static func isPreflight(_ request: HTTPRequest) -> Bool { request.method == "OPTIONS" }

    /// The answer to a preflight (INFERRED, see the type's notes): 204 with the covering rule's
    /// methods plus the requested one, the requested headers echoed in
    /// `Access-Control-Allow-Headers`, and `Access-Control-Max-Age`. The transport adds the rule's
    /// fields (`Access-Control-Allow-Origin: *`…) and `Date` as to every answer.
    public func preflight(_ request: HTTPRequest) -> HTTPResponse {
        preflight(request, omitting: [])
    }

    /// What a preflight answer may leave out (the failing preflights of a fault).
    public enum Omission: Sendable, Hashable {
        /// The requested method is not admitted (only the service's own list).
        case requestedMethod
        /// The requested headers are not echoed (no `Access-Control-Allow-Headers`).
        case requestedHeaders
    }

    /// ``preflight(_:)`` without what `omitting` names.
    public func preflight(_ request: HTTPRequest, omitting: Set<Omission>) -> HTTPResponse {
        let rule = rule(at: ruleIndex(for: request))
        var methods = rule.preflightMethods
        if let asked = request.headers["Access-Control-Request-Method"]?.trimmingHTTPWhitespace(), Self.isToken(asked) {
            if omitting.contains(.requestedMethod) {
                methods = methods.split(separator: ",").map { $0.trimmingHTTPWhitespace() }
                    .filter { !$0.caseInsensitiveEquals(asked) }.joined(separator: ", ")
            } else if !Self.listContains(methods, asked) {
                methods += ", " + asked
            }
        }
        var headers = HTTPHeaders([("Access-Control-Allow-Methods", methods)])
        if !omitting.contains(.requestedHeaders), let asked = request.headers["Access-Control-Request-Headers"] {
            let names = asked.split(separator: ",").map { $0.trimmingHTTPWhitespace() }.filter { Self.isToken($0) }
            if !names.isEmpty { headers.add("Access-Control-Allow-Headers", names.joined(separator: ", ")) }
        }
        headers.add("Access-Control-Max-Age", String(maxAgeSeconds))
        headers.add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        return HTTPResponse(status: 204, headers: headers)
    }

    /// Whether `path` starts with `prefix`.
    private static func hasPrefix(_ path: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard prefix.count <= path.count else { return false }
        return prefix.withUnsafeBufferPointer { prefix in
            guard let wanted = prefix.baseAddress, let given = path.baseAddress else { return true }
            return memcmp(given, wanted, prefix.count) == 0
        }
    }

    /// Whether the comma-separated `list` names `item` (case-insensitive).
    private static func listContains(_ list: String, _ item: String) -> Bool {
        list.split(separator: ",").contains { $0.trimmingHTTPWhitespace().caseInsensitiveEquals(item) }
    }

    /// Whether `text` is an RFC 9110 token (what a method or a field name is): nothing else is echoed.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
