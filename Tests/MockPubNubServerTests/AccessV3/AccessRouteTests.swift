// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AccessRouteTests {
    private func route(_ method: String, _ target: String) -> PubNubRoute? {
        try? PubNubRoute.classify(HTTPRequest(method: method, target: target)).get()
    }

    @Test func accessManagerPathsClassify() {
        #expect(route("POST", "/v3/pam/sub/grant?timestamp=1")?.endpoint == .grantToken)
        #expect(route("POST", "/v3/pam/sub/grant")?.subscribeKey == "sub")
        let revoke = route("DELETE", "/v3/pam/sub/grant/qEF2AA%3D%3D")
        #expect(revoke?.endpoint == .revokeToken)
        #expect(revoke?.token == "qEF2AA==")
        #expect(route("GET", "/v1/auth/grant/sub-key/sub?channel=a,b")?.endpoint == .grantV1)
        #expect(route("GET", "/v1/auth/grant/sub-key/sub?channel=a,b")?.channels == ["a", "b"])
        #expect(route("GET", "/v1/auth/audit/sub-key/sub")?.endpoint == .auditV1)
        // Wrong methods and shapes are not Access Manager calls.
        #expect(route("GET", "/v3/pam/sub/grant") == nil)
        #expect(route("POST", "/v3/pam/sub/grant/tok") == nil)
        #expect(route("GET", "/v1/auth/revoke/sub-key/sub") == nil)
        #expect(route("POST", "/v1/auth/grant/sub-key/sub") == nil)
        // The names fault plans and the journal use.
        #expect(PubNubEndpoint.grantToken.rawValue == "grant-token")
        #expect(PubNubEndpoint.revokeToken.rawValue == "revoke-token")
    }

    @Test func patternSyntaxFollowsTheServiceWording() {
        #expect(PatternSyntax.problem(in: "^room-[0-9]+$") == nil)
        #expect(PatternSyntax.problem(in: "some_*") == nil)
        #expect(PatternSyntax.problem(in: "a{2,3}?b") == nil)
        #expect(PatternSyntax.problem(in: "[(]x") == nil)
        #expect(PatternSyntax.problem(in: #"\(x\)"#) == nil)
        #expect(PatternSyntax.problem(in: "a++") == "Syntax error: multiple repeat.")
        #expect(PatternSyntax.problem(in: "a*?+") == "Syntax error: multiple repeat.")
        #expect(PatternSyntax.problem(in: "*a") == "Syntax error: nothing to repeat.")
        #expect(PatternSyntax.problem(in: "(a)") == "Only non-capturing groups are allowed. Try replacing `(` with `(?:`.")
        #expect(PatternSyntax.problem(in: "[abc") == "Syntax error: unterminated character set.")
        #expect(PatternSyntax.matches("^room-[0-9]+$", "room-12"))
        #expect(!PatternSyntax.matches("^room-[0-9]+$", "room-x"))
        #expect(PatternSyntax.matches("chat", "my-chat-room"))
    }
}
