// SPDX-License-Identifier: MIT

/// Encrypts a message's JSON text with another key: `(cipherKey, scheme, jsonText) -> base64`.
///
/// The `foreign-encrypted` fault uses it; the scheme is one of `Fault.cipherSchemes`.
package typealias ForeignMessageEncryptor = @Sendable (_ cipherKey: String, _ scheme: String, _ jsonText: String) throws -> String

/// How a fired fault is carried out (pure: computing it touches no socket and no clock).
enum FaultExecution: Sendable {
    /// Answer with this action; the service never sees the request.
    case answer(ResponseAction)
    /// Let the service answer, then transform its answer.
    case transform(@Sendable (ResponseAction) -> ResponseAction)
    /// Let the service answer (a long-poll parks), but close the connection after `after`.
    case closeLongPoll(after: Duration, mode: CloseMode)
}

/// Turns a fault into its `FaultExecution` for one request.
struct FaultExecutor: Sendable {
    /// The default plaintext of `foreign-encrypted`.
    static let foreignMessage = "{\"text\":\"encrypted with another key\"}"

    var encryptor: ForeignMessageEncryptor?

    func execution(
        for fault: Fault, request: HTTPRequest, route: PubNubRoute?, context: RequestContext
    ) -> FaultExecution {
        let now = FaultWire.timetoken(unixSeconds: context.arrivalTime)
        let pubNubType = HTTPResponse.pubNubContentType
        switch fault {
        case .status(let status):
            return .answer(.respond(FaultStatusBodies.response(status, route: route, rawPath: request.rawPath, timetoken: now)))
        case .wrongShape(let body):
            return .answer(.respond(.pubNub(200, body ?? FaultStatusBodies.wrongShape(for: route?.endpoint))))
        case .html(let body):
            return .answer(.respond(HTTPResponse(
                status: 200, headers: ["Content-Type": "text/html; charset=UTF-8"],
                body: Array((body ?? FaultStatusBodies.captivePortal).utf8))))
        case .emptyBody(let status):
            return .answer(.respond(HTTPResponse(status: status, headers: ["Content-Type": pubNubType])))
        case .hang: return .answer(.hang)
        case .close: return .answer(.close(.fin))
        case .reset: return .answer(.close(.reset))
        case .messages(let count, let channel):
            return .answer(.respond(.pubNub(200, subscribeBodies(route, now).messages(count: count, channel: channel))))
        case .cursorBackwards(let step):
            return .answer(.respond(.pubNub(200, subscribeBodies(route, now).cursorBackwards(by: step))))
        case .regionChange(let region):
            return .answer(.respond(.pubNub(200, subscribeBodies(route, now).regionChange(to: region))))
        case .foreignEncrypted(let key, let scheme, let message):
            return .answer(foreignEncrypted(key: key, scheme: scheme ?? "aescbc", message: message, route: route, now: now))
        case .closeLongPoll(let after, let mode):
            return .closeLongPoll(after: .milliseconds(after), mode: mode)
        case .delay(let ms, let then):
            let delay = Duration.milliseconds(ms)
            guard let then else { return .transform { .delay(delay, then: $0) } }
            switch execution(for: then, request: request, route: route, context: context) {
            case .answer(let action): return .answer(.delay(delay, then: action))
            case .transform(let transform): return .transform { .delay(delay, then: transform($0)) }
            case .closeLongPoll(let after, let mode): return .closeLongPoll(after: after + delay, mode: mode)
            }
        case .malformedJSON, .truncatedJSON, .wrongContentType, .invalidChunked, .resetAfterHeaders,
            .resetAfterBodyBytes, .truncatedBody, .drip:
            return .transform { action in Self.transform(action, with: fault) }
        }
    }

    /// Applies an answer-transforming fault to the service's answer (through `.delay`; other actions pass).
    static func transform(_ action: ResponseAction, with fault: Fault) -> ResponseAction {
        switch action {
        case .delay(let delay, let inner): return .delay(delay, then: transform(inner, with: fault))
        case .respond(let response): return transform(response, with: fault)
        default: return action
        }
    }

    static func transform(_ response: HTTPResponse, with fault: Fault) -> ResponseAction {
        var changed = response
        let body = response.body
        switch fault {
        case .malformedJSON:
            changed.body = Array("{".utf8) + body
            return .respond(changed)
        case .truncatedJSON(let bytes):
            changed.body = Array(body.prefix(FaultWire.keptCount(requested: bytes, total: body.count)))
            return .respond(changed)
        case .wrongContentType(let type):
            changed.headers.set("Content-Type", type)
            return .respond(changed)
        case .invalidChunked:
            let chunked = FaultWire.head(response, contentLength: nil, closing: true, chunked: true)
            return .raw(chunked + Array("zz\r\n".utf8) + body + Array("\r\n0\r\n\r\n".utf8), then: .fin)
        case .resetAfterHeaders:
            return .raw(FaultWire.head(response, contentLength: body.count, closing: false), then: .reset)
        case .resetAfterBodyBytes(let bytes):
            let kept = FaultWire.keptCount(requested: bytes, total: body.count)
            return .raw(FaultWire.head(response, contentLength: body.count, closing: false) + body.prefix(kept), then: .reset)
        case .truncatedBody(let bytes, let framing):
            let kept = FaultWire.keptCount(requested: bytes, total: body.count)
            let head = framing == .full
                ? FaultWire.head(response, contentLength: body.count, closing: false)
                : FaultWire.head(response, contentLength: kept, closing: true)
            return .raw(head + body.prefix(kept), then: .fin)
        case .drip(let chunkSize, let interval):
            return .drip(
                FaultWire.complete(response, closing: false), chunkSize: chunkSize,
                interval: .milliseconds(interval), then: .keepAlive)
        default:
            return .respond(response)
        }
    }

    private func subscribeBodies(_ route: PubNubRoute?, _ now: UInt64) -> SubscribeFaultBodies {
        SubscribeFaultBodies(route: route ?? PubNubRoute(endpoint: .subscribe), now: now)
    }

    private func foreignEncrypted(key: String, scheme: String, message: String?, route: PubNubRoute?, now: UInt64) -> ResponseAction {
        guard let encryptor else {
            return .respond(Self.serverError("foreign-encrypted: this server has no message encryptor configured"))
        }
        do {
            let ciphertext = try encryptor(key, scheme, message ?? Self.foreignMessage)
            return .respond(.pubNub(200, subscribeBodies(route, now).encryptedMessage(ciphertext: ciphertext)))
        } catch {
            return .respond(Self.serverError("foreign-encrypted: encryption failed: \(error)"))
        }
    }

    /// A 500 in the admin API's error shape, for faults the server cannot carry out.
    static func serverError(_ message: String) -> HTTPResponse {
        HTTPResponse(
            status: 500, headers: ["Content-Type": "application/json"],
            body: AdminAPI.errorBody(status: 500, message: message))
    }
}
