// SPDX-License-Identifier: MIT
import Glibc
import HarnessHTTPClient

/// One REST call before the common query parameters are added.
struct PubNubRequest: Sendable {
    var operation: PNOperationType
    var method: String = "GET"
    /// Path, already encoded (segments percent-encoded, comma lists joined).
    var path: String
    /// Endpoint query parameters, raw values (encoded when the target is built), in order.
    var query: [(String, String)] = []
    var body: [UInt8]?
    /// `/time/0` carries no `auth`.
    var sendsAuth = true
    /// Signed when a secret key is set (everything except `/time/0`).
    var isSigned = true
    /// Channels and groups the request is about (for Access Denied statuses).
    var channels: [String] = []
    var groups: [String] = []
    /// Extra header fields (App Context `If-Match`).
    var headers: [String: String] = [:]
}

/// Builds request targets: endpoint parameters first, then `uuid`, `pnsdk`, `auth`.
struct RequestTargetBuilder: Sendable {
    let uuid: String
    let sdkName: String
    let authKey: String?
    /// Signs every request except `/time/0` when set.
    var signer: RequestSigner?
    /// Unix seconds for the `timestamp` parameter of signed requests.
    var clock: @Sendable () -> Int = { Int(Glibc.time(nil)) }

    func target(for request: PubNubRequest) -> String {
        var items = request.query
        items.append(("uuid", uuid))
        items.append(("pnsdk", sdkName))
        if request.sendsAuth, let authKey { items.append(("auth", authKey)) }
        if request.isSigned, let signer {
            items.append(("timestamp", String(clock())))
            items.append(("signature", signer.signature(method: request.method, path: request.path, query: items, body: request.body)))
        }
        let query = items.map { key, value in
            "\(key)=\(PercentEncoding.encode(value, keeping: Self.listKeys.contains(key) ? [UInt8(ascii: ",")] : []))"
        }.joined(separator: "&")
        return request.path + "?" + query
    }

    /// Query parameters whose values are comma lists; their `,` stays literal.
    private static let listKeys: Set<String> = ["channel-group", "add", "remove", "channelsTimetoken", "include", "sort"]

    func httpRequest(for request: PubNubRequest) -> HTTPClientRequest {
        HTTPClientRequest(method: request.method, target: target(for: request), body: request.body, headers: request.headers)
    }
}

/// Names the client refuses before sending anything.
enum NameValidation {
    /// Throws a `PNBadRequestCategory` status when a channel or group name is empty or contains `,` or `/`.
    static func check(_ names: [String], kind: String, operation: PNOperationType) throws(PNStatus) {
        for name in names where name.isEmpty || name.contains(",") || name.contains("/") {
            throw PNStatus(category: .badRequest, operation: operation,
                           errorData: PNErrorData(information: "\(kind) name \"\(name)\" is empty or contains ',' or '/'"))
        }
    }
}
