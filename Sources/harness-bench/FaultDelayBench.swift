// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

/// Measures how accurately `delay` faults delay an answer, and whether a plan installed over
/// `/__admin/` takes effect for the very next request.
///
/// Delay accuracy: one keep-alive connection alternates an undelayed publish and the same publish
/// carrying `d=1`, which the plan's rule delays by `ms`. Error = delayed − undelayed − `ms`.
/// Installation: each round installs a plan faulting the next publish with 503 (over a second
/// keep-alive connection), and as soon as the 200 answer is read, publishes; a 200 is a miss.
struct FaultDelayBench {
    struct Settings {
        var host = "127.0.0.1"
        var port: Int
        var delays: [Int]
        var rounds: Int
        var installRounds: Int
    }

    let settings: Settings

    func run() throws {
        let probe = try KeepAliveClient(host: settings.host, port: settings.port)
        let admin = try KeepAliveClient(host: settings.host, port: settings.port)
        let key = "bench-delay-\(getpid())"
        let publish = "/publish/bench/\(key)/0/bench-ch/0/%22x%22?uuid=bench"
        for _ in 0..<20 { _ = try probe.get(publish) }  // warm up the connection and the service
        for ms in settings.delays {
            let plan = #"{"rules":[{"id":"d","match":{"query":{"d":"1"}},"fault":{"kind":"delay","ms":\#(ms)}}]}"#
            guard try admin.request("PUT", "/__admin/plans/\(key)", body: plan).status == 200 else {
                throw BenchError(description: "installing the delay plan failed")
            }
            var errors: [Double] = []
            var late: [Double] = []
            for _ in 0..<settings.rounds {
                let plain = try probe.get(publish).milliseconds
                let delayed = try probe.get(publish + "&d=1").milliseconds
                errors.append(delayed - plain - Double(ms))
                late.append(delayed - Double(ms))
            }
            emit(Self.summary("delay \(ms) ms, \(settings.rounds) pairs: delayed - undelayed - ms", errors))
            // Never negative unless the delay fired early: the answer cannot come before `ms` has passed.
            emit(Self.summary("delay \(ms) ms: delayed - ms", late))
        }

        var misses = 0
        var installTimes: [Double] = []
        let plan = #"{"rules":[{"id":"next","times":1,"fault":{"kind":"status","status":503}}]}"#
        for _ in 0..<settings.installRounds {
            let installed = try admin.request("PUT", "/__admin/plans/\(key)", body: plan)
            guard installed.status == 200 else { throw BenchError(description: "install answered \(installed.status)") }
            installTimes.append(installed.milliseconds)
            if try probe.get(publish).status != 503 { misses += 1 }
        }
        _ = try admin.request("DELETE", "/__admin/plans/\(key)", body: "")
        emit("install over HTTP then publish at once: \(misses) misses in \(settings.installRounds) rounds")
        emit(Self.summary("install round trip (ms)", installTimes))
    }

    static func summary(_ title: String, _ values: [Double]) -> String {
        guard !values.isEmpty else { return "\(title): no samples" }
        let sorted = values.sorted()
        let mean = values.reduce(0, +) / Double(values.count)
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        let worst = sorted.map(abs).max() ?? 0
        return "\(title): mean \(format3(mean)) p50 \(format3(percentile(0.5))) p99 \(format3(percentile(0.99))) "
            + "min \(format3(sorted[0])) max \(format3(sorted[sorted.count - 1])) max|error| \(format3(worst))"
    }
}

func format3(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return String(scaled)
}

/// A blocking HTTP/1.1 client on one keep-alive connection; answers must carry `Content-Length`.
final class KeepAliveClient {
    struct Answer {
        var status: Int
        var milliseconds: Double
    }

    private let fd: Int32
    private var pending: [UInt8] = []

    init(host: String, port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0, cposix_connect(fd, host, Int32(port)) == 0 else {
            throw BenchError(description: "connect \(host):\(port): errno \(errno)")
        }
        _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    deinit { close(fd) }

    func get(_ target: String) throws -> Answer { try request("GET", target, body: nil) }

    /// Sends one request and reads its answer; the time runs from before the send to the last byte.
    func request(_ method: String, _ target: String, body: String?) throws -> Answer {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: bench\r\n"
        if let body { text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" } else { text += "\r\n" }
        let bytes = Array(text.utf8)
        let start = ContinuousClock.now
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard n > 0 else { throw BenchError(description: "send: errno \(errno)") }
            offset += n
        }
        var buffer = [UInt8](repeating: 0, count: 16384)
        for _ in 0..<100_000 {
            if let (status, length) = Self.framed(pending) {
                pending.removeSubrange(..<length)
                let elapsed = ContinuousClock.now - start
                let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                return Answer(status: status, milliseconds: ms)
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 10_000) > 0 else { throw BenchError(description: "no answer to \(target)") }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError(description: "connection ended (\(n), errno \(errno))") }
            pending += buffer[..<n]
        }
        throw BenchError(description: "answer to \(target) never completed")
    }

    /// The status and total length of the first complete response in `bytes`.
    private static func framed(_ bytes: [UInt8]) -> (Int, Int)? {
        guard let length = bytes.withUnsafeBufferPointer({ LongPollBench.frameLength($0) }) else { return nil }
        // The status code: the digits after the first space of the status line.
        let status = bytes.drop { $0 != 32 }.dropFirst().prefix { $0 >= 48 && $0 <= 57 }
            .reduce(0) { $0 * 10 + Int($1 - 48) }
        return (status, length)
    }
}
