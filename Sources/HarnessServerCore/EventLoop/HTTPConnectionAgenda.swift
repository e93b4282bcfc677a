// SPDX-License-Identifier: MIT

/// A connection's machine and the actions it decided that are not performed yet, as one value.
///
/// `Connection` keeps both in this one stored property, so that feeding the machine (the input
/// and the list it appends to) and taking the next action are one access to the connection each.
/// Those accesses stay dynamically checked for exclusivity (the machine's calls reach the parser
/// in another module, so the compiler cannot prove them exclusive); as two properties, the
/// machine and the list cost two checks per input and two per action.
struct HTTPConnectionAgenda {
    /// Every decision about requests and answers.
    var machine: HTTPConnectionMachine
    /// Actions waiting to be performed, in order; a taken one leaves a case without payload until
    /// the list is emptied. Without storage while nothing waits: storage is lent by the loop while
    /// the connection performs (`EventLoop.borrowActionStorage`), so that an idle or parked
    /// connection holds none.
    private(set) var actions: [HTTPConnectionAction] = []

    init(machine: HTTPConnectionMachine) {
        self.machine = machine
    }

    /// Bytes read from the peer (`now`, the wall clock, is asked only when they start a request).
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: @autoclosure () -> Double, loop: EventLoop) {
        if actions.capacity == 0 { actions = loop.borrowActionStorage() }
        machine.received(bytes, now: now(), into: &actions)
    }

    /// Anything else that happens to the connection.
    mutating func handle(_ input: HTTPConnectionInput, loop: EventLoop) {
        if actions.capacity == 0 { actions = loop.borrowActionStorage() }
        machine.handle(input, into: &actions)
    }

    /// The handler's answer to request `token`.
    mutating func delivered(_ action: ResponseAction, token: UInt64, loop: EventLoop) {
        if actions.capacity == 0 { actions = loop.borrowActionStorage() }
        machine.delivered(action, token: token, into: &actions)
    }

    /// The action at `index`, moved out (not copied). Past the end of the list, every action is
    /// performed: the storage goes back to the loop (the actions carry whole requests, and a
    /// parked connection must not hold room for them), a request still waiting for its answer
    /// (parked) holds no parser state, and the result is nil. (One call, one access.)
    mutating func nextAction(at index: Int, loop: EventLoop) -> HTTPConnectionAction? {
        guard index < actions.count else {
            loop.recycleActionStorage(&actions)
            machine.releaseParserWhileWaiting()
            return nil
        }
        var action = HTTPConnectionAction.flush
        swap(&action, &actions[index])
        return action
    }

    /// Tells the machine `input` (the connection closes or is upgraded) and drops every action
    /// not performed yet.
    mutating func handleDiscardingActions(_ input: HTTPConnectionInput) {
        machine.handle(input, into: &actions)
        actions.removeAll()
    }

    /// The phase and whether the machine wants input: what the epoll interest depends on.
    var interest: (phase: HTTPConnectionMachine.Phase, reading: Bool) {
        (machine.phase, machine.readingAllowed)
    }
}
