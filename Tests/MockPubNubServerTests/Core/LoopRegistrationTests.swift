// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix
import Testing
@testable import HarnessServerCore

/// The loop's handler table, on a loop without a thread: ids of closed registrations whose slot
/// is taken again must find no handler (an event still in the batch, a watchdog in the heap).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct LoopRegistrationTests {
    private final class Handler: LoopHandler {
        let name: String
        init(_ name: String) { self.name = name }
        func handleEvents(_ events: UInt32) {}
        func closeForShutdown() {}
    }

    @Test func aReusedSlotGetsAnotherIDAndStaleIDsFindNothing() throws {
        let loop = try EventLoop(index: 0)
        let first = cposix_eventfd(), second = cposix_eventfd(), third = cposix_eventfd()
        defer { close(first); close(second); close(third) }
        let a = Handler("a"), b = Handler("b"), c = Handler("c")
        let idA = try #require(loop.register(fd: first, events: cposix_EPOLLIN, handler: a))
        let idB = try #require(loop.register(fd: second, events: cposix_EPOLLIN, handler: b))
        #expect(idA != 0 && idB != 0 && idA != idB)
        #expect(loop.handlerCount == 2)
        loop.deregister(fd: first, id: idA)
        #expect(loop.handler(registeredAs: idA) == nil)
        #expect(loop.handlerCount == 1)
        // The freed slot is taken again, under another id.
        let idC = try #require(loop.register(fd: third, events: cposix_EPOLLIN, handler: c))
        #expect(idC != idA && idC & 0xFFFF_FFFF == idA & 0xFFFF_FFFF)
        #expect((loop.handler(registeredAs: idC) as? Handler)?.name == "c")
        #expect(loop.handler(registeredAs: idA) == nil)
        // A stale id neither rebinds nor deregisters the slot's new registration.
        loop.rebind(id: idA, to: a)
        loop.deregister(fd: first, id: idA)
        #expect((loop.handler(registeredAs: idC) as? Handler)?.name == "c")
        #expect((loop.handler(registeredAs: idB) as? Handler)?.name == "b")
        #expect(loop.handlerCount == 2)
        // Ids no registration ever had find nothing.
        #expect(loop.handler(registeredAs: 0) == nil)
        #expect(loop.handler(registeredAs: idB &+ 0x1_0000_0000) == nil)
        #expect(loop.handler(registeredAs: 1_000) == nil)
        loop.rebind(id: idB, to: a)
        #expect((loop.handler(registeredAs: idB) as? Handler)?.name == "a")
        loop.deregister(fd: second, id: idB)
        loop.deregister(fd: third, id: idC)
        #expect(loop.handlerCount == 0)
        loop.finalDrain()
    }
}
