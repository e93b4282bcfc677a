// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// The outcome of checking a request's `signature` against a keyset's secret key.
enum SignatureCheck: Sendable, Hashable {
    /// No `signature` parameter.
    case unsigned
    /// Signed with the secret key within the timestamp window: a server-side request.
    case valid
    case badTimestamp
    case badSignature
}

/// Verifies request signatures, v2 (current SDKs) and v1 (3.x clients, Python's POST publish):
/// pure given the request, the keyset and the clock (spec §9.2).
enum RequestAuthentication {
    static func check(_ request: HTTPRequest, route: PubNubRoute, keyset: Keyset, now: Int64, window: Int64) -> SignatureCheck {
        guard let signature = route.query["signature"] else { return .unsigned }
        guard let stamp = route.query["timestamp"].flatMap({ Int64($0) }), stamp >= 0, stamp < 100_000_000_000,
            abs(now - stamp) <= window
        else { return .badTimestamp }
        if signature.hasPrefix("v2.") {
            let body = request.method == "POST" || request.method == "PATCH" ? String(decoding: request.body, as: UTF8.self) : ""
            // JS signs publish with GET whatever method it sends (spec §9.2).
            let methods = route.endpoint == .publish ? [request.method, "GET"] : [request.method]
            for method in methods {
                let input = RequestSignature.input(
                    method: method, publishKey: keyset.publishKey, path: request.rawPath, query: route.query, body: body)
                if signature == RequestSignature.sign(input, secret: keyset.secretKey) { return .valid }
            }
            return .badSignature
        }
        return normalized(signature) == normalized(v1Signature(request, route: route, keyset: keyset)) ? .valid : .badSignature
    }

    /// The v1 signature: base64url (padded) of HMAC-SHA256 over `sub\npub\nPATH\nsorted_query`,
    /// PATH being `grant` / `audit` for the v1 Access Manager calls and the request path otherwise.
    static func v1Signature(_ request: HTTPRequest, route: PubNubRoute, keyset: Keyset) -> String {
        let path: String = switch route.endpoint {
        case .grantV1: "grant"
        case .auditV1: "audit"
        default: request.rawPath
        }
        let input = keyset.subscribeKey + "\n" + keyset.publishKey + "\n" + path + "\n" + sortedQuery(route.query)
        let digest = HMAC.sha256(key: Array(keyset.secretKey.utf8), data: Array(input.utf8))
        let unpadded = ByteEncoding.base64URL(digest)
        return unpadded + String(repeating: "=", count: (4 - unpadded.utf8.count % 4) % 4)
    }

    /// Every parameter but `signature`, sorted by name, values percent-encoded as signed.
    static func sortedQuery(_ query: [QueryItem]) -> String {
        query.filter { $0.name != "signature" }
            .enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map { RequestSignature.encode($0.element.name) + "=" + RequestSignature.encode($0.element.value) }
            .joined(separator: "&")
    }

    /// A v1 signature compared without regard to alphabet (`+/` or `-_`) and padding.
    private static func normalized(_ text: String) -> String {
        String(text.compactMap { c -> Character? in
            switch c {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: c
            }
        })
    }

    /// The 403 for a failed check (UNVERIFIED wording, as the v2 grant answers).
    static func refusal(_ check: SignatureCheck) -> HTTPResponse? {
        switch check {
        case .unsigned, .valid: nil
        case .badTimestamp: PubNubErrors.accessManager(403, "Invalid Timestamp")
        case .badSignature: PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
    }
}
