// SPDX-License-Identifier: MIT
import HarnessServerCore

extension PusherConnectionFaults {
    /// The answer of the first `refuseTransport` fault for `transport`, if the connection has one
    /// (a plain-text body naming the refusal, as a proxy's error page would).
    func refusal(of transport: PusherRefusedTransport) -> HTTPResponse? {
        for applied in faults {
            guard case let .refuseTransport(refused, status) = applied.fault, refused == transport else { continue }
            let body = "\(transport.rawValue) refused by fault rule \(applied.rule)\n"
            return HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
        }
        return nil
    }
}
