// SPDX-License-Identifier: MIT
import HarnessServerCore

/// One HTTP API request as the API core sees it: method, raw and decoded path, decoded query, body.
public struct PusherAPIRequest: Sendable, Hashable {
    public var method: String
    /// The path as it arrived (percent-encoding kept).
    public var rawPath: String
    /// The path with every segment percent-decoded; nil when the encoding is invalid.
    public var decodedPath: String?
    /// The query's decoded `name=value` pairs in arrival order; nil when the encoding is invalid.
    public var query: [QueryItem]?
    public var body: [UInt8]

    public init(method: String, rawPath: String, decodedPath: String?, query: [QueryItem]?, body: [UInt8]) {
        self.method = method
        self.rawPath = rawPath
        self.decodedPath = decodedPath
        self.query = query
        self.body = body
    }

    /// The request as the server parsed it.
    public init(_ request: HTTPRequest) {
        self.init(
            method: request.method, rawPath: request.rawPath,
            decodedPath: request.pathSegments.map { "/" + $0.joined(separator: "/") },
            query: request.queryItems, body: request.body)
    }

    /// The first value of a query parameter (names compare exactly).
    public func parameter(_ name: String) -> String? { query?.first { $0.name == name }?.value }
}
