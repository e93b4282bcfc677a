// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import HarnessPrimitives

/// Authorizes channels at the app server's auth endpoint: a form-encoded POST of `socket_id` and
/// `channel_name` (libPusher `PTPusherChannelServerBasedAuthorization`), accepting 200 or 201 with
/// `{"auth": String, "channel_data"?: String}`.
struct PusherHTTPAuthorizer: Sendable {
    let endpoint: PusherEndpointURL
    let client: HTTPClient
    let headers: @Sendable (PusherAuthorizationRequest) -> [HTTPHeaderField]
    let timeout: Double

    init(endpoint: PusherEndpointURL, trust: PusherTrustedCA, headers: @escaping @Sendable (PusherAuthorizationRequest) -> [HTTPHeaderField],
         timeout: Double, userAgent: String) throws(HTTPClientError)
    {
        self.endpoint = endpoint
        client = try HTTPClient(host: endpoint.host, port: endpoint.port, trust: endpoint.useTLS ? trust.httpTrust : nil,
                                userAgent: userAgent, keepAlive: false)
        self.headers = headers
        self.timeout = timeout
    }

    /// The request sent for `request`.
    func httpRequest(for request: PusherAuthorizationRequest) -> HTTPClientRequest {
        HTTPClientRequest(method: "POST", target: endpoint.target, body: Array(request.formBody.utf8),
                          contentType: "application/x-www-form-urlencoded",
                          headers: Dictionary(headers(request).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }))
    }

    /// Blocking: runs on the caller's thread (never the concurrency pool).
    func authorizeBlocking(_ request: PusherAuthorizationRequest) -> Result<PusherChannelAuthorization, PusherAuthorizationError> {
        switch client.performBlocking(httpRequest(for: request), timeout: timeout) {
        case .failure(let error):
            return .failure(.transport(error.description))
        case .success(let response):
            return Self.read(statusCode: response.statusCode, body: response.body)
        }
    }

    /// Reads an auth endpoint's answer.
    static func read(statusCode: Int, body: [UInt8]) -> Result<PusherChannelAuthorization, PusherAuthorizationError> {
        let text = String(decoding: body, as: UTF8.self)
        guard statusCode == 200 || statusCode == 201 else { return .failure(.status(statusCode, body: text)) }
        guard let value = try? JSONValue.parse(body), case .object(let object) = value else {
            return .failure(.malformedResponse("not a JSON object: \(text.prefix(200))"))
        }
        guard let auth = object["auth"]?.stringValue else { return .failure(.malformedResponse("no \"auth\" string")) }
        var sharedSecret: [UInt8]?
        switch object["shared_secret"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let bytes = try? ByteEncoding.bytes(fromBase64: text) else {
                return .failure(.malformedResponse("\"shared_secret\" is not base64"))
            }
            sharedSecret = bytes
        case let other?:
            return .failure(.malformedResponse("\"shared_secret\" is \(other.typeName), not a string"))
        }
        switch object["channel_data"] {
        case nil, .null?:
            return .success(PusherChannelAuthorization(auth: auth, sharedSecret: sharedSecret))
        case .string(let channelData)?:
            return .success(PusherChannelAuthorization(auth: auth, channelData: channelData, sharedSecret: sharedSecret))
        case let other?:
            return .failure(.malformedResponse("\"channel_data\" is \(other.typeName), not a string"))
        }
    }
}
