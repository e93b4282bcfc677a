// SPDX-License-Identifier: MIT
import HarnessTesting

/// Lets one timing-sensitive Pusher family run of this test target go at a time (the whole family,
/// the admin-route selection, the CLI parity runs): the family's "at once" bounds are the timing
/// under test and are not stretched, so parallel family runs on a 2-core machine would test the
/// machine instead of the client. Waiters go in arrival order.
enum PusherRunGate {
    private static let turns = TurnGate()

    /// Runs `body` once every run that asked before it has finished.
    static func exclusive<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await turns.acquire()
        do {
            let value = try await body()
            await turns.release()
            return value
        } catch {
            await turns.release()
            throw error
        }
    }
}
