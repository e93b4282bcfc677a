// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `Responder.send(_:)` over many responders, and responders that relay to another through an
/// observer: the same answers, exactly once each, as sending one by one.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct BatchedAnswerTests {
    private static func text(_ body: String) -> ResponseAction {
        .respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(body.utf8)))
    }

    /// Records what a relaying responder shows it.
    final class RecordingObserver: ResponseObserver {
        enum Event: Equatable { case responded(ResponseAction), cancelled }
        let events = Mutex<[Event]>([])
        func responded(_ action: ResponseAction) { events.withLock { $0.append(.responded(action)) } }
        func cancelled() { events.withLock { $0.append(.cancelled) } }
    }

    @Test func aRelayShowsTheAnswerToItsObserverThenPassesItOnOnce() {
        let received = Mutex<[ResponseAction]>([])
        let outer = Responder { action in received.withLock { $0.append(action) } }
        let observer = RecordingObserver()
        let relay = Responder(relayingTo: outer, observer: observer)
        #expect(relay.send(.close(.fin)))
        #expect(!relay.send(.hang))
        #expect(received.withLock { $0 } == [.close(.fin)])
        #expect(observer.events.withLock { $0 } == [.responded(.close(.fin))])
        #expect(outer.isCompleted && !outer.wasCancelled)
        // The client going away later changes nothing.
        outer.cancel()
        #expect(observer.events.withLock { $0 }.count == 1)
    }

    @Test func cancellingTheOuterResponderTellsTheObserverAndCancelsTheRelay() {
        let outer = Responder { _ in Issue.record("nothing may be sent") }
        let observer = RecordingObserver()
        let relay = Responder(relayingTo: outer, observer: observer)
        let relayHandlers = Mutex(0)
        relay.onCancel { relayHandlers.withLock { $0 += 1 } }
        outer.cancel()
        #expect(observer.events.withLock { $0 } == [.cancelled])
        #expect(relay.wasCancelled && relayHandlers.withLock { $0 } == 1)
        #expect(!relay.send(.hang))
        outer.cancel()
        #expect(observer.events.withLock { $0 } == [.cancelled] && relayHandlers.withLock { $0 } == 1)
    }

    @Test func aRelayInFrontOfACancelledResponderIsCancelledAtOnce() {
        let outer = Responder { _ in }
        outer.cancel()
        let observer = RecordingObserver()
        let relay = Responder(relayingTo: outer, observer: observer)
        #expect(relay.wasCancelled)
        #expect(observer.events.withLock { $0 } == [.cancelled])
        // In front of an answered one it is not cancelled, and what it passes on goes nowhere.
        let calls = Mutex(0)
        let answered = Responder { _ in calls.withLock { $0 += 1 } }
        answered.send(.hang)
        let late = Responder(relayingTo: answered, observer: RecordingObserver())
        #expect(!late.wasCancelled)
        late.send(.close(.fin))
        #expect(calls.withLock { $0 } == 1)
    }

    /// Notes what it is told, in one list with what the test notes itself.
    final class NotingObserver: ResponseObserver {
        let note: @Sendable (String) -> Void
        init(_ note: @escaping @Sendable (String) -> Void) { self.note = note }
        func responded(_ action: ResponseAction) { note("observed") }
        func cancelled() { note("observer cancelled") }
    }

    @Test func anObservedResponderIsTheSameObjectAndShowsTheAnswerBeforeDeliveringIt() {
        let order = Mutex<[String]>([])
        let responder = Responder { _ in order.withLock { $0.append("delivered") } }
        let observed = responder.observed(by: NotingObserver { text in order.withLock { $0.append(text) } })
        #expect(observed === responder)
        #expect(observed.send(.close(.fin)))
        #expect(!observed.send(.hang))
        #expect(order.withLock { $0 } == ["observed", "delivered"])
        // The client going away after the answer tells the observer nothing more.
        responder.cancel()
        #expect(order.withLock { $0 } == ["observed", "delivered"])
    }

    @Test func cancellingAnObservedResponderTellsTheObserverBeforeTheHandlers() {
        let order = Mutex<[String]>([])
        let responder = Responder { _ in Issue.record("nothing may be sent") }
        let observed = responder.observed(by: NotingObserver { text in order.withLock { $0.append(text) } })
        observed.onCancel { order.withLock { $0.append("handler") } }
        responder.cancel()
        responder.cancel()
        #expect(order.withLock { $0 } == ["observer cancelled", "handler"])
        #expect(observed.wasCancelled && !observed.send(.hang))
    }

    @Test func aSecondObserverOrAnEndedRequestGetsARelay() {
        let received = Mutex<[ResponseAction]>([])
        let responder = Responder { action in received.withLock { $0.append(action) } }
        let first = RecordingObserver(), second = RecordingObserver()
        let observed = responder.observed(by: first)
        let relay = observed.observed(by: second)
        #expect(relay !== responder)
        #expect(relay.send(.close(.fin)))
        #expect(received.withLock { $0 } == [.close(.fin)])
        #expect(first.events.withLock { $0 } == [.responded(.close(.fin))])
        #expect(second.events.withLock { $0 } == [.responded(.close(.fin))])
        // On a cancelled request the observer hears of it at once, through a cancelled relay.
        let gone = Responder { _ in }
        gone.cancel()
        let late = RecordingObserver()
        let lateRelay = gone.observed(by: late)
        #expect(lateRelay !== gone && lateRelay.wasCancelled)
        #expect(late.events.withLock { $0 } == [.cancelled])
    }

    @Test func aBatchShowsEachObservedAnswerOnce() {
        let received = Mutex<[String]>([])
        let plain = Responder { _ in received.withLock { $0.append("plain") } }
        let watched = Responder { _ in received.withLock { $0.append("watched") } }
        let observer = RecordingObserver()
        let observed = watched.observed(by: observer)
        Responder.send([(plain, Self.text("a")), (observed, Self.text("b")), (observed, Self.text("c"))])
        #expect(received.withLock { $0 } == ["plain", "watched"])
        #expect(observer.events.withLock { $0 } == [.responded(Self.text("b"))])
    }

    @Test func aBatchSendsEachActionOnceThroughClosuresAndRelays() {
        let received = Mutex<[String]>([])
        let direct = Responder { _ in received.withLock { $0.append("direct") } }
        let outer = Responder { _ in received.withLock { $0.append("relayed") } }
        let observer = RecordingObserver()
        let relay = Responder(relayingTo: outer, observer: observer)
        let cancelled = Responder { _ in received.withLock { $0.append("cancelled one") } }
        cancelled.cancel()
        Responder.send([(direct, Self.text("a")), (relay, Self.text("b")), (cancelled, Self.text("c")), (direct, Self.text("d"))])
        #expect(received.withLock { $0 } == ["direct", "relayed"])
        #expect(observer.events.withLock { $0 } == [.responded(Self.text("b"))])
        #expect(direct.isCompleted && relay.isCompleted && outer.isCompleted)
    }
}

extension CoreSocketTests {
    /// Batches of answers to parked requests on real connections spread over two loops.
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct BatchedAnswers {
        private static func text(_ body: String) -> ResponseAction {
            .respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(body.utf8)))
        }

        @Test func aBatchFromAnotherThreadAnswersEveryParkedRequest() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in parked.park(request, responder) }
            try withServer(loops: 2, handler: handler) { server, port in
                let clients = try (0..<6).map { _ in try BlockingTestClient(port: port) }
                var waiting: [(target: String, responder: Responder)] = []
                for (index, client) in clients.enumerated() {
                    client.send("GET /park/\(index) HTTP/1.1\r\n\r\n")
                    let (request, responder) = try #require(parked.next())
                    waiting.append((request.target, responder))
                }
                // Some answers share one action (a publish's common body), some have their own.
                let shared = Self.text("shared")
                Responder.send(waiting.map { ($0.responder, $0.target.hasSuffix("/1") ? Self.text("own") : shared) })
                for (index, client) in clients.enumerated() {
                    #expect(client.readResponse() == okResponse(index == 1 ? "own" : "shared"))
                }
                #expect(waiting.allSatisfy { !$0.responder.send(.close(.reset)) })
                // The connections stay usable: the next request on each is parked again.
                clients[0].send("GET /again HTTP/1.1\r\n\r\n")
                let (again, responder) = try #require(parked.next())
                #expect(again.target == "/again")
                responder.send(Self.text("again"))
                #expect(clients[0].readResponse() == okResponse("again"))
                #expect(server.openConnectionCount == 6)
            }
        }

        @Test func aBatchSentWhileHandlingARequestAnswersItNowAndTheParkedOnesAfter() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in
                if request.rawPath == "/park" {
                    parked.park(request, responder)
                    return
                }
                // The releasing request's own answer rides in the batch with the parked ones.
                var batch: [(Responder, ResponseAction)] = []
                while parked.count > 0, let (_, other) = parked.next() { batch.append((other, Self.text("released"))) }
                batch.append((responder, Self.text("done")))
                Responder.send(batch)
            }
            try withServer(loops: 2, handler: handler) { _, port in
                let sleepers = try (0..<4).map { _ in try BlockingTestClient(port: port) }
                for sleeper in sleepers { sleeper.send("GET /park HTTP/1.1\r\n\r\n") }
                #expect(eventually { parked.count == 4 })
                let releaser = try BlockingTestClient(port: port)
                releaser.send("GET /release HTTP/1.1\r\n\r\n")
                #expect(releaser.readResponse() == okResponse("done"))
                for sleeper in sleepers { #expect(sleeper.readResponse() == okResponse("released")) }
                // Keep-alive after a batched answer: the releaser's next request is answered too.
                releaser.send("GET /release HTTP/1.1\r\n\r\n")
                #expect(releaser.readResponse() == okResponse("done"))
            }
        }
    }
}
