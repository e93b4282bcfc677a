// SPDX-License-Identifier: MIT
import HarnessJSON

/// The answers of `status`, `html`, `wrong-shape` and `empty-body` faults, with PubNub's error
/// bodies (spec §4.5, §5.8, §9.1, §10).
enum FaultStatusBodies {
    /// The captive-portal page of the `html` fault.
    static let captivePortal = "<!DOCTYPE html><html><head><title>Sign in to the network</title></head>"
        + "<body><h1>Sign in</h1><form action=\"/login\" method=\"post\"><input name=\"user\">"
        + "<button>Connect</button></form></body></html>"

    /// The 502 page of a proxy that lost its upstream.
    static let badGatewayPage = "<html><head><title>502 Bad Gateway</title></head>"
        + "<body><h1>502 Bad Gateway</h1><p>The upstream server did not answer.</p></body></html>"

    /// The response of a `status` fault for a request with `route` (nil when unclassified) at `timetoken`.
    static func response(
        _ fault: StatusFault, route: PubNubRoute?, rawPath: String, timetoken: UInt64
    ) -> HTTPResponse {
        let (defaultBody, defaultType) = defaultBody(
            status: fault.status, route: route, rawPath: rawPath, timetoken: timetoken)
        var response = HTTPResponse(status: fault.status, body: Array((fault.body ?? defaultBody).utf8))
        response.headers.add("Content-Type", fault.contentType ?? defaultType)
        if let seconds = fault.retryAfter ?? (fault.status == 429 ? 1 : nil) {
            response.headers.add("Retry-After", String(seconds))
        }
        for field in fault.headers { response.headers.set(field.name, field.value) }
        return response
    }

    /// The spec's body and content type for `status`.
    static func defaultBody(
        status: Int, route: PubNubRoute?, rawPath: String, timetoken: UInt64
    ) -> (String, String) {
        let pubNub = HTTPResponse.pubNubContentType
        let endpoint = route?.endpoint
        switch status {
        case 400 where endpoint == .publish || endpoint == .signal:
            // §4.5: publish errors are arrays with the text and a timetoken string.
            return ("[0,\"Invalid Key\",\"\(timetoken)\"]", pubNub)
        case 400 where endpoint == .push:
            // The push service's recorded error shape (modern spec §7).
            return ("{\"error\": \"Invalid type argument\"}", pubNub)
        case 400:
            return ("{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}", pubNub)
        case 403:
            return (forbidden(route), pubNub)
        case 404:
            return ("{\"message\": \"Not found: '\(jsonEscaped(rawPath))'\",\"error\": 1,\"service\": \"Presence\"}", pubNub)
        case 414:
            return ("{\"message\":\"Request URI Too Long\",\"error\":true,\"service\":\"Balancer\",\"status\":414}", pubNub)
        case 429:
            // §10: the only recorded 429 body is the objects service's; used for every endpoint (UNVERIFIED).
            return (
                "{\"status\": 429, \"error\": {\"message\": \"You have exceeded the maximum number of requests per second "
                    + "allowed for your subscriber key.\", \"source\": \"objects\"}}", pubNub
            )
        case 481:
            // §5.8: the live 481 body is UNVERIFIED; the SDK test fixture's `{}` is used.
            return ("{}", pubNub)
        case 500:
            return ("{}", pubNub)
        case 502:
            return (badGatewayPage, "text/html; charset=UTF-8")
        case 503:
            // §10 records the 504 body; 503 by analogy (UNVERIFIED).
            return ("{\"service\":\"Access Manager\",\"status\":503,\"error\":true,\"message\":\"Service Unavailable\"}", pubNub)
        case 504:
            return ("{\"service\":\"Access Manager\",\"status\":504,\"error\":true,\"message\":\"Service Unavailable\"}", pubNub)
        default:
            let reason = HTTPResponse.standardReason(status)
            return ("{\"status\":\(status),\"error\":\(status >= 400),\"message\":\"\(reason)\",\"service\":\"Mock\"}", pubNub)
        }
    }

    /// §9.1 / §5.8: the Access Manager 403 naming the request's channels (and groups); ends with `\n`.
    static func forbidden(_ route: PubNubRoute?) -> String {
        let channels = route?.channels ?? []
        let groups = route?.channelGroups ?? []
        var payload: [(String, JSONValue)] = [("channels", .array(channels.map(JSONValue.string)))]
        if !groups.isEmpty { payload.append(("channel-groups", .array(groups.map(JSONValue.string)))) }
        let body: JSONValue = .object([
            ("message", .string("Forbidden")), ("payload", .object(JSONObject(payload))), ("error", .bool(true)),
            ("service", .string("Access Manager")), ("status", .int(403)),
        ])
        return body.jsonText + "\n"
    }

    /// Valid JSON of the wrong shape for `endpoint`: an object where an array is expected, and vice versa.
    static func wrongShape(for endpoint: PubNubEndpoint?) -> String {
        switch endpoint {
        case .time, .publish, .signal, .history, .push:
            "{\"status\":200,\"message\":\"OK\",\"service\":\"Balancer\"}"
        default:
            "[1,\"OK\",{\"t\":\"0\"}]"
        }
    }

    static func jsonEscaped(_ text: String) -> String {
        String(JSONText.stringLiteral(text).dropFirst().dropLast())
    }
}
