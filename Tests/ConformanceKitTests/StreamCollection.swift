// SPDX-License-Identifier: MIT
import HarnessTesting

/// The elements of `stream` up to and including the first that `stop` accepts; empty when none
/// came within `seconds` (scaled for the machine, counted in ``ProgressTime``).
func collect<Element: Sendable>(_ stream: AsyncStream<Element>, within seconds: Double,
                                until stop: @escaping @Sendable (Element) -> Bool) async -> [Element] {
    await withTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var seen: [Element] = []
            for await element in stream {
                seen.append(element)
                if stop(element) { return seen }
            }
            return seen
        }
        group.addTask {
            await ProgressTime.sleep(for: TestTime.duration(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? []
    }
}
