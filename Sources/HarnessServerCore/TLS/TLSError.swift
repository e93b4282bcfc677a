// SPDX-License-Identifier: MIT
internal import COpenSSL

/// A failure of the TLS layer: minting certificates, building contexts, or running a TLS stream.
///
/// Each case carries the operation that failed and OpenSSL's drained error stack (outermost
/// last), so a log line says what OpenSSL said, not only that something failed.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Generating a key or building, signing or encoding a certificate failed.
    case certificateGeneration(step: String, openSSLErrors: [String])
    /// A PEM string could not be parsed as the expected object.
    case invalidPEM(what: String, openSSLErrors: [String])
    /// Creating or configuring an `SSL_CTX` failed.
    case contextConfiguration(step: String, openSSLErrors: [String])
    /// Creating an `SSL` object for a connection failed.
    case streamCreation(step: String, openSSLErrors: [String])
    /// The ListenerFault has no TLS context (plain faults, or faults the listener applies before TLS).
    case noContextForFault(ListenerFault)
    /// Writing a PEM file failed.
    case fileWrite(path: String, errno: Int32)
    /// A TLS operation on a connection failed (handshake, read, write).
    case connection(operation: String, errno: Int32, openSSLErrors: [String])
    /// The stream's own TLS 1.3 record layer refused what the peer sent, or could not seal a record.
    case record(TLSRecordFailure)

    public var description: String {
        switch self {
        case .certificateGeneration(let step, let errors):
            return "TLS certificate generation failed at \(step)\(Self.render(errors))"
        case .invalidPEM(let what, let errors):
            return "invalid PEM for \(what)\(Self.render(errors))"
        case .contextConfiguration(let step, let errors):
            return "TLS context configuration failed at \(step)\(Self.render(errors))"
        case .streamCreation(let step, let errors):
            return "TLS stream creation failed at \(step)\(Self.render(errors))"
        case .noContextForFault(let fault):
            return "listener fault \(fault.rawValue) has no TLS server context"
        case .fileWrite(let path, let code):
            return "cannot write \(path): errno \(code)"
        case .connection(let operation, let code, let errors):
            return "TLS \(operation) failed (errno \(code))\(Self.render(errors))"
        case .record(let failure):
            return "TLS record layer: \(failure)"
        }
    }

    private static func render(_ errors: [String]) -> String {
        errors.isEmpty ? "" : ": " + errors.joined(separator: "; ")
    }
}

/// OpenSSL's thread-local error queue.
enum OpenSSLErrorStack {
    /// Removes every queued error and returns them as `library:reason` strings, oldest first.
    static func drain() -> [String] {
        var errors: [String] = []
        var count = 0
        while count < 64 {
            let code = ERR_get_error()
            if code == 0 { break }
            count += 1
            errors.append(render(code))
        }
        return errors
    }

    /// The reason text of one packed error code (e.g. "no shared cipher"), or its number.
    static func render(_ code: UInt) -> String {
        let reason = ERR_reason_error_string(code).map { String(cString: $0) }
        let library = ERR_lib_error_string(code).map { String(cString: $0) }
        let reasonText = reason ?? "reason \(copenssl_err_get_reason(code))"
        return library.map { "\($0): \(reasonText)" } ?? reasonText
    }

    /// Empties the queue before an OpenSSL call so that errors found afterwards belong to that call.
    static func clear() {
        ERR_clear_error()
    }
}
