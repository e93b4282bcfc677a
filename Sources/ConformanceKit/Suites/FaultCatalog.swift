// SPDX-License-Identifier: MIT

/// One request-level fault of docs/fault-plans.md and the categories it must produce.
struct RequestFault: Sendable {
    /// The case-id name (`status-500`, `hang`, ...).
    var name: String
    var what: String
    var fault: JSONValue
    /// On a non-subscribe request (publish); `nil` = the request succeeds (acknowledgment).
    var request: StatusCategory?
    var requestAlternatives: [Alternative]
    /// On the subscribe loop's long-poll; `nil` = the loop carries on (a message still arrives).
    var subscribe: StatusCategory?
    var subscribeAlternatives: [Alternative]
    /// Faults about time hit the handshake (an idle long-poll is indistinguishable from a hang).
    var onHandshake = false
}

/// The request-level fault catalog with the reference (4.x) categories and the tolerated
/// behaviour of other SDK families (spec §11.3, §11.4, §12).
enum FaultCatalog {
    static let objc4 = "ObjC ≤5.5 maps other 4xx/5xx through NSURLErrorBadServerResponse (§11.3 note 1)"
    static let python = "Python maps unlisted HTTP errors to PNUnknownCategory (§11.4)"
    static let silentRestart = Alternative([.connected], reason: "Python/JavaScript restart the loop silently on a subscribe timeout (§11.3)")
    static let lostAsMalformed = Alternative([.malformedResponse], reason: "a connection lost mid-response may surface as a bad server response (ObjC4 NSURLErrorBadServerResponse)")
    static let lostAsDisconnect = Alternative([.unexpectedDisconnect], reason: "Python reports connection errors on any request as PNUnexpectedDisconnectCategory (§11.4)")

    static func status(_ code: Int, _ request: StatusCategory, _ alternatives: [Alternative], subscribe: StatusCategory = .unexpectedDisconnect,
                       subscribeAlternatives: [Alternative] = []) -> RequestFault {
        RequestFault(name: "status-\(code)", what: "HTTP \(code) with the catalogue body", fault: PlanBuilder.status(code),
                     request: request, requestAlternatives: alternatives, subscribe: subscribe, subscribeAlternatives: subscribeAlternatives)
    }

    static func malformed(_ kind: String, _ what: String, alternatives: [Alternative] = []) -> RequestFault {
        RequestFault(name: kind, what: what, fault: PlanBuilder.kind(kind), request: .malformedResponse,
                     requestAlternatives: alternatives + [Alternative([.unknown], reason: "Python raises a JSON decode error (PNInternalExceptionCategory, reported as unknown) (§11.4)")],
                     subscribe: .unexpectedDisconnect,
                     subscribeAlternatives: [Alternative([.malformedResponse], reason: "JavaScript reports the parse error before disconnecting (§11.3)")])
    }

    static func transport(_ name: String, _ what: String, _ fault: JSONValue) -> RequestFault {
        RequestFault(name: name, what: what, fault: fault, request: .networkIssues,
                     requestAlternatives: [lostAsDisconnect, lostAsMalformed,
                                           Alternative([.unknown], reason: "Python asyncio reports transport exceptions as PNUnknownCategory (§11.3)")],
                     subscribe: .unexpectedDisconnect,
                     subscribeAlternatives: [Alternative([.networkIssues], reason: "JavaScript emits PNNetworkIssuesCategory for the loop (§11.3)")])
    }

    static var all: [RequestFault] {
        [
            status(400, .badRequest, [Alternative([.malformedResponse], reason: objc4), Alternative([.unknown], reason: python)],
                   subscribeAlternatives: [Alternative([.badRequest], reason: "JavaScript stops the loop with PNBadRequestCategory (§11.3)")]),
            status(403, .accessDenied, [], subscribe: .accessDenied),
            status(404, .resourceNotFound, [Alternative([.unknown], reason: python), Alternative([.malformedResponse], reason: objc4)]),
            status(414, .requestURITooLong, [Alternative([.unknown], reason: python)], subscribe: .requestURITooLong,
                   subscribeAlternatives: [Alternative([.unexpectedDisconnect], reason: "clients without a URI-too-long category disconnect")]),
            status(429, .unknown, [Alternative([.malformedResponse], reason: objc4)]),
            status(481, .malformedFilterExpression, [Alternative([.unknown], reason: python)], subscribe: .malformedFilterExpression,
                   subscribeAlternatives: [Alternative([.unexpectedDisconnect], reason: "clients without a filter category disconnect")]),
            status(500, .unknown, [Alternative([.malformedResponse], reason: objc4)]),
            status(503, .unknown, [Alternative([.malformedResponse], reason: objc4)]),
            malformed("malformed-json", "200 with a body that is not JSON"),
            malformed("truncated-json", "200 with JSON cut short (framing correct)"),
            malformed("wrong-shape", "200 with valid JSON of the wrong shape"),
            malformed("html", "200 text/html (captive portal)"),
            malformed("empty-body", "200 with an empty body"),
            RequestFault(name: "wrong-content-type", what: "the normal body with a non-JSON Content-Type", fault: PlanBuilder.kind("wrong-content-type"),
                         request: .malformedResponse,
                         requestAlternatives: [Alternative([.acknowledgment], reason: "Python and Swift ignore the Content-Type (§11.4)")],
                         subscribe: .unexpectedDisconnect, subscribeAlternatives: [Alternative([.connected], reason: "clients that ignore the Content-Type keep the loop")]),
            malformed("invalid-chunked", "a response with broken chunked framing",
                      alternatives: [Alternative([.networkIssues], reason: "a framing error may surface as a transport error"), lostAsDisconnect]),
            RequestFault(name: "delay-short", what: "a 100 ms delay, below the timeout", fault: ["kind": "delay", "ms": 100],
                         request: nil, requestAlternatives: [], subscribe: nil, subscribeAlternatives: []),
            RequestFault(name: "delay-long", what: "a 1500 ms delay, beyond the timeout", fault: ["kind": "delay", "ms": 1_500],
                         request: .timeout, requestAlternatives: [], subscribe: .unexpectedDisconnect,
                         subscribeAlternatives: [Alternative([.timeout], reason: "the timeout reported as such"), silentRestart], onHandshake: true),
            RequestFault(name: "delay-then-status", what: "a 50 ms delay then HTTP 500", fault: ["kind": "delay", "ms": 50, "then": PlanBuilder.status(500)],
                         request: .unknown, requestAlternatives: [Alternative([.malformedResponse], reason: objc4)],
                         subscribe: .unexpectedDisconnect, subscribeAlternatives: []),
            RequestFault(name: "hang", what: "no response at all", fault: PlanBuilder.kind("hang"),
                         request: .timeout, requestAlternatives: [], subscribe: .unexpectedDisconnect,
                         subscribeAlternatives: [Alternative([.timeout], reason: "the timeout reported as such"), silentRestart], onHandshake: true),
            transport("close", "FIN without a response", PlanBuilder.kind("close")),
            transport("reset", "RST without a response", PlanBuilder.kind("reset")),
            transport("reset-after-headers", "RST after the response headers", PlanBuilder.kind("reset-after-headers")),
            transport("reset-after-body-bytes", "RST after 5 body bytes", ["kind": "reset-after-body-bytes", "bytes": 5]),
            RequestFault(name: "truncated-body", what: "a body cut at 5 bytes with matching framing", fault: ["kind": "truncated-body", "bytes": 5, "contentLength": "correct"],
                         request: .malformedResponse, requestAlternatives: [Alternative([.unknown], reason: python)],
                         subscribe: .unexpectedDisconnect, subscribeAlternatives: [Alternative([.malformedResponse], reason: "JavaScript reports the parse error")]),
            transport("truncated-body-full-length", "a body cut at 5 bytes after declaring the full length",
                      ["kind": "truncated-body", "bytes": 5, "contentLength": "full"]),
            RequestFault(name: "drip", what: "the response in 16-byte chunks 5 ms apart (about 50 ms in all, well inside the request timeout)", fault: ["kind": "drip", "chunkSize": 16, "intervalMs": 5],
                         request: nil, requestAlternatives: [], subscribe: nil, subscribeAlternatives: []),
        ]
    }

    /// Every fault kind of docs/fault-plans.md (for the catalog's coverage check).
    public static let documentedKinds: [String] = [
        "status", "malformed-json", "truncated-json", "wrong-shape", "html", "empty-body", "wrong-content-type",
        "invalid-chunked", "delay", "hang", "close", "reset", "reset-after-headers", "reset-after-body-bytes",
        "truncated-body", "drip", "close-long-poll", "messages", "foreign-encrypted", "cursor-backwards", "region-change",
    ]
}
