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
///
/// A class of constants: the transport reads it per request and per answer, and passing one
/// reference costs one retain where a struct of arrays and strings would retain each of them.
public final class CORSPolicy: Sendable, Hashable {
    /// The rules, tried in order.
    public let rules: [CORSRule]
    /// The rule of paths no rule covers.
    public let fallback: CORSRule
    /// `Access-Control-Max-Age` of preflight answers, in seconds.
    public let maxAgeSeconds: Int
    /// Every rule's path prefix, one after another (`spans` says where each lies).
    private let prefixBytes: [UInt8]
    /// Per rule (index-aligned with `rules`): its prefix in `prefixBytes` and its method.
    private let spans: [PrefixSpan]
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
        var bytes: [UInt8] = []
        spans = rules.map { rule in
            defer { bytes.append(contentsOf: rule.pathPrefix.utf8) }
            return PrefixSpan(start: bytes.count, count: rule.pathPrefix.utf8.count, method: rule.method)
        }
        prefixBytes = bytes
        let all = rules + [fallback]
        blocks = all.map { $0.encodedFields(withCacheControl: true) } + all.map { $0.encodedFields(withCacheControl: false) }
            + all.map { $0.encodedFields(withCacheControl: false, preflight: true) }
    }

    public static func == (lhs: CORSPolicy, rhs: CORSPolicy) -> Bool {
        lhs === rhs || (lhs.rules == rhs.rules && lhs.fallback == rhs.fallback && lhs.maxAgeSeconds == rhs.maxAgeSeconds)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rules)
        hasher.combine(fallback)
        hasher.combine(maxAgeSeconds)
    }

    /// A policy with no rule and an empty fallback: what a transport without CORS holds (never read).
    public static let none = CORSPolicy(rules: [], fallback: CORSRule(pathPrefix: ""))

    /// The index of the rule covering `request` (`rules.count` for the fallback).
    public func ruleIndex(for request: HTTPRequest) -> Int {
        let method = request.method
        return request.withRawPathBytes { ruleIndex(path: $0, method: method) }
    }

    /// The first rule whose prefix starts `path` and whose method (if it names one) is `method`.
    /// One flat byte table and `memcmp`: this runs for every request of a host with a policy.
    private func ruleIndex(path: UnsafeBufferPointer<UInt8>, method: String) -> Int {
        prefixBytes.withUnsafeBufferPointer { table -> Int in
            spans.withUnsafeBufferPointer { spans -> Int in
                guard let given = path.baseAddress, let prefixes = table.baseAddress else { return spans.count }
                for index in 0..<spans.count {
                    let span = spans[index]
                    // The method first: a length compare that spares a method-limited rule's memcmp.
                    if let wanted = span.method, !Self.sameMethod(wanted, method) { continue }
                    guard span.count <= path.count, memcmp(given, prefixes + span.start, span.count) == 0 else { continue }
                    return index
                }
                return spans.count
            }
        }
    }

    /// Where a rule's path prefix lies in `prefixBytes`, and the method it is limited to.
    private struct PrefixSpan: Sendable {
        let start: Int
        let count: Int
        let method: String?
    }

    /// What the transport appends to the answer of `request`: its rule's index, or (an `OPTIONS`
    /// request) `rules.count + 1` plus it, for the fields of a preflight answer.
    public func decoration(for request: HTTPRequest) -> Int {
        let index = ruleIndex(for: request)
        let preflight = request.method.utf8.count == 7 && Self.isPreflight(request)
        return preflight ? rules.count &+ 1 &+ index : index
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
    public static func isPreflight(_ request: HTTPRequest) -> Bool { sameMethod(request.method, "OPTIONS") }

    /// `a == b` for methods, the lengths compared first: on every request, and a comparison of
    /// two different strings costs the standard library's slow path, which a length rules out.
    @inline(__always)
    static func sameMethod(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && a == b }

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
