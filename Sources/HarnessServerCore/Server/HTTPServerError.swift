// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure of the HTTP server's setup or control API (binding, listener management).
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case system(operation: String, errno: Int32)
        case notRunning
        case alreadyStarted
        case invalidAddress(String)
        case missingStreamFactory(ListenerFault)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// A system call failed.
    static func system(_ operation: String, _ code: Int32) -> HTTPServerError { .init(.system(operation: operation, errno: code)) }
    /// The server is not started (or already stopped).
    static let notRunning = HTTPServerError(.notRunning)
    /// `start()` was called twice.
    static let alreadyStarted = HTTPServerError(.alreadyStarted)
    /// The host is not a numeric IPv4 or IPv6 address.
    static func invalidAddress(_ host: String) -> HTTPServerError { .init(.invalidAddress(host)) }
    /// A TLS fault was requested on a listener without a TLS stream factory.
    static func missingStreamFactory(_ fault: ListenerFault) -> HTTPServerError { .init(.missingStreamFactory(fault)) }

    /// The errno of a failed system call, if that is what happened.
    public var errno: Int32? {
        if case .system(_, let code) = kind { return code }
        return nil
    }

    public var description: String {
        switch kind {
        case .system(let operation, let code): "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .notRunning: "the server is not running"
        case .alreadyStarted: "the server was already started"
        case .invalidAddress(let host): "not a numeric IP address: \(host)"
        case .missingStreamFactory(let fault): "listener fault \(fault.rawValue) needs a TLS stream factory"
        }
    }
}
