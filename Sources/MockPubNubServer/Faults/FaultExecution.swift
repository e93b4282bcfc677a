// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// The cross-origin fields answers carry; hand-written heads (`raw`, `drip`) take them from here.
    var cors: CORSPolicy?

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
        case .preflightFailure(let preflight):
            // Matched only by preflights (the fault layer answers those); any other request passes.
            guard let cors else { return .transform { $0 } }
            return .answer(Self.failedPreflight(request, preflight, cors: cors))
        case .malformedJSON, .truncatedJSON, .wrongContentType, .invalidChunked, .resetAfterHeaders,
            .resetAfterBodyBytes, .truncatedBody, .drip, .noCORS, .truncatedGzip, .corruptGzip:
            let rule = cors.map { $0.rule(at: $0.ruleIndex(for: request)) }
            return .transform { action in Self.transform(action, with: fault, rule: rule) }
        }
    }

    /// The answer of a `preflight-failure`: a status that is not 2xx (with the usual fields), or a
    /// preflight answer without the method, the headers, or any cross-origin field.
    static func failedPreflight(_ request: HTTPRequest, _ fault: PreflightFault, cors: CORSPolicy) -> ResponseAction {
        switch fault.omit {
        case nil:
            return .respond(HTTPResponse(status: fault.status, headers: ["Content-Type": "text/plain; charset=UTF-8"]))
        case .method?, .headers?:
            var answer = cors.preflight(request, omitting: fault.omit == .method ? [.requestedMethod] : [.requestedHeaders])
            answer.status = fault.status
            return .respond(answer)
        case .origin?:
            var answer = cors.preflight(request)
            answer.status = fault.status
            return .raw(FaultWire.complete(withDate(answer), closing: false), then: .keepAlive)
        }
    }

    /// `response` with a `Date` field of now (hand-written heads; the transport adds it to the others).
    static func withDate(_ response: HTTPResponse) -> HTTPResponse {
        var dated = response
        dated.headers.set("Date", HTTPDate.format(unixSeconds: Int(time(nil))))
        return dated
    }

    /// `response` with the fields of `rule` and `Date`, as the transport adds them to a
    /// well-framed answer (`Cache-Control` only when it has none); as it is without a rule.
    static func wired(_ response: HTTPResponse, rule: CORSRule?, crossOrigin: Bool = true) -> HTTPResponse {
        guard let rule else { return response }
        var wired = response
        for field in rule.fields(withCacheControl: response.headers["Cache-Control"] == nil)
        where crossOrigin || !field.name.hasPrefix("Access-Control-") {
            wired.headers.add(field.name, field.value)
        }
        return withDate(wired)
    }

    /// Applies an answer-transforming fault to the service's answer (through `.delay`; other
    /// actions pass). `rule`: the cross-origin fields hand-written heads carry (nil: none).
    static func transform(_ action: ResponseAction, with fault: Fault, rule: CORSRule? = nil) -> ResponseAction {
        switch action {
        case .delay(let delay, let inner): return .delay(delay, then: transform(inner, with: fault, rule: rule))
        case .respond(let response): return transform(response, with: fault, rule: rule)
        default: return action
        }
    }

    static func transform(_ given: HTTPResponse, with fault: Fault, rule: CORSRule? = nil) -> ResponseAction {
        var changed = given
        let body = given.body
        // What a hand-written head carries: the fields the transport adds to well-framed answers.
        let response = wired(given, rule: rule)
        switch fault {
        case .noCORS:
            return .raw(FaultWire.complete(wired(given, rule: rule, crossOrigin: false), closing: false), then: .keepAlive)
        case .truncatedGzip(let bytes):
            guard var gzipped = AnswerCompression.gzipped(AnswerCompression.identity(given)) else { return .respond(given) }
            gzipped.body = Array(gzipped.body.prefix(FaultWire.keptCount(requested: bytes, total: gzipped.body.count)))
            return .respond(gzipped)
        case .corruptGzip:
            guard var gzipped = AnswerCompression.gzipped(AnswerCompression.identity(given)) else { return .respond(given) }
            // BFINAL 1, BTYPE 11 (reserved): every inflater stops at the first block.
            gzipped.body[AnswerCompression.deflateOffset] = 0xFF
            return .respond(gzipped)
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
            return .respond(given)
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
