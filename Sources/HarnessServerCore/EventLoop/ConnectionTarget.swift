// SPDX-License-Identifier: MIT

/// The transport's end of a `Responder`: a connection, whose answers are executed on its event
/// loop. (The request's number is the responder's: one responder serves request after request.)
// @unchecked Sendable: `connection` is used only on `loop`'s thread: `deliver` checks `inLoop`
// first and otherwise hands it to the loop, as `LoopBound` does (without an object per request).
struct ConnectionTarget: @unchecked Sendable {
    let connection: Connection
    let loop: EventLoop

    /// The connection, on its loop (debug builds trap elsewhere).
    var onLoop: Connection {
        loop.assertInLoop("ConnectionTarget.connection")
        return connection
    }

    /// Delivers one answer: written now when the handler answers while being called for this
    /// very request, after the current work when answered on the loop for another request (a
    /// publish, a timer), through the loop's task queue from any other thread.
    func deliver(_ action: ResponseAction, token: UInt64) {
        if !loop.inLoop {
            loop.execute { [self] in onLoop.deliver(action, token: token) }
        } else if connection.dispatching {
            connection.deliver(action, token: token)
        } else {
            loop.executeLater { [self] in onLoop.deliver(action, token: token) }
        }
    }
}

/// The connection answers of one `Responder.send(_:)` batch, gathered per event loop.
struct LoopShares {
    /// One loop's answers.
    // @unchecked Sendable: the connections are used only in `deliverAll`, on `loop`'s thread.
    struct Share: @unchecked Sendable {
        let loop: EventLoop
        var answers: [(connection: Connection, token: UInt64, action: ResponseAction)] = []

        func deliverAll() {
            loop.assertInLoop("LoopShares.deliverAll")
            for answer in answers { answer.connection.deliver(answer.action, token: answer.token) }
        }
    }

    /// A handful of loops: a linear search beats hashing.
    private var shares: [Share] = []

    mutating func add(_ action: ResponseAction, for target: ConnectionTarget, token: UInt64) {
        let index: Int
        if let found = shares.firstIndex(where: { $0.loop === target.loop }) {
            index = found
        } else {
            shares.append(Share(loop: target.loop))
            index = shares.count - 1
        }
        shares[index].answers.append((target.connection, token, action))
    }

    /// Hands every other loop its share in one task (one wake-up each), then queues the calling
    /// loop's share behind its current work; a connection whose own request is being handled
    /// right now gets its answer at once, as `ConnectionTarget.deliver` does.
    func hand() {
        var local: Share?
        for share in shares {
            if share.loop.inLoop {
                local = share
            } else {
                share.loop.execute { share.deliverAll() }
            }
        }
        guard let local else { return }
        var later = Share(loop: local.loop)
        for answer in local.answers {
            if answer.connection.dispatching {
                answer.connection.deliver(answer.action, token: answer.token)
            } else {
                later.answers.append(answer)
            }
        }
        if !later.answers.isEmpty { later.loop.executeLater { later.deliverAll() } }
    }
}
