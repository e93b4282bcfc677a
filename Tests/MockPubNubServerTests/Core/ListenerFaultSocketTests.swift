// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

extension CoreSocketTests {
    /// Listener faults that need no TLS library, as the client sees them.
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ListenerFaults {
        private let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]

        private func observe(_ fault: ListenerFault, send: [UInt8]?, timeoutMs: Int32 = 3000) throws
            -> (bytes: [UInt8], end: BlockingTestClient.End)
        {
            try withServer(handler: echoHandler) { server, _ in
                let address = try server.addListener(host: "127.0.0.1", port: 0, fault: fault)
                let client = try BlockingTestClient(port: address.port)
                if let send { client.send(send) }
                return client.readToEnd(timeoutMs: timeoutMs)
            }
        }

        @Test func closeOnAcceptIsACleanEOF() throws {
            let result = try observe(.closeOnAccept, send: nil)
            #expect(result.bytes == [])
            #expect(result.end == .eof)
        }

        @Test func resetOnAcceptIsECONNRESET() throws {
            let result = try observe(.resetOnAccept, send: nil)
            #expect(result.bytes == [])
            #expect(result.end == .error(ECONNRESET))
        }

        @Test(arguments: [ListenerFault.stallOnAccept, .tlsStallHandshake])
        func stallNeverAnswers(fault: ListenerFault) throws {
            let result = try observe(fault, send: clientHello, timeoutMs: 150)
            #expect(result.bytes == [])
            #expect(result.end == .timedOut)
        }

        @Test func abortAfterClientHelloIsEOF() throws {
            let result = try observe(.tlsAbortAfterClientHello, send: clientHello)
            #expect(result.bytes == [])
            #expect(result.end == .eof)
        }

        @Test func resetDuringHandshakeIsECONNRESET() throws {
            let result = try observe(.tlsResetDuringHandshake, send: clientHello)
            #expect(result.bytes == [])
            #expect(result.end == .error(ECONNRESET))
        }

        @Test func plainHTTPAnswerOnATLSPort() throws {
            let result = try observe(.tlsPlainHTTP, send: clientHello)
            #expect(result.bytes == FaultedSocket.plainHTTPAnswer)
            #expect(String(decoding: result.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(result.end == .eof)
        }

        @Test func queuedFaultsHitTheNextConnectionsOnly() throws {
            try withServer(handler: echoHandler) { server, port in
                server.queueConnectionFaults([.resetOnAccept, .closeOnAccept], port: port)
                let first = try BlockingTestClient(port: port)
                #expect(first.readToEnd().end == .error(ECONNRESET))
                let second = try BlockingTestClient(port: port)
                #expect(second.readToEnd().end == .eof)
                let third = try BlockingTestClient(port: port)
                third.send("GET /ok HTTP/1.1\r\n\r\n")
                #expect(third.readResponse() == okResponse("GET /ok "))
            }
        }

        @Test func tlsCertificateFaultsNeedAStreamFactory() throws {
            try withServer(handler: echoHandler) { server, _ in
                #expect(throws: HTTPServerError.self) { try server.addListener(host: "127.0.0.1", port: 0, fault: .tlsExpired) }
            }
        }

        @Test func removedListenerRefusesAndReservedPortRefuses() throws {
            try withServer(handler: echoHandler) { server, _ in
                let extra = try server.addListener(host: "127.0.0.1", port: 0)
                let client = try BlockingTestClient(port: extra.port)
                client.send("GET /before HTTP/1.1\r\n\r\n")
                #expect(client.readResponse() == okResponse("GET /before "))
                server.removeListener(port: extra.port)
                #expect(eventually { (try? BlockingTestClient(port: extra.port)) == nil })
                // The connection accepted before removal keeps working.
                client.send("GET /after HTTP/1.1\r\n\r\n")
                #expect(client.readResponse() == okResponse("GET /after "))
                let refused = try server.reserveRefusedPort()
                #expect(throws: BlockingTestClient.ClientError.self) { try BlockingTestClient(port: refused.port) }
            }
        }
    }
}
