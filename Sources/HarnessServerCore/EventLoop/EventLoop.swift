// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix
import Synchronization

/// Something registered with an event loop's epoll set (a listener, a connection, a faulted socket).
protocol LoopHandler: AnyObject {
    /// Called on the loop thread with the epoll event bits.
    func handleEvents(_ events: UInt32)
    /// Called on the loop thread when the server stops: release the socket without further I/O.
    func closeForShutdown()
}

/// One reactor thread: an epoll set, an eventfd for wake-ups and cross-thread tasks, and timers.
// Every `var` here except `pending` (a Mutex) is touched only on the loop's own thread; other
// threads reach the loop only through `execute`, `scheduleSendable` and `inLoop`.
final class EventLoop: @unchecked Sendable {
    let index: Int
    private let epfd: Int32
    private let wakeFD: Int32
    private let pending = Mutex<(tasks: [@Sendable () -> Void], released: Bool)>(([], false))
    private let threadIdentity = Atomic<UInt>(0)
    private var timers = TimerHeap()
    /// The earliest deadline in `timers` (`UInt64.max` when empty), kept beside the heap: a turn
    /// with no timer due checks one number, not the heap.
    private var nextTimerDue = UInt64.max
    /// Work queued by the loop's own thread to run after the current event batch (no lock).
    private var deferred: [() -> Void] = []
    /// The head this loop encoded last (see `encode`).
    // Unchecked: loop thread only, and `encode` (its one long access) is pure: it never reaches the loop.
    @exclusivity(unchecked) private var heads = ResponseHeadCache()
    /// Room for the actions of a connection being performed, lent while it performs them (see
    /// `borrowActionStorage`), so that answering a request allocates no action list.
    private var spareActions: [HTTPConnectionAction] = []
    /// Monotonic nanoseconds read once when `epoll_wait` returned: a clock for deadlines that
    /// tolerate the length of one event batch (connection timeouts), without a clock read each.
    private(set) var batchTime: UInt64 = cposix_monotonic_nanos()
    /// The wall-clock second `wallSecond()` answers until `batchTime` reaches `wallSecondEnds`.
    private var wallSecondNow = 0
    private var wallSecondEnds: UInt64 = 0
    private let cancelledTimers = CancelledTimerCounter()
    /// The registered handlers, by slot: a registration's id is its slot (plus one, in the low 32
    /// bits; 0 is the eventfd's) and the slot's generation (the high 32 bits), so that an event
    /// finds its handler by an index, not a hash, and a stale id (an event or a watchdog of a
    /// closed registration whose slot was taken again) finds none.
    // Unchecked: loop thread only, and no access spans a call: handlers are copied out before
    // they are called, so a handler that registers or deregisters never overlaps an access.
    @exclusivity(unchecked) private var slots: [HandlerSlot] = []
    /// Slots without a handler, for the next registrations.
    private var freeSlots: [Int] = []
    /// Number of registered handlers.
    private var registeredCount = 0
    private var running = true
    /// True once the loop has exited; hand-offs arriving later close their sockets instead.
    private(set) var isStopped = false
    /// A read buffer shared by every connection of this loop (reads are synchronous on the thread).
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(index: Int) throws(HTTPServerError) {
        self.index = index
        // Descriptors go into locals first: once every stored property is set, a throw would
        // still run `deinit`, closing them a second time (possibly someone else's by then).
        let epfd = cposix_epoll_create()
        guard epfd >= 0 else { throw .system("epoll_create1", errno) }
        let wakeFD = cposix_eventfd()
        guard wakeFD >= 0 else {
            let code = errno
            close(epfd)
            throw .system("eventfd", code)
        }
        guard cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, wakeFD, cposix_EPOLLIN, 0) == 0 else {
            let code = errno
            close(epfd)
            close(wakeFD)
            throw .system("epoll_ctl(eventfd)", code)
        }
        self.epfd = epfd
        self.wakeFD = wakeFD
    }

    deinit {
        releaseDescriptors()
        scratch.deallocate()
    }

    /// Closes the epoll set and the eventfd once the thread is gone; later tasks are dropped.
    func releaseDescriptors() {
        let release = pending.withLock { state -> Bool in
            defer { state.released = true; state.tasks.removeAll() }
            return !state.released
        }
        if release {
            close(epfd)
            close(wakeFD)
        }
    }

    /// Whether the caller runs on this loop's thread.
    var inLoop: Bool { threadIdentity.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Debug builds: traps unless the caller may touch loop-only state, that is, it runs on this
    /// loop's thread, or no thread runs the loop (before `run` starts, after it returned: setup and
    /// `finalDrain`). Compiled out of release builds (`assert`).
    @inline(__always)
    func assertInLoop(_ what: @autoclosure () -> String = "", file: StaticString = #fileID, line: UInt = #line) {
        assert(mayTouchLoopState, "loop-only \(what()) called off loop \(index)'s thread", file: file, line: line)
    }

    /// On the loop's thread, or the loop has no thread right now.
    private var mayTouchLoopState: Bool {
        let owner = threadIdentity.load(ordering: .relaxed)
        return owner == 0 || owner == UInt(pthread_self())
    }

    /// Number of registered handlers (loop thread only).
    var handlerCount: Int {
        assertInLoop("handlerCount")
        return registeredCount
    }

    /// Runs `task` on the loop thread (later, even when called from it).
    func execute(_ task: @escaping @Sendable () -> Void) {
        pending.withLock { state in
            guard !state.released else { return }
            state.tasks.append(task)
            // Only the first task of a batch signals (under the lock, so that the descriptor cannot
            // be released meanwhile); the loop takes the whole queue when it wakes.
            if state.tasks.count == 1 { wakeUnderLock() }
        }
    }

    /// Runs `task` on this loop after the events being handled now (loop thread only, no lock).
    ///
    /// A handler that answers many requests at once (one publish releasing thousands of parked
    /// long-polls) queues the writes of this loop's connections here, so that it hands every
    /// other loop its share first and all loops write in parallel.
    func executeLater(_ task: @escaping () -> Void) {
        assertInLoop("executeLater")
        deferred.append(task)
    }

    /// The wire bytes of `response` as its head and its body (loop thread only): the body is the
    /// response's own array, shared by every connection answered with it, and the loop's
    /// connections share one head per response (`ResponseHeadCache`).
    /// With a `policy`, the answer carries the fields of its rule `decoration` and a `Date` (-1: none).
    func encode(
        _ response: consuming HTTPResponse, keepAlive: Bool, headRequest: Bool, http10: Bool = false,
        decoration: Int = -1, policy: Unmanaged<CORSPolicy>? = nil
    ) -> EncodedResponse {
        assertInLoop("encode")
        guard decoration >= 0, let policy else {
            return heads.encode(response, keepAlive: keepAlive, headRequest: headRequest, http10: http10)
        }
        return heads.encode(
            response, keepAlive: keepAlive, headRequest: headRequest, http10: http10,
            decoration: decoration, policy: policy, unixSecond: wallSecond())
    }

    /// The wall clock's second for `Date` lines: the real clock read once per second, the loop's
    /// batch time (monotonic) in between (loop thread only).
    private func wallSecond() -> Int {
        if batchTime < wallSecondEnds { return wallSecondNow }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        wallSecondNow = Int(now.tv_sec)
        wallSecondEnds = cposix_monotonic_nanos() &+ UInt64(max(0, 1_000_000_000 - now.tv_nsec))
        return wallSecondNow
    }

    /// Storage for a connection's action list while it performs its actions (loop thread only):
    /// the loop's spare list when free, else a new one. Give it back with `recycleActionStorage`.
    func borrowActionStorage() -> [HTTPConnectionAction] {
        assertInLoop("borrowActionStorage")
        guard spareActions.capacity > 0 else {
            var fresh: [HTTPConnectionAction] = []
            fresh.reserveCapacity(4)
            return fresh
        }
        var lent: [HTTPConnectionAction] = []
        swap(&lent, &spareActions)
        return lent
    }

    /// Takes back a performed (empty) action list, leaving `actions` without storage: an idle
    /// connection holds none, and the next connection to perform borrows it.
    func recycleActionStorage(_ actions: inout [HTTPConnectionAction]) {
        assertInLoop("recycleActionStorage")
        // One by one: performed slots hold a case without payload, and this is cheaper than the
        // generic `removeAll(keepingCapacity:)` (its element destruction goes through the
        // runtime's generic array destroy) for the few actions of a request.
        while actions.popLast() != nil {}
        if spareActions.capacity == 0 && actions.capacity <= 64 {
            swap(&spareActions, &actions)
        } else {
            actions = []
        }
    }

    /// Points the registration `id` at another handler: a connection hands its socket over (the
    /// WebSocket upgrade) without leaving and re-entering the epoll set (loop thread only).
    func rebind(id: UInt64, to handler: any LoopHandler) {
        assertInLoop("rebind")
        guard let slot = slot(of: id) else { return }
        slots[slot].handler = handler
    }

    /// Makes a sleeping `epoll_wait` return (the eventfd counter is summed, so extra writes are harmless).
    private func wakeUnderLock() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(wakeFD, $0.baseAddress, 8) }
    }

    /// Wakes the loop again without a task (any thread); `stopAndJoin` uses it while it waits.
    func wake() {
        pending.withLock { state in
            guard !state.released else { return }
            wakeUnderLock()
        }
    }

    /// Runs `work` on the loop thread after `nanoseconds` (loop thread only).
    @discardableResult
    func schedule(afterNanos nanoseconds: UInt64, _ work: @escaping () -> Void) -> TimerHandle {
        assertInLoop("schedule")
        let handle = TimerHandle(counter: cancelledTimers)
        insertTimer(deadline: cposix_monotonic_nanos() &+ nanoseconds, work: .closure(handle, work))
        return handle
    }

    /// Puts `work` into the timer heap (loop thread only).
    private func insertTimer(deadline: UInt64, work: TimerWork) {
        timers.insert(deadline: deadline, work: work)
        if deadline < nextTimerDue { nextTimerDue = deadline }
    }

    /// Arms the watchdog of the connection registered as `id` (loop thread only): when due, the
    /// loop calls its `watchTimerFired(generation:)`; to cancel, the connection moves past `generation`
    /// and calls `watchdogLeftStale()`.
    func scheduleWatchdog(afterNanos nanoseconds: UInt64, id: UInt64, generation: UInt32) {
        assertInLoop("scheduleWatchdog")
        insertTimer(deadline: cposix_monotonic_nanos() &+ nanoseconds, work: .watchdog(id: id, generation: generation))
    }

    /// Counts a watchdog entry its connection moved past (disarmed, closed, upgraded) as cancelled,
    /// so that many of them (a flood of short connections, thousands of upgrades) are purged
    /// before they fall due, as cancelled closures are.
    func watchdogLeftStale() {
        cancelledTimers.count.add(1, ordering: .relaxed)
    }

    /// Timers in the heap, and how many of them are cancelled or stale (loop thread only).
    var timerCounts: (pending: Int, cancelled: Int) { (timers.count, cancelledTimers.count.load(ordering: .relaxed)) }

    /// Whether the watchdog entry (`id`, `generation`) is still its connection's armed one.
    private func isLiveWatchdog(id: UInt64, generation: UInt32) -> Bool {
        (registeredHandler(id) as? Connection)?.ownsWatchdog(generation: generation) ?? false
    }

    /// Runs `work` on the loop thread after `nanoseconds`; callable from any thread.
    func scheduleSendable(afterNanos nanoseconds: UInt64, _ work: @escaping @Sendable () -> Void) -> TimerHandle {
        if inLoop { return schedule(afterNanos: nanoseconds, work) }
        let handle = TimerHandle(counter: cancelledTimers)
        let deadline = cposix_monotonic_nanos() &+ nanoseconds
        execute { [self] in insertTimer(deadline: deadline, work: .closure(handle, work)) }
        return handle
    }

    /// Registers `fd` for `events`; returns the registration id (loop thread only).
    func register(fd: Int32, events: UInt32, handler: any LoopHandler) -> UInt64? {
        assertInLoop("register")
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            // More than 2^32 - 1 registrations at once cannot happen (each holds a descriptor).
            slot = slots.count
            slots.append(HandlerSlot(handler: nil, generation: 0))
        }
        let id = UInt64(slots[slot].generation) << 32 | UInt64(slot + 1)
        guard cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, events, id) == 0 else {
            freeSlots.append(slot)
            return nil
        }
        slots[slot].handler = handler
        registeredCount += 1
        return id
    }

    /// Changes the event mask of a registered `fd` (loop thread only).
    func modify(fd: Int32, id: UInt64, events: UInt32) {
        assertInLoop("modify")
        _ = cposix_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, events, id)
    }

    /// The handler that gets the events of registration `id` (loop thread only).
    func handler(registeredAs id: UInt64) -> (any LoopHandler)? {
        assertInLoop("handler(registeredAs:)")
        return registeredHandler(id)
    }

    /// Removes `fd` from the epoll set and forgets its handler; call before closing `fd`.
    func deregister(fd: Int32, id: UInt64) {
        assertInLoop("deregister")
        _ = cposix_epoll_ctl(epfd, EPOLL_CTL_DEL, fd, 0, id)
        guard let slot = slot(of: id) else { return }
        slots[slot].handler = nil
        // A later registration in this slot gets another id: events and watchdogs of this one
        // (still in the current batch, or in the timer heap) find no handler.
        slots[slot].generation &+= 1
        freeSlots.append(slot)
        registeredCount -= 1
    }

    /// The slot of registration `id`, if that registration is the slot's current one.
    @inline(__always)
    private func slot(of id: UInt64) -> Int? {
        let slot = Int(truncatingIfNeeded: id & 0xFFFF_FFFF) &- 1
        guard slot >= 0, slot < slots.count, slots[slot].generation == UInt32(truncatingIfNeeded: id >> 32) else { return nil }
        return slot
    }

    /// The handler of registration `id`, if it is still registered.
    @inline(__always)
    private func registeredHandler(_ id: UInt64) -> (any LoopHandler)? {
        guard let slot = slot(of: id) else { return nil }
        return slots[slot].handler
    }

    /// Every registered handler (for a stop).
    private var registeredHandlers: [any LoopHandler] {
        slots.compactMap(\.handler)
    }

    /// Forgets every registration.
    private func removeAllHandlers() {
        slots.removeAll()
        freeSlots.removeAll()
        registeredCount = 0
    }

    /// Deregisters and closes the listener of `control` if this loop owns it (loop thread only).
    func stopListener(_ control: ListenerControl) {
        assertInLoop("stopListener")
        for case let listener as Listener in registeredHandlers where listener.control === control {
            listener.stop()
        }
    }

    /// Asks the loop to close every handler and return from `run` (any thread).
    func requestStop() {
        execute { [self] in running = false }
    }

    /// The loop body; returns after `requestStop`, having closed every registered handler.
    func run() {
        threadIdentity.store(UInt(pthread_self()), ordering: .relaxed)
        let capacity: Int32 = 256
        guard let events = cposix_epoll_events_alloc(capacity) else { return }
        defer { cposix_epoll_events_free(events) }
        while running {
            let count = cposix_epoll_wait(epfd, events, capacity, waitTimeout())
            batchTime = cposix_monotonic_nanos()
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 {
                // A timeout: take queued tasks even without a wake-up, so a lost signal delays
                // them by at most `maximumSleepMillis` instead of forever.
                drainWake()
            }
            for slot in 0..<count {
                let id = cposix_epoll_data_at(events, slot)
                if id == 0 {
                    drainWake()
                } else if let handler = registeredHandler(id) {
                    handler.handleEvents(cposix_epoll_events_at(events, slot))
                }
            }
            runTimers()
            runDeferred()
        }
        isStopped = true
        deferred.removeAll()
        heads.removeAll()
        for handler in registeredHandlers { handler.closeForShutdown() }
        removeAllHandlers()
        timers.removeAll()
        nextTimerDue = .max
        drainWake()
        // A later thread may get the same pthread_t: this loop must not look like its owner.
        threadIdentity.store(0, ordering: .relaxed)
    }

    /// Runs tasks that arrived after the loop exited (called once its thread is joined), so hand-offs close their sockets.
    func finalDrain() {
        isStopped = true
        drainWake()
        for handler in registeredHandlers { handler.closeForShutdown() }
        removeAllHandlers()
        timers.removeAll()
        nextTimerDue = .max
        deferred.removeAll()
        releaseDescriptors()
    }

    /// The longest `epoll_wait`: a lost wake-up was observed once in many test runs (a loop
    /// asleep with its first tasks queued and its eventfd at 0), so the loop never trusts the
    /// eventfd alone for longer than this.
    static let maximumSleepMillis: UInt64 = 1_000

    private func waitTimeout() -> Int32 {
        if !deferred.isEmpty { return 0 }
        let deadline = nextTimerDue
        guard deadline != .max else { return Int32(Self.maximumSleepMillis) }
        let now = cposix_monotonic_nanos()
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, Self.maximumSleepMillis))
    }

    private func drainWake() {
        let tasks = pending.withLock { state -> [@Sendable () -> Void] in
            // Never read a released descriptor: its number may already be another file's.
            guard !state.released else { return [] }
            var value: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &value) { Glibc.read(wakeFD, $0.baseAddress, 8) }
            defer { state.tasks.removeAll(keepingCapacity: true) }
            return state.tasks
        }
        for task in tasks { task() }
    }

    /// Runs the work queued by `executeLater` so far; what that work queues runs next round.
    private func runDeferred() {
        guard !deferred.isEmpty else { return }
        let batch = deferred
        deferred.removeAll(keepingCapacity: true)
        for task in batch { task() }
    }

    /// Runs, on the calling thread, what a turn of `run` runs besides the epoll events: queued
    /// tasks, the timers due by `now` (monotonic nanoseconds; later than the clock fires timers
    /// early) and deferred work. For tests that step a loop by hand; never while `run` runs.
    func step(now: UInt64 = cposix_monotonic_nanos()) {
        assertInLoop("step")
        drainWake()
        runTimers(now: now)
        runDeferred()
    }

    private func runTimers(now: UInt64 = cposix_monotonic_nanos()) {
        guard now >= nextTimerDue else {
            purgeCancelledTimers()
            return
        }
        while let entry = timers.popDue(now: now) {
            switch entry.work {
            case .closure(let handle, let work):
                if handle.isCancelled {
                    cancelledTimers.count.subtract(1, ordering: .relaxed)
                } else {
                    work()
                }
            case .watchdog(let id, let generation):
                // A closed connection has left the table; an upgraded one's id is the WebSocket's.
                if let connection = registeredHandler(id) as? Connection, connection.ownsWatchdog(generation: generation) {
                    connection.watchTimerFired(generation: generation)
                } else {
                    cancelledTimers.count.subtract(1, ordering: .relaxed)
                }
            }
        }
        nextTimerDue = timers.nextDeadline ?? .max
        purgeCancelledTimers()
    }

    /// Drops cancelled timers and stale watchdogs once they are more than half of over 1,024
    /// entries: long timeouts cancelled early (answered long-polls) would otherwise pile up until due.
    private func purgeCancelledTimers() {
        // More than half of over 1,024 means more than 512: the counter alone decides most turns.
        let cancelled = cancelledTimers.count.load(ordering: .relaxed)
        guard cancelled > 512, timers.count > 1024, cancelled * 2 > timers.count else { return }
        let removed = timers.removeCancelled { id, generation in !isLiveWatchdog(id: id, generation: generation) }
        cancelledTimers.count.subtract(removed, ordering: .relaxed)
        nextTimerDue = timers.nextDeadline ?? .max
    }
}

/// One slot of the loop's handler table: its handler (nil while free) and its generation (moved
/// on when the handler leaves, so that the slot's next registration has another id).
private struct HandlerSlot {
    var handler: (any LoopHandler)?
    var generation: UInt32
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to zero and to `UInt64.max`.
    package var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (product, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        return product &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
    }
}
