// SPDX-License-Identifier: MIT

/// Lets one timing-sensitive Pusher family run of this test target go at a time (the whole family,
/// the admin-route selection, the CLI parity runs): the family's "at once" bounds are the timing
/// under test and are not stretched, so parallel family runs on a 2-core machine would test the
/// machine instead of the client. Waiters go in arrival order.
actor PusherRunGate {
    static let shared = PusherRunGate()
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }

    /// Runs `body` once every run that asked before it has finished.
    static func exclusive<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await shared.acquire()
        do {
            let value = try await body()
            await shared.release()
            return value
        } catch {
            await shared.release()
            throw error
        }
    }
}
