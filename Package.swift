// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// Linux only: the server's event loop is epoll and eventfd (Sources/CPosix refuses other systems).
let package = Package(
    name: "pubnub-harness",
    products: [
        .executable(name: "pubnub-harness", targets: ["pubnub-harness"]),
        .library(name: "MockPubNubServer", targets: ["MockPubNubServer"]),
        .library(name: "ClientUnderTest", targets: ["ClientUnderTest"]),
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        .library(name: "PubNubCrypto", targets: ["PubNubCrypto"]),
        .library(name: "PubNubToken", targets: ["PubNubToken"]),
        .library(name: "HarnessHTTPClient", targets: ["HarnessHTTPClient"]),
        .library(name: "MockPusher", targets: ["MockPusher"]),
        .library(name: "HarnessWebSocket", targets: ["HarnessWebSocket"]),
        .library(name: "PusherClientUnderTest", targets: ["PusherClientUnderTest"]),
        .library(name: "HarnessPrimitives", targets: ["HarnessPrimitives"]),
        .library(name: "HarnessHTTP", targets: ["HarnessHTTP"]),
        .library(name: "HarnessServerCore", targets: ["HarnessServerCore"]),
        .library(name: "HarnessRecording", targets: ["HarnessRecording"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // CBOR (RFC 8949) for Access Manager v3 tokens: Debian's libcbor (docs/access-manager.md).
        .systemLibrary(name: "CCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        // NaCl secretbox (XSalsa20-Poly1305) for Pusher encrypted channels: Debian's libsodium. OpenSSL 3 has
        // ChaCha20 but no (X)Salsa20, and Swift Crypto's AEADs are ChaCha20-Poly1305 and AES-GCM only.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .target(name: "CPosix"),
        // SSSE3/AVX2 base64 kernels, chosen at run time from CPUID (the scalar code is in HarnessPrimitives).
        .target(name: "CBase64"),
        // AES-256-CBC encryption with AES-NI, base64-encoding finished blocks while the next ones run (docs/crypto.md).
        .target(name: "CAESCBC", dependencies: ["CBase64"]),
        .target(name: "HarnessJSON", swiftSettings: strict),
        // Digests, HMAC, constant-time compare, hex/base64/base64url, percent coding, SplitMix64: the one
        // home of these primitives (docs/architecture.md).
        .target(name: "HarnessPrimitives", dependencies: ["CBase64", "COpenSSL"], swiftSettings: strict),
        .target(name: "PubNubCrypto", dependencies: ["CAESCBC", "COpenSSL", "HarnessJSON", "HarnessPrimitives"], swiftSettings: strict),
        // Pure HTTP/1.1 values, request parser, response encoder and response-head reader (no sockets).
        .target(name: "HarnessHTTP", dependencies: ["HarnessPrimitives"], swiftSettings: strict),
        // Access Manager v3 tokens: the CBOR value model on libcbor, token encoding and parsing.
        .target(name: "PubNubToken", dependencies: ["CCBOR", "HarnessJSON", "PubNubCrypto"], swiftSettings: strict),
        // The protocol-neutral transport: epoll reactor, listeners, HTTP and WebSocket connections, TLS,
        // listener faults and the host that routes requests to protocol modules.
        .target(
            name: "HarnessServerCore",
            dependencies: [
                "COpenSSL", "CPosix", "HarnessHTTP", "HarnessPrimitives", "HarnessWebSocket",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The PubNub module on the core: service, faults, journal, admin API, and the `MockServer` façade.
        .target(
            name: "MockPubNubServer",
            dependencies: [
                "COpenSSL", "CPosix", "CZlib", "HarnessJSON", "HarnessPrimitives", "HarnessServerCore", "PubNubCrypto", "PubNubToken",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "HarnessHTTPClient", dependencies: ["COpenSSL", "CPosix", "HarnessHTTP"], swiftSettings: strict),
        // Pusher Channels protocol core: pure (inputs in, actions out), no sockets (docs/pusher.md).
        .target(name: "MockPusher", dependencies: ["HarnessJSON", "HarnessPrimitives"], swiftSettings: strict),
        // Pusher encrypted channels' payloads (docs/pusher.md, "Encrypted channels"): secretbox on libsodium.
        .target(name: "PusherCrypto", dependencies: ["CSodium", "HarnessJSON", "HarnessPrimitives"], swiftSettings: strict),
        // RFC 6455 codec without sockets: frames, messages, handshakes, for both roles.
        .target(name: "HarnessWebSocket", dependencies: ["HarnessHTTP", "HarnessPrimitives"], swiftSettings: strict),
        .target(
            name: "ClientUnderTest", dependencies: ["HarnessHTTPClient", "HarnessJSON", "HarnessPrimitives", "PubNubCrypto", "PubNubToken"], swiftSettings: strict
        ),
        // A Pusher Channels client modelled on libPusher: a pure connection state machine and a thin
        // WebSocket transport on HarnessHTTPClient streams.
        .target(
            name: "PusherClientUnderTest", dependencies: ["CPosix", "HarnessHTTP", "HarnessHTTPClient", "HarnessJSON", "HarnessPrimitives", "HarnessWebSocket", "PusherCrypto"], swiftSettings: strict
        ),
        .target(
            name: "ConformanceKit", dependencies: ["HarnessJSON", "MockPubNubServer", "PubNubCrypto", "HarnessHTTPClient", "MockPusher", "HarnessWebSocket", "PusherServer", "PusherCrypto", "HarnessPrimitives"],
            swiftSettings: strict
        ),
        // Recordings of live traffic: the recording proxy, redaction, verify (replay and compare) and
        // playback (docs/recordings.md).
        .target(
            name: "HarnessRecording",
            dependencies: [
                "ConformanceKit", "HarnessHTTP", "HarnessHTTPClient", "HarnessJSON", "HarnessPrimitives", "MockPubNubServer", "PubNubToken",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "BuiltInAdapter", dependencies: ["ConformanceKit", "ClientUnderTest", "PusherClientUnderTest", "HarnessJSON", "PubNubToken"], swiftSettings: strict),
        .executableTarget(
            name: "pubnub-harness",
            dependencies: [
                "MockPubNubServer", "ConformanceKit", "BuiltInAdapter", "PubNubCrypto", "HarnessHTTPClient", "MockPusher", "PusherServer",
                "HarnessRecording",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Pusher Channels on the mock server's listeners: the WebSocket bridge to MockPusher, the HTTP API,
        // webhooks and Pusher faults (docs/pusher.md).
        .target(
            name: "PusherServer",
            dependencies: ["MockPusher", "HarnessServerCore", "HarnessHTTPClient", "HarnessWebSocket", "HarnessJSON", "HarnessPrimitives"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "harness-bench", dependencies: ["COpenSSL", "CPosix", "HarnessServerCore", "MockPusher", "PusherServer"], swiftSettings: strict),
        // Test support shared by every test target: blocking client, scripted server, response reader.
        .target(name: "HarnessTesting", dependencies: ["COpenSSL", "CPosix", "HarnessHTTP", "HarnessPrimitives", "HarnessServerCore", "HarnessWebSocket"], path: "Tests/HarnessTesting", swiftSettings: strict),
        .testTarget(name: "HarnessJSONTests", dependencies: ["HarnessJSON", "HarnessTesting", "PubNubCrypto"], swiftSettings: strict),
        .testTarget(name: "HarnessPrimitivesTests", dependencies: ["HarnessPrimitives"], swiftSettings: strict),
        .testTarget(name: "HarnessHTTPTests", dependencies: ["HarnessHTTP"], swiftSettings: strict),
        .testTarget(name: "MockPusherTests", dependencies: ["HarnessJSON", "HarnessTesting", "MockPusher"], swiftSettings: strict),
        .testTarget(name: "PusherCryptoTests", dependencies: ["HarnessJSON", "HarnessPrimitives", "HarnessTesting", "PusherCrypto"], swiftSettings: strict),
        .testTarget(name: "PubNubTokenTests", dependencies: ["PubNubToken", "HarnessJSON", "PubNubCrypto"], swiftSettings: strict),
        .testTarget(name: "PubNubCryptoTests", dependencies: ["COpenSSL", "HarnessTesting", "PubNubCrypto"], swiftSettings: strict),
        .testTarget(
            name: "MockPubNubServerTests",
            dependencies: [
                "HarnessHTTP", "HarnessJSON", "HarnessPrimitives", "HarnessServerCore", "HarnessTesting", "MockPubNubServer", "PubNubToken",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Fuzz entry points (docs/reliability.md): plain functions in a library, so `swift test`
        // runs them on seeded mutations and `harness-fuzz` serves both libFuzzer and corpus replay.
        .target(name: "HarnessFuzzing", dependencies: ["MockPubNubServer", "ConformanceKit", "HarnessWebSocket"], swiftSettings: strict),
        .target(name: "CFuzzerEntry"),
        .executableTarget(name: "harness-fuzz", dependencies: ["HarnessFuzzing", "CFuzzerEntry"], swiftSettings: strict),
        .testTarget(
            name: "PusherServerTests",
            dependencies: ["PusherServer", "MockPusher", "MockPubNubServer", "HarnessTesting", "HarnessWebSocket", "HarnessHTTPClient"],
            swiftSettings: strict
        ),
        .testTarget(name: "HarnessWebSocketTests", dependencies: ["HarnessWebSocket", "HarnessHTTP"], swiftSettings: strict),
        .testTarget(name: "HarnessHTTPClientTests", dependencies: ["HarnessHTTPClient", "HarnessTesting", "HarnessServerCore"], swiftSettings: strict),
        .testTarget(name: "HarnessFuzzingTests", dependencies: ["HarnessFuzzing", "HarnessTesting"], swiftSettings: strict),
        .testTarget(
            name: "ClientUnderTestTests",
            dependencies: ["ClientUnderTest", "HarnessHTTPClient", "HarnessJSON", "HarnessTesting", "MockPubNubServer", "PubNubCrypto", "PubNubToken"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PusherClientUnderTestTests",
            dependencies: ["PusherClientUnderTest", "HarnessHTTPClient", "HarnessJSON", "HarnessTesting", "HarnessWebSocket", "MockPubNubServer", "MockPusher", "PusherServer", "CPosix", "PusherCrypto"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HarnessRecordingTests",
            dependencies: [
                "HarnessRecording", "BuiltInAdapter", "ClientUnderTest", "ConformanceKit", "HarnessHTTPClient", "HarnessJSON", "HarnessTesting",
                "MockPubNubServer", "PubNubToken",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConformanceKitTests",
            dependencies: ["ConformanceKit", "BuiltInAdapter", "PusherServer", "HarnessJSON", "HarnessTesting", "MockPubNubServer", "HarnessHTTPClient", "PubNubCrypto", "PusherCrypto"],
            swiftSettings: strict
        ),
    ]
)
