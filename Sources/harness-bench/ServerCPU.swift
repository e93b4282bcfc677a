// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

/// The CPU time a process has used so far, in nanoseconds: the sum over its threads of the first
/// field of `/proc/PID/task/TID/schedstat` (time on a CPU), exact where `/proc/PID/stat` counts
/// 10 ms ticks. Nil when the process or the file is not there.
enum ServerCPU {
    static func nanoseconds(pid: Int32) -> UInt64? {
        guard let directory = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(directory) }
        var total: UInt64 = 0
        var found = false
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = name.utf8.first, first >= 48 && first <= 57 else { continue }
            guard let file = fopen("/proc/\(pid)/task/\(name)/schedstat", "r") else { continue }
            var line = [CChar](repeating: 0, count: 128)
            if fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let value = text.split(separator: " ").first.flatMap({ UInt64($0) }) {
                    total += value
                    found = true
                }
            }
            fclose(file)
        }
        return found ? total : nil
    }

    /// `after - before` as milliseconds and microseconds per item, for the bench lines.
    static func describe(before: UInt64?, after: UInt64?, items: Int, unit: String) -> String? {
        guard let before, let after, after >= before else { return nil }
        let nanos = Double(after - before)
        let perItem = nanos / 1_000 / Double(max(1, items))
        return "server_cpu_ms=\(format(nanos / 1e6)) (\(format(perItem)) us per \(unit))"
    }
}
