// SPDX-License-Identifier: MIT
import Synchronization

/// What every connection of one server shares: the handler, the limits and the counters.
final class ServerCore: Sendable {
    let handler: any RequestHandler
    /// The answer to a request that cannot be framed (the application's, e.g. PubNub's balancer body).
    let parseErrorResponse: HTTPParseErrorResponder
    let limits: HTTPRequestParser.Limits
    let maxQueuedRequests: Int
    let finDrainNanos: UInt64
    let openConnections = Atomic<Int>(0)
    private let connectionIDs = Atomic<UInt64>(0)

    init(
        handler: any RequestHandler, parseErrorResponse: @escaping HTTPParseErrorResponder,
        limits: HTTPRequestParser.Limits, maxQueuedRequests: Int, finDrainNanos: UInt64
    ) {
        self.handler = handler
        self.parseErrorResponse = parseErrorResponse
        self.limits = limits
        self.maxQueuedRequests = maxQueuedRequests
        self.finDrainNanos = finDrainNanos
    }

    func nextConnectionID() -> UInt64 { connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// Carries a loop-confined object inside `@Sendable` closures.
// `value` is only dereferenced on the thread of the loop that owns it (callers hop there first).
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
