// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif

// harness-bench: load generator for the mock server (see docs/server-core.md).
//   harness-bench serve-core [--port P] [--loops N]
//       runs the HTTP core with a minimal publish/subscribe bench handler (not the PubNub service)
//   harness-bench longpoll --connections N --url http://127.0.0.1:P [--sub-key K] [--pub-key K]
//       [--channel C] [--pid PID]
//       parks N subscribe long-polls, reads the server's RSS, publishes once, times the fan-out
//   harness-bench faultdelay --port P [--delays 50,100,250] [--rounds N] [--install-rounds N]
//       accuracy of `delay` faults and "installed → next request sees it" (scripts/measure-fault-delay.sh)
//   harness-bench slowclients --port P [--slow 2000] [--idle 100] [--seconds 20]
//       slow (one head byte per second) and idle connections; when the server closed them
//   harness-bench latency --port P [--seconds 10] [--interval-ms 5] [--label L]
//       `/time/0` latency on one keep-alive connection (scripts/slow-clients.sh)
//   harness-bench ws-serve [--port P] [--loops N] [--tls-records own|openssl]
//       a mock server with an echo WebSocket extension on /ws
//   harness-bench ws-idle --port P [--connections 10000] [--pid PID] [--tls]
//       opens N idle WebSockets, reads the server's RSS, checks each still echoes (scripts/bench-websocket.sh)
//   harness-bench pusher-serve [--port P] [--loops N]
//       PusherService with the demo app (WebSocket /app/KEY and the HTTP API)
//   harness-bench pusher-fanout --port P [--connections 10000] [--pid PID]
//       N Pusher connections subscribed to one channel, server RSS, one signed HTTP trigger, time until
//       all have it (scripts/bench-pusher.sh)
//   harness-bench send-floor [--connections 10000] [--threads 2] [--bytes N | --longpoll] [--rounds 5] [--spinning-reader] [--uring BATCH]
//       the floor of one `send` per connection: N loopback connections to a reader child blocked in
//       epoll, one frame each per round (Pusher frame size by default), sender CPU per send and the
//       time until the reader has the last byte (scripts/bench-send-floor.sh); --uring BATCH: the same
//       sends through io_uring, BATCH per io_uring_enter

/// Writes one line to a file descriptor, unbuffered (the bench script reads it through a pipe).
func emit(_ line: String, to fd: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())

let usage = "usage: harness-bench serve-core [--port P] [--loops N] | longpoll --connections N --url URL [--pid PID] | faultdelay --port P | slowclients --port P | latency --port P | ws-serve [--port P] [--tls-records own|openssl] | ws-idle --port P [--connections N] [--pid PID] [--tls] | pusher-serve [--port P] | pusher-fanout --port P [--connections N] [--pid PID] | send-floor [--connections N] [--threads 1|2] [--bytes N | --longpoll] [--rounds N] [--spinning-reader] [--uring BATCH]"

/// The options each command takes: those followed by a value, and bare flags.
let commandOptions: [String: (valued: Set<String>, flags: Set<String>)] = [
    "serve-core": (["--port", "--loops"], []),
    "longpoll": (["--url", "--connections", "--sub-key", "--pub-key", "--channel", "--pid"], []),
    "faultdelay": (["--port", "--delays", "--rounds", "--install-rounds"], []),
    "slowclients": (["--port", "--slow", "--idle", "--seconds"], []),
    "latency": (["--port", "--seconds", "--interval-ms", "--label"], []),
    "ws-serve": (["--port", "--loops", "--tls-records"], []),
    "ws-idle": (["--port", "--connections", "--pid"], ["--tls"]),
    "pusher-serve": (["--port", "--loops"], []),
    "pusher-fanout": (["--port", "--connections", "--pid"], []),
    "send-floor": (["--connections", "--threads", "--bytes", "--rounds", "--uring"], ["--longpoll", "--spinning-reader"]),
    "send-floor-reader": (["--port", "--connections", "--bytes", "--rounds"], ["--spin"]),
]

func fail(_ message: String) -> Never {
    emit("harness-bench: \(message)", to: 2)
    exit(2)
}

if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
    emit(usage)
    exit(0)
}
guard let command = arguments.first, let accepted = commandOptions[command] else {
    fail(arguments.first.map { "unknown command '\($0)'; \(usage)" } ?? usage)
}
// Every option is one the command takes, and every valued option has its value.
do {
    var index = 1
    while index < arguments.count {
        let argument = arguments[index]
        if accepted.valued.contains(argument) {
            guard index + 1 < arguments.count else { fail("\(command): \(argument) needs a value") }
            index += 2
        } else if accepted.flags.contains(argument) {
            index += 1
        } else {
            fail("\(command): unknown argument '\(argument)'; \(usage)")
        }
    }
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The value of a numeric option, `fallback` when it is absent; a value that is not a number fails.
func number<Value: LosslessStringConvertible>(_ name: String, _ fallback: Value) -> Value {
    guard let text = option(name) else { return fallback }
    guard let value = Value(text) else { fail("\(name) needs a number, got '\(text)'") }
    return value
}

/// The value of a numeric option that has no default.
func number<Value: LosslessStringConvertible>(_ name: String) -> Value? {
    guard let text = option(name) else { return nil }
    guard let value = Value(text) else { fail("\(name) needs a number, got '\(text)'") }
    return value
}

/// Runs a bench; an error it throws ends the program with a one-line message.
func attempt(_ body: () throws -> Void) {
    do {
        try body()
    } catch {
        fail("\(error)")
    }
}

switch arguments.first {
case "serve-core":
    BenchServer.run(port: number("--port", 0), loops: (number("--loops") as Int?))
case "longpoll":
    guard let url = option("--url") else { fail("longpoll needs --url http://HOST:PORT") }
    let settings = LongPollBench.Settings(
        url: url, connections: number("--connections", 10000),
        subscribeKey: option("--sub-key") ?? "bench", publishKey: option("--pub-key") ?? "bench",
        channel: option("--channel") ?? "bench-ch", serverPID: (number("--pid") as Int32?))
    attempt {
        try LongPollBench(settings).run()
    }
case "faultdelay":
    guard let port = (number("--port") as Int?) else { fail("faultdelay needs --port P") }
    let settings = FaultDelayBench.Settings(
        port: port, delays: (option("--delays") ?? "50,100,250").split(separator: ",").map { piece in
            guard let delay = Int(piece) else { fail("--delays needs numbers separated by commas, got '\(piece)'") }
            return delay
        },
        rounds: number("--rounds", 200), installRounds: number("--install-rounds", 1000))
    attempt {
        try FaultDelayBench(settings: settings).run()
    }
case "slowclients":
    guard let port = (number("--port") as Int?) else { fail("slowclients needs --port P") }
    attempt {
        try SlowClientsBench.slowClients(
            port: port, slow: number("--slow", 2000), idle: number("--idle", 100),
            seconds: number("--seconds", 20.0))
    }
case "latency":
    guard let port = (number("--port") as Int?) else { fail("latency needs --port P") }
    attempt {
        try SlowClientsBench.latency(
            port: port, seconds: number("--seconds", 10.0),
            intervalMs: number("--interval-ms", 5), label: option("--label") ?? "latency")
    }
case "ws-serve":
    WebSocketIdleBench.serve(port: number("--port", 0), loops: (number("--loops") as Int?), tlsRecords: option("--tls-records"))
case "ws-idle":
    guard let port = (number("--port") as Int?) else { fail("ws-idle needs --port P") }
    attempt {
        try WebSocketIdleBench.idle(
            port: port, connections: number("--connections", 10000), serverPID: (number("--pid") as Int32?),
            tls: arguments.contains("--tls"))
    }
case "pusher-serve":
    PusherFanoutBench.serve(port: number("--port", 0), loops: (number("--loops") as Int?))
case "pusher-fanout":
    guard let port = (number("--port") as Int?) else { fail("pusher-fanout needs --port P") }
    attempt {
        try PusherFanoutBench.fanout(
            port: port, connections: number("--connections", 10000), serverPID: (number("--pid") as Int32?))
    }
case "send-floor":
    var settings = SendFloorBench.Settings()
    settings.connections = number("--connections", 10000)
    settings.threads = number("--threads", 2)
    settings.bytes = (number("--bytes") as Int?)
        ?? (arguments.contains("--longpoll") ? SendFloorBench.longPollAnswerSize : SendFloorBench.pusherFrameSize)
    settings.rounds = number("--rounds", 5)
    settings.spinningReader = arguments.contains("--spinning-reader")
    settings.uringBatch = (number("--uring") as Int?) ?? 0
    guard settings.connections > 0, settings.bytes > 0, (1...2).contains(settings.threads), (0...4096).contains(settings.uringBatch) else {
        fail("send-floor needs --connections > 0, --bytes > 0, --threads 1 or 2 and --uring 0-4096")
    }
    attempt {
        try SendFloorBench.run(settings, executable: "/proc/self/exe")
    }
case "send-floor-reader":
    guard let port = (number("--port") as Int?) else { fail("send-floor-reader needs --port P") }
    attempt {
        try SendFloorBench.read(
            port: port, connections: number("--connections", 10000),
            bytes: number("--bytes", 1), rounds: number("--rounds", 5),
            spin: arguments.contains("--spin"))
    }
default:
    fail(usage)
}
