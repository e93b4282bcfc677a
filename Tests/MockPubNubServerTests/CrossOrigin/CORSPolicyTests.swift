// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The policy alone (pure): which rule covers a request, the decoration of a preflight, and the
/// encoded fields the transport appends.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct CORSPolicyTests {
    let policy = CORSPolicy(
        rules: [
            CORSRule(pathPrefix: "/publish/", method: "POST", allowMethods: "POST", cacheControl: "no-cache"),
            CORSRule(pathPrefix: "/publish/", allowMethods: "GET", cacheControl: "no-cache"),
            CORSRule(pathPrefix: "/v2/objects/", allowCredentials: true, exposeHeaders: "*"),
        ],
        fallback: CORSRule(pathPrefix: "", allowMethods: "GET, POST"))

    @Test func aMethodLimitedRuleCoversOnlyItsMethod() {
        #expect(policy.ruleIndex(for: HTTPRequest(method: "POST", target: "/publish/p/s/0/ch/0")) == 0)
        #expect(policy.ruleIndex(for: HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1")) == 1)
        #expect(policy.ruleIndex(for: HTTPRequest(method: "PATCH", target: "/v2/objects/s/uuids/u")) == 2)
    }

    @Test func shortAndUnknownPathsFallBack() {
        #expect(policy.ruleIndex(for: HTTPRequest(method: "GET", target: "/publish")) == 3)
        #expect(policy.ruleIndex(for: HTTPRequest(method: "GET", target: "/")) == 3)
        #expect(policy.ruleIndex(for: HTTPRequest(method: "GET", target: "/v2/object/s")) == 3)
    }

    @Test func aPreflightDecorationPointsPastTheRules() {
        let preflight = HTTPRequest(method: "OPTIONS", target: "/v2/objects/s/uuids/u")
        #expect(policy.decoration(for: preflight) == 3 + 1 + 2)
        #expect(String(decoding: policy.encodedFields(rule: 6, withCacheControl: false), as: UTF8.self)
            == "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Credentials: true\r\nAccess-Control-Expose-Headers: *\r\n")
    }

    @Test func cacheControlOnlyWhenTheHandlerSetNone() {
        #expect(String(decoding: policy.encodedFields(rule: 1, withCacheControl: true), as: UTF8.self)
            == "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: GET\r\nCache-Control: no-cache\r\n")
        #expect(String(decoding: policy.encodedFields(rule: 1, withCacheControl: false), as: UTF8.self)
            == "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: GET\r\n")
    }

    @Test func thePreflightAnswerAdmitsTheAskedMethodAndEchoesOnlyTokens() {
        var headers = HTTPHeaders()
        headers.add("Access-Control-Request-Method", "PROPFIND")
        headers.add("Access-Control-Request-Headers", "If-Match, bad header, Content-Type")
        let answer = policy.preflight(HTTPRequest(method: "OPTIONS", target: "/v2/objects/s", headers: headers))
        #expect(answer.status == 204)
        #expect(answer.headers["Access-Control-Allow-Methods"] == "GET, POST, PUT, PATCH, DELETE, OPTIONS, PROPFIND")
        #expect(answer.headers["Access-Control-Allow-Headers"] == "If-Match, Content-Type")
        #expect(answer.headers["Access-Control-Max-Age"] == "86400")
        let refused = policy.preflight(HTTPRequest(method: "OPTIONS", target: "/v2/objects/s", headers: headers), omitting: [.requestedHeaders])
        #expect(refused.headers["Access-Control-Allow-Headers"] == nil)
    }

    @Test func equalPoliciesCompareAndHashAlike() {
        let again = CORSPolicy(rules: policy.rules, fallback: policy.fallback)
        #expect(again == policy)
        #expect(again.hashValue == policy.hashValue)
        #expect(CORSPolicy.none != policy)
    }
}
