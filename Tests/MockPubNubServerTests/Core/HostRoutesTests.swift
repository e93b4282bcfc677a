// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The host's routing table: first match in order, admission before the handler, fallback last.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HostRoutesTests {
    /// Answers 200 with its name as the body.
    struct Named: RequestHandler {
        let name: String
        func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
            responder.send(.respond(HTTPResponse(status: 200, headers: [:], body: Array(name.utf8))))
        }
    }

    /// An extension claiming an administrative and a plain prefix.
    struct Module: ServerExtension {
        var httpPathPrefixes: [String] { ["/__admin/mod/", "/mod/"] }
        func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
            responder.send(.respond(HTTPResponse(status: 200, headers: [:], body: Array("module".utf8))))
        }
    }

    private func answer(_ handler: any RequestHandler, _ target: String, peer: String = "127.0.0.1:5") -> (Int, String)? {
        let sink = ActionSink()
        handler.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(peer: peer), responder: sink.responder())
        guard case .respond(let response)? = sink.all.first else { return nil }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func firstMatchingRouteWinsAfterItsAdmission() {
        let split = HostRoutes.extensionRoutes([Module()], admission: loopbackAdmission(allowRemote: false))
        let table = HostRoutes(
            routes: split.administrative + [HostRoute(.exact("/__admin"), handler: Named(name: "admin")),
                                            HostRoute(.prefix("/__admin/"), handler: Named(name: "admin"))] + split.other,
            fallback: Named(name: "fallback")
        ).handler
        #expect(answer(table, "/__admin/mod/x")! == (200, "module"))
        #expect(answer(table, "/__admin/other")! == (200, "admin"))
        #expect(answer(table, "/__admin")! == (200, "admin"))
        #expect(answer(table, "/__adminx")! == (200, "fallback"))
        #expect(answer(table, "/mod/y")! == (200, "module"))
        #expect(answer(table, "/time/0")! == (200, "fallback"))
        // Administrative module routes refuse remote peers; its plain prefix does not.
        #expect(answer(table, "/__admin/mod/x", peer: "10.0.0.1:5")!.0 == 403)
        #expect(answer(table, "/mod/y", peer: "10.0.0.1:5")! == (200, "module"))
    }

    @Test func pathsAreMatchedAsStringsWhereBytesAndCharactersDiffer() {
        let table = HostRoutes(
            routes: [HostRoute(.prefix("/mod/"), handler: Named(name: "module")), HostRoute(.exact("/"), handler: Named(name: "root"))],
            fallback: Named(name: "fallback")
        ).handler
        #expect(answer(table, "/mod/caf%C3%A9")! == (200, "module"))
        #expect(answer(table, "/mod/café")! == (200, "module"))
        #expect(answer(table, "/")! == (200, "root"))
        #expect(answer(table, "/mod")! == (200, "fallback"))
        #expect(answer(table, "")! == (200, "fallback"))
        // A combining mark after the prefix's `/` joins it into one character: as a string,
        // the path does not start with `/mod/` (its bytes do).
        #expect(answer(table, "/mod/\u{301}x")! == (200, "fallback"))
        // A non-ASCII route matches canonically equivalent spellings, as strings do.
        let accented = HostRoutes(routes: [HostRoute(.exact("/caf\u{E9}"), handler: Named(name: "cafe"))],
                                  fallback: Named(name: "fallback")).handler
        #expect(answer(accented, "/cafe\u{301}")! == (200, "cafe"))
        #expect(answer(accented, "/cafe")! == (200, "fallback"))
    }

    @Test func anEmptyTableAnswers404AndTakesNoUpgrades() {
        let routes = HostRoutes()
        #expect(answer(routes.handler, "/anything")! == (404, "Not Found\n"))
        #expect(routes.upgradeRouter == nil)
        #expect(HostRoutes(upgrades: [Module()]).upgradeRouter != nil)
    }
}
