// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix
import Synchronization

/// N event loops, each on its own thread, with round-robin placement of new work.
final class EventLoopGroup: Sendable {
    let loops: [EventLoop]
    private let threads = Mutex<[pthread_t]>([])
    private let nextIndex = Atomic<Int>(0)

    init(count: Int) throws(HTTPServerError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) { loops.append(try EventLoop(index: index)) }
        self.loops = loops
    }

    /// Starts one thread per loop.
    func start() throws(HTTPServerError) {
        for loop in loops {
            let box = Unmanaged.passRetained(loop).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { raw in
                let loop = Unmanaged<EventLoop>.fromOpaque(raw!).takeRetainedValue()
                loop.run()
                return nil
            }, box)
            guard result == 0 else {
                Unmanaged<EventLoop>.fromOpaque(box).release()
                throw .system("pthread_create", result)
            }
            threads.withLock { $0.append(thread) }
        }
    }

    /// The next loop in round-robin order.
    func next() -> EventLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// The loop whose thread is calling, if any.
    var current: EventLoop? { loops.first { $0.inLoop } }

    /// Stops every loop and joins its thread; a no-op for threads already joined.
    /// Called from a loop thread, it only requests the stop (a thread cannot join itself).
    func stopAndJoin() {
        for loop in loops { loop.requestStop() }
        guard current == nil else { return }
        let joined = threads.withLock { list -> [pthread_t] in
            defer { list.removeAll() }
            return list
        }
        for (index, thread) in joined.enumerated() {
            // Joined in slices of 200 ms, waking the loop again between them, so that a lost
            // wake-up can delay the stop but never hang it.
            while cposix_timed_join(thread, 200) == ETIMEDOUT {
                if index < loops.count { loops[index].wake() }
            }
        }
        // Every loop thread has exited: running the leftover tasks here cannot race with them.
        for loop in loops { loop.finalDrain() }
    }
}

/// The `Scheduler` of the server: timers on the calling loop, or on the next loop from other threads.
struct LoopScheduler: Scheduler {
    let group: EventLoopGroup

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let loop = group.current ?? group.next()
        return loop.scheduleSendable(afterNanos: delay.clampedNanoseconds, work)
    }
}
