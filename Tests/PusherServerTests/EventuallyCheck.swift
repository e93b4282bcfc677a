// SPDX-License-Identifier: MIT
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 2 ms for up to 5 s (state that settles on another thread).
func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
    for _ in 0..<5000 where DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}
