// SPDX-License-Identifier: MIT

/// Listener-level faults: the TLS catalog and plain transport faults before any HTTP (spec
/// §11.3; `ListenerFault`), each on a non-subscribe request (time) and on the subscribe loop.
enum TransportSuite {
    struct ListenerCase: Sendable {
        var setup: ListenerSetup
        var name: String
        var what: String
        var tls: Bool
        /// `nil` = the request succeeds.
        var request: StatusCategory?
        var requestAlternatives: [Alternative]
        var subscribeAlternatives: [Alternative]
    }

    static let objc67 = "ObjC 6/7 turn every TLS failure into PNNetworkIssuesCategory (§11.3)"
    static let python = "Python reports connection failures as PNUnexpectedDisconnectCategory (§11.4)"
    static let pythonAsyncio = "Python asyncio reports transport and TLS exceptions as PNUnknownCategory (§11.3)"
    static let pythonTLS = "Python has no TLS categories: a failed TLS connection is a connection error, PNUnexpectedDisconnectCategory (§11.3)"

    static func untrusted(_ fault: String, _ what: String) -> ListenerCase {
        ListenerCase(setup: .fault(fault), name: fault, what: what, tls: true, request: .tlsUntrustedCertificate,
                     requestAlternatives: [Alternative([.tlsConnectionFailed], reason: "certificate errors reported as a failed TLS connection (Swift secureConnectionFailure)"),
                                           Alternative([.networkIssues], reason: objc67), Alternative([.unexpectedDisconnect], reason: pythonTLS),
                                           Alternative([.unknown], reason: pythonAsyncio)],
                     subscribeAlternatives: [Alternative([.tlsUntrustedCertificate], reason: "the TLS category reported for the loop instead of a disconnect"),
                                             Alternative([.networkIssues], reason: objc67)])
    }

    static func handshake(_ fault: String, _ what: String, _ category: StatusCategory = .tlsConnectionFailed) -> ListenerCase {
        ListenerCase(setup: .fault(fault), name: fault, what: what, tls: true, request: category,
                     requestAlternatives: [Alternative([.networkIssues], reason: objc67), Alternative([.unexpectedDisconnect], reason: pythonTLS),
                                           Alternative([.unknown], reason: pythonAsyncio)]
                        + (category == .tlsConnectionFailed ? [] : [Alternative([.tlsConnectionFailed], reason: "a stalled handshake reported as a TLS failure")]),
                     subscribeAlternatives: [Alternative([category], reason: "the TLS category reported for the loop instead of a disconnect"),
                                             Alternative([.networkIssues], reason: objc67)])
    }

    static func plain(_ setup: ListenerSetup, _ name: String, _ what: String, _ category: StatusCategory) -> ListenerCase {
        ListenerCase(setup: setup, name: name, what: what, tls: false, request: category,
                     requestAlternatives: [Alternative([.unexpectedDisconnect], reason: python), Alternative([.unknown], reason: pythonAsyncio)],
                     subscribeAlternatives: [Alternative([category], reason: "the transport category reported for the loop instead of a disconnect")])
    }

    static var listeners: [ListenerCase] {
        [
            ListenerCase(setup: .fault("tls-trusted"), name: "tls-trusted", what: "a trusted certificate", tls: true, request: nil,
                         requestAlternatives: [], subscribeAlternatives: []),
            untrusted("tls-self-signed", "a self-signed certificate"),
            untrusted("tls-untrusted-ca", "a certificate from an unknown CA"),
            untrusted("tls-expired", "an expired certificate"),
            untrusted("tls-not-yet-valid", "a certificate not yet valid"),
            untrusted("tls-wrong-host", "a certificate for another host"),
            handshake("tls-abort-after-client-hello", "a FIN after the ClientHello"),
            handshake("tls-reset-during-handshake", "an RST during the handshake"),
            handshake("tls-stall-handshake", "a handshake that never completes", .timeout),
            handshake("tls-plain-http", "plain HTTP bytes on the TLS port"),
            handshake("tls-version-mismatch", "only TLS 1.0/1.1 offered"),
            handshake("tls-no-shared-cipher", "no shared cipher suite"),
            ListenerCase(setup: .fault("none"), name: "plain-listener", what: "a plain listener of its own", tls: false, request: nil,
                         requestAlternatives: [], subscribeAlternatives: []),
            plain(.fault("close-on-accept"), "close-on-accept", "a FIN right after accept", .networkIssues),
            plain(.fault("reset-on-accept"), "reset-on-accept", "an RST right after accept", .networkIssues),
            ListenerCase(setup: .fault("stall-on-accept"), name: "stall-on-accept", what: "a connection that never answers", tls: false,
                         request: .timeout, requestAlternatives: [],
                         subscribeAlternatives: [Alternative([.timeout], reason: "the timeout reported as such"), FaultCatalog.silentRestart]),
            plain(.refused, "refused", "a refused connection", .networkIssues),
        ]
    }

    static func client(_ listener: ListenerCase) -> ClientOverrides {
        ClientOverrides(tls: listener.tls, nonSubscribeTimeoutMs: 400, subscribeTimeoutMs: 500, reconnectPingIntervalMs: 200)
    }

    static func suite(_ listener: ListenerCase) -> String { listener.tls ? "tls" : "transport" }

    static func requestCase(_ l: ListenerCase) -> ConformanceCase {
        var steps: [CaseStep] = [.time]
        if let category = l.request {
            steps += [.expect(category, within: 100), .expectResult(ExpectedResult(isError: true))]
        } else {
            steps += [.expectResult(.success(timetokenPaths: ["timetoken"]))]
        }
        return ConformanceCase(
            "\(suite(l)).request.\(l.name)", "Time over \(l.what) → \(l.request?.rawValue ?? "a timetoken")", spec: "§11.3",
            listener: l.setup, client: client(l), steps: steps, expected: l.request.map { [$0] } ?? [],
            alternatives: l.requestAlternatives, requires: l.tls ? [.tls] : [])
    }

    static func subscribeCase(_ l: ListenerCase) -> ConformanceCase {
        let steps: [CaseStep] = l.request == nil ? [.subscribe(["ch-t"]), .expect(.connected)]
            : [.subscribe(["ch-t"]), .expect(.unexpectedDisconnect, within: 1_200)]
        return ConformanceCase(
            "\(suite(l)).subscribe.\(l.name)", "Subscribe over \(l.what) → \(l.request == nil ? "connected" : "PNUnexpectedDisconnectCategory")",
            spec: "§12", listener: l.setup, client: client(l), steps: steps,
            expected: l.request == nil ? [.connected] : [.unexpectedDisconnect],
            tolerated: l.request.map { [$0] } ?? [], alternatives: l.subscribeAlternatives,
            timeBudget: .seconds(2), requires: l.tls ? [.tls] : [])
    }

    static var cases: [ConformanceCase] {
        listeners.map(requestCase) + listeners.map(subscribeCase)
    }
}
