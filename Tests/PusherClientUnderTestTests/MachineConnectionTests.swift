// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import PusherClientUnderTest

/// The pure state machine: connecting, close codes, reconnect modes, delays and the attempt cap.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MachineConnectionTests {
    @Test func connectOpensTheSocketAndEstablishedReportsTheSocketID() {
        var h = MachineHarness()
        #expect(h.feed(.connect) == [.openSocket])
        #expect(h.machine.state == .connecting)
        #expect(h.feed(.socketOpened) == [.schedule(.activity, after: 120)])
        #expect(h.machine.state == .awaitingHandshake)
        let actions = h.feed(.socketText(MachineHarness.established(socketID: "45481.3166671", activityTimeout: 30)))
        #expect(h.machine.state == .connected(socketID: "45481.3166671"))
        #expect(actions.callbacks == [.connected(socketID: "45481.3166671")])
        #expect(actions.scheduled(.activity) == 30)
        #expect(h.machine.activityTimeout == 30)
    }

    @Test func ownActivityTimeoutWinsWhenLower() {
        var h = MachineHarness { $0.activityTimeout = 10 }
        let actions = h.establish(activityTimeout: 120)
        #expect(actions.scheduled(.activity) == 10)
    }

    @Test func establishedDataAsAnObjectIsAccepted() {
        var h = MachineHarness()
        h.feed(.connect)
        h.feed(.socketOpened)
        let actions = h.feed(.socketText(#"{"event":"pusher:connection_established","data":{"socket_id":"1.2","activity_timeout":120}}"#))
        #expect(actions.callbacks == [.connected(socketID: "1.2")])
    }

    @Test func establishedWithoutSocketIDIsAMalformedHandshakeAndBacksOff() {
        var h = MachineHarness()
        h.feed(.connect)
        h.feed(.socketOpened)
        let actions = h.feed(.socketText(#"{"event":"pusher:connection_established","data":"{\"activity_timeout\":120}"}"#))
        #expect(actions.contains(.abortSocket))
        guard case .disconnected(.malformedHandshake?, true)? = actions.callbacks.first else {
            Issue.record("callbacks \(actions.callbacks)")
            return
        }
        #expect(actions.callbacks.last == .willAutomaticallyReconnect(afterDelay: 5))
        #expect(actions.scheduled(.reconnect) == 5)
        #expect(h.machine.state == .waitingToReconnect)
    }

    @Test func failedInitialConnectIsReportedAndNotRetried() {
        var h = MachineHarness()
        h.feed(.connect)
        let error = PusherTransportError(.connect, "refused")
        let actions = h.feed(.socketOpenFailed(error))
        #expect(actions == [.emit(.failed(.transport(error)))])
        #expect(h.machine.state == .disconnected)
    }

    /// Close codes by class (spec §5): reconnect mode, delay and whether the error is in the fatal domain.
    @Test(arguments: [
        (1000, PusherReconnectMode.configuredDelay, false),
        (1001, .configuredDelay, false),
        (1002, .backoff, false),
        (1006, .backoff, false),
        (3999, .backoff, false),
        (4000, .none, true),
        (4001, .none, true),
        (4009, .none, true),
        (4099, .none, true),
        (4100, .backoff, false),
        (4199, .backoff, false),
        (4200, .immediately, false),
        (4201, .immediately, false),
        (4299, .immediately, false),
        (4301, .backoff, false),
    ])
    func closeCodeClasses(code: Int, mode: PusherReconnectMode, fatal: Bool) {
        #expect(PusherClosePolicy.documented.mode(forCloseCode: code) == mode)
        #expect(PusherClosePolicy.documented.isFatalDomain(code) == fatal)
        var h = MachineHarness { $0.closePolicy = .documented }
        h.establish()
        let actions = h.feed(.socketClosed(code: code, reason: "why"))
        let error = PusherConnectionError.closed(code: code, reason: "why", isFatalDomain: fatal)
        switch mode {
        case .none:
            #expect(actions.callbacks == [.disconnected(error: error, willAttemptReconnect: false)])
            #expect(!actions.opensSocket)
            #expect(h.machine.state == .disconnected)
        case .immediately:
            #expect(actions.callbacks == [.disconnected(error: error, willAttemptReconnect: true), .willAutomaticallyReconnect(afterDelay: 0)])
            #expect(actions.opensSocket)
            #expect(h.machine.state == .connecting)
        case .configuredDelay, .backoff:
            #expect(actions.callbacks == [.disconnected(error: error, willAttemptReconnect: true), .willAutomaticallyReconnect(afterDelay: 5)])
            #expect(actions.scheduled(.reconnect) == 5)
            #expect(!actions.opensSocket)
            #expect(h.machine.state == .waitingToReconnect)
        }
        #expect(actions.contains(.cancel(.activity)))
    }

    /// libPusher's `errorCode >= 400 && errorCode <= 4099`: 1002 or 3000 are reported in the fatal
    /// domain by default, yet still reconnect with backoff.
    @Test(arguments: [400, 1002, 3000, 4099])
    func libPusherFatalDomainQuirk(code: Int) {
        var h = MachineHarness()
        h.establish()
        let actions = h.feed(.socketClosed(code: code, reason: ""))
        #expect(actions.callbacks.first == .disconnected(error: .closed(code: code, reason: "", isFatalDomain: true),
                                                         willAttemptReconnect: code < 4000))
        #expect(PusherClosePolicy.libPusher.isFatalDomain(code))
        #expect(!PusherClosePolicy.libPusher.isFatalDomain(399))
        #expect(!PusherClosePolicy.libPusher.isFatalDomain(4100))
    }

    @Test func closeFrameWithoutCodeReadsAs1005() {
        var h = MachineHarness()
        h.establish()
        let actions = h.feed(.socketClosed(code: nil, reason: ""))
        #expect(actions.callbacks.first == .disconnected(error: .closed(code: 1005, reason: "", isFatalDomain: true), willAttemptReconnect: true))
        #expect(actions.scheduled(.reconnect) == 5)
    }

    @Test func socketFailureWhileConnectedReconnectsImmediately() {
        var h = MachineHarness()
        h.establish()
        let error = PusherTransportError(.endOfStream, "eof")
        let actions = h.feed(.socketFailed(error))
        #expect(actions.callbacks == [.disconnected(error: .transport(error), willAttemptReconnect: true), .willAutomaticallyReconnect(afterDelay: 0)])
        #expect(actions.opensSocket)
    }

    @Test func backoffDelaysGrowWithTheAttemptAndStopAfterThree() {
        var h = MachineHarness { $0.reconnectDelay = 2 }
        h.establish()
        var delays: [Double] = []
        var actions = h.feed(.socketClosed(code: 4100, reason: "over capacity"))
        for _ in 0..<3 {
            guard let delay = actions.scheduled(.reconnect) else { break }
            delays.append(delay)
            #expect(h.feed(.timerFired(.reconnect)) == [.openSocket])
            // The server is back but refuses again before connection_established.
            h.feed(.socketOpened)
            actions = h.feed(.socketClosed(code: 4100, reason: "over capacity"))
        }
        #expect(delays == [2, 4, 6])
        #expect(h.machine.reconnectAttempts == 3)
        #expect(actions.callbacks == [.disconnected(error: .closed(code: 4100, reason: "over capacity", isFatalDomain: false), willAttemptReconnect: false)])
        #expect(h.machine.state == .disconnected)
    }

    @Test func anEstablishedConnectionResetsTheAttemptCount() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        for round in 0..<5 {
            let actions = h.feed(.socketClosed(code: 4200, reason: ""))
            #expect(actions.callbacks.first == .disconnected(error: .closed(code: 4200, reason: "", isFatalDomain: false), willAttemptReconnect: true))
            #expect(h.machine.reconnectAttempts == 1)
            h.establish(socketID: "2.\(round)")
            #expect(h.machine.reconnectAttempts == 0)
        }
    }

    @Test func failedOpenDuringReconnectBacksOffUntilTheCap() {
        var h = MachineHarness()
        h.establish()
        h.feed(.socketClosed(code: 4200, reason: ""))
        #expect(h.machine.reconnectAttempts == 1)
        let error = PusherTransportError(.connect, "refused")
        var actions = h.feed(.socketOpenFailed(error))
        #expect(actions.callbacks == [.failed(.transport(error)), .willAutomaticallyReconnect(afterDelay: 10)])
        h.feed(.timerFired(.reconnect))
        actions = h.feed(.socketOpenFailed(error))
        #expect(actions.callbacks == [.failed(.transport(error)), .willAutomaticallyReconnect(afterDelay: 15)])
        h.feed(.timerFired(.reconnect))
        actions = h.feed(.socketOpenFailed(error))
        #expect(actions.callbacks == [.failed(.transport(error))])
        #expect(h.machine.state == .disconnected)
    }

    @Test func reconnectAutomaticallyOffNeverReconnects() {
        var h = MachineHarness { $0.reconnectAutomatically = false }
        h.establish()
        let actions = h.feed(.socketClosed(code: 4200, reason: ""))
        #expect(actions.callbacks == [.disconnected(error: .closed(code: 4200, reason: "", isFatalDomain: false), willAttemptReconnect: false)])
        #expect(h.machine.state == .disconnected)
    }

    @Test(arguments: [(0.2, 1.0), (1.0, 1.0), (7.5, 7.5), (-3, 1.0)])
    func reconnectDelayIsClampedToOneSecond(given: Double, used: Double) {
        var settings = PusherConnectionSettings()
        #expect(settings.reconnectDelay == 5)
        settings.reconnectDelay = given
        #expect(settings.reconnectDelay == used)
    }

    @Test func disconnectClosesAndReportsWithoutReconnecting() {
        var h = MachineHarness()
        h.establish()
        #expect(h.feed(.disconnect) == [.cancel(.activity), .cancel(.pong), .closeSocket(code: 1000)])
        #expect(h.machine.state == .disconnecting)
        let actions = h.feed(.socketClosed(code: 1000, reason: ""))
        #expect(actions == [.emit(.disconnected(error: nil, willAttemptReconnect: false))])
        #expect(h.machine.state == .disconnected)
    }

    @Test func disconnectWhileWaitingToReconnectCancelsTheTimer() {
        var h = MachineHarness()
        h.establish()
        h.feed(.socketClosed(code: 4100, reason: ""))
        #expect(h.feed(.disconnect) == [.cancel(.reconnect)])
        #expect(h.feed(.timerFired(.reconnect)) == [])
        #expect(h.machine.state == .disconnected)
    }

    @Test func connectWhileWaitingReconnectsNow() {
        var h = MachineHarness()
        h.establish()
        h.feed(.socketClosed(code: 4100, reason: ""))
        #expect(h.feed(.connect) == [.cancel(.reconnect), .openSocket])
    }
}

extension MachineConnectionTests {
    @Test func connectAfterDisconnectResubscribesEverything() {
        var h = MachineHarness()
        h.feed(.subscribe(channel: "news"))
        h.establish(socketID: "1.1")
        h.feed(.socketText(MachineHarness.succeeded("news")))
        h.feed(.disconnect)
        h.feed(.socketClosed(code: 1000, reason: ""))
        #expect(h.machine.status(of: "news") == .pending)
        #expect(h.establish(socketID: "2.2").sent == [#"{"event":"pusher:subscribe","data":{"channel":"news"}}"#])
    }

    @Test func subscribeWhileAwaitingTheHandshakeWaitsForIt() {
        var h = MachineHarness()
        h.feed(.connect)
        h.feed(.socketOpened)
        #expect(h.feed(.subscribe(channel: "news")) == [])
        #expect(h.feed(.socketText(MachineHarness.established(socketID: "1.1"))).sent == [#"{"event":"pusher:subscribe","data":{"channel":"news"}}"#])
    }

    @Test func noConnectionEstablishedWithinTheActivityTimeoutPingsThenGivesUp() {
        var h = MachineHarness { $0.activityTimeout = 4; $0.pongTimeout = 2 }
        h.feed(.connect)
        #expect(h.feed(.socketOpened) == [.schedule(.activity, after: 4)])
        #expect(h.feed(.timerFired(.activity)).sent == [#"{"event":"pusher:ping"}"#])
        let actions = h.feed(.timerFired(.pong))
        #expect(actions.first == .abortSocket)
        #expect(actions.opensSocket)
    }
}

extension MachineConnectionTests {
    @Test func settingsChangedAtRunTimeApplyToTheNextLoss() {
        var h = MachineHarness()
        h.establish()
        var settings = h.machine.settings
        settings.reconnectDelay = 8
        #expect(h.feed(.updateSettings(settings)) == [])
        #expect(h.feed(.socketClosed(code: 4100, reason: "")).scheduled(.reconnect) == 8)
        h.feed(.timerFired(.reconnect))
        h.establish(socketID: "2.2")
        settings.reconnectAutomatically = false
        h.feed(.updateSettings(settings))
        #expect(h.feed(.socketClosed(code: 4200, reason: "")).callbacks
            == [.disconnected(error: .closed(code: 4200, reason: "", isFatalDomain: false), willAttemptReconnect: false)])
    }
}
