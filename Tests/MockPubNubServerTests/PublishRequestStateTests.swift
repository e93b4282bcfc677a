// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import MockPubNubServer

/// The values a publish reads once per request: its query parameters, the key's entry, the
/// channels it touched.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PublishRequestStateTests {
    private static let names = ["ptto", "meta", "custom_message_type", "store", "norep", "ttl", "seqn", "signature"]

    private static func parameter(_ parameters: PublishParameters, _ name: String) -> String? {
        switch name {
        case "ptto": parameters.ptto
        case "meta": parameters.meta
        case "custom_message_type": parameters.customMessageType
        case "store": parameters.store
        case "norep": parameters.norep
        case "ttl": parameters.ttl
        case "seqn": parameters.seqn
        case "signature": parameters.signature
        default: nil
        }
    }

    @Test func eachParameterIsTheFirstItemOfItsName() throws {
        let queries = [
            "", "uuid=u", "ptto=1&ptto=2&meta=%7B%7D&meta=x", "store=0&norep=true&ttl=5&seqn=7&signature=s",
            "custom_message_type=text-1&custom_message_type=b", "pttx=1&mets=2&stor=3&norepp=4&tt=5&seq=6&signaturE=7",
            "PTTO=1&Meta=2&ttl=&seqn", "ttl=1&ttl=2&store=&store=0", "%70tto=9&m%C3%A9ta=1&custom_message_typ=x",
            "a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&ptto=10",
        ]
        for text in queries {
            let query = try #require(HTTPRequest(method: "GET", target: "/p?" + text).queryItems)
            let parameters = PublishParameters(query)
            for name in Self.names {
                #expect(Self.parameter(parameters, name) == query[name], "\(name) in \(text)")
            }
        }
    }

    @Test func theKeyOfANameIsItsBytes() {
        #expect(PublishParameters.key("ttl") == 0x74_74_6C)
        #expect(PublishParameters.key("norep") == 0x6E_6F_72_65_70)
        #expect(PublishParameters.key("") == 0)
        let keys: [(String, UInt64)] = [
            ("ttl", PublishParameters.ttlKey), ("ptto", PublishParameters.pttoKey), ("meta", PublishParameters.metaKey),
            ("seqn", PublishParameters.seqnKey), ("store", PublishParameters.storeKey), ("norep", PublishParameters.norepKey),
        ]
        for (name, key) in keys { #expect(PublishParameters.key(name) == key, "\(name)") }
    }

    @Test func thePublishCheckFindsWhatTheGeneralCheckFinds() throws {
        for text in ["uuid=u", "ttl=abc", "seqn=-1", "ttl=1.5&seqn=x", "ttl=3&seqn=4", "ttl=&seqn="] {
            for target in ["/publish/p/s/0/c/0/1?", "/publish/p//0/c/0/1?", "/signal/p/s/0/c/0/1?"] {
                let route = try PubNubRoute.classify(HTTPRequest(method: "GET", target: target + text)).get()
                #expect(ParameterValidation.problem(in: route, publish: PublishParameters(route.query))
                    == ParameterValidation.problem(in: route), "\(target)\(text)")
            }
        }
    }

    @Test func theRegistryForgetsItsLastEntryOnEveryChange() {
        var registry = KeyRegistry()
        #expect(registry.find("a") == nil)
        let created = registry.findOrCreate("a")
        #expect(registry.find("a")?.keyspace === created.keyspace)
        #expect(registry.findOrCreate("a").keyspace === created.keyspace)
        let keyset = Keyset(subscribeKey: "a", publishKey: "p", secretKey: "s")
        registry["a"] = KeyEntry(keyspace: created.keyspace, keyset: keyset)
        #expect(registry.find("a")?.keyset?.publishKey == "p")
        registry.replaceAll { entry in entry.keyset.map { KeyEntry(keyspace: Keyspace(), keyset: $0) } }
        let replaced = registry.find("a")
        #expect(replaced != nil && replaced?.keyspace !== created.keyspace)
        registry["a"] = nil
        #expect(registry.find("a") == nil)
        _ = registry.findOrCreate("b")
        #expect(registry.find("a") == nil)
        #expect(Set(registry.keys) == ["b"])
    }

    @Test func touchedChannelsKeepEveryChannelOnce() {
        var touched = TouchedChannels()
        #expect(touched.isEmpty && touched.set.isEmpty)
        touched.append("a")
        #expect(!touched.isEmpty && touched.set == ["a"])
        touched.append("b")
        touched.append("a")
        #expect(touched.set == ["a", "b"])
        touched.removeAll()
        #expect(touched.isEmpty && touched.set.isEmpty)
    }
}

/// `PublishPath.text`, the publish path's short segments made strings.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PublishPathTextTests {
    @Test func aSegmentBecomesTheStringTheGeneralDecodingGives() {
        let pieces: [[UInt8]] = [
            [], Array("bench".utf8), Array("bench-ch".utf8), Array("fifteen-bytes-x".utf8),
            Array("sixteen-bytes-xx".utf8), Array("pé".utf8), Array("ch€".utf8), Array("a%20b".utf8),
            [0x61, 0xFF, 0x62], [0xC3], Array("%".utf8), Array("%ZZ".utf8),
        ]
        for piece in pieces {
            piece.withUnsafeBufferPointer { bytes in
                let fast = PublishPath.text(bytes)
                let general = HTTPRequest.decode(bytes, plusAsSpace: false)
                #expect(fast == general, "\(piece)")
                #expect(fast.map { Array($0.utf8) } == general.map { Array($0.utf8) }, "\(piece)")
            }
        }
    }

    @Test func aQueryPieceBecomesTheStringTheGeneralDecodingGives() {
        let pieces: [[UInt8]] = [
            [], Array("uuid".utf8), Array("a+b".utf8), Array("%22hello%22".utf8), Array("%2B+%20".utf8),
            Array("%C3%A9".utf8), Array("%e2%82%ac".utf8), Array("%FF".utf8), Array("%2".utf8), Array("ab%".utf8),
            Array("%G1".utf8), Array("%00%7f".utf8), Array("fifteen+bytes-x".utf8), Array("%22sixteen-byt%22".utf8),
            Array("pé".utf8), [0x61, 0xFF, 0x62],
        ]
        for piece in pieces {
            piece.withUnsafeBufferPointer { bytes in
                for plusAsSpace in [false, true] {
                    let fast = PublishPath.decoded(bytes, plusAsSpace: plusAsSpace)
                    let general = HTTPRequest.decode(bytes, plusAsSpace: plusAsSpace)
                    #expect(fast == general, "\(piece) \(plusAsSpace)")
                    #expect(fast.map { Array($0.utf8) } == general.map { Array($0.utf8) }, "\(piece) \(plusAsSpace)")
                }
                #expect(PublishPath.queryText(bytes) == HTTPRequest.decode(bytes, plusAsSpace: true), "\(piece)")
            }
        }
    }

    @Test func everyShortLengthWithASpecialByteAtEveryPositionDecodesAsTheGeneralPath() {
        // The plain start is checked and copied eight and four bytes at a time: a `%` escape, a
        // `+`, a non-ASCII byte or a malformed escape at any position of any length up to 17 (past
        // the small-string limit) must give the general decoding's string.
        let specials: [[UInt8]] = [
            Array("%41".utf8), Array("%2B".utf8), Array("+".utf8), [0xC3, 0xA9], [0x80], [0xFF], Array("%".utf8),
            Array("%4".utf8), Array("%G0".utf8), Array("$".utf8), Array("&".utf8), Array("*".utf8), Array("\u{7F}".utf8),
        ]
        for length in 0...17 {
            for position in 0...length {
                for special in specials {
                    let piece = Array(repeating: UInt8(ascii: "b"), count: position) + special
                        + Array(repeating: UInt8(ascii: "c"), count: length - position)
                    piece.withUnsafeBufferPointer { bytes in
                        for plusAsSpace in [false, true] {
                            let fast = PublishPath.decoded(bytes, plusAsSpace: plusAsSpace)
                            let general = HTTPRequest.decode(bytes, plusAsSpace: plusAsSpace)
                            #expect(fast.map { Array($0.utf8) } == general.map { Array($0.utf8) }, "\(piece) \(plusAsSpace)")
                        }
                    }
                }
            }
            let plain = Array(repeating: UInt8(ascii: "p"), count: length)
            plain.withUnsafeBufferPointer { bytes in
                #expect(PublishPath.decoded(bytes, plusAsSpace: true) == String(repeating: "p", count: length))
            }
        }
    }

    @Test func theQueryIsReadIntoTheItemsTheRequestGives() throws {
        let queries = [
            "", "uuid=bench", "uuid=u&seqn=3", "a", "a=", "=b", "=", "&", "&&a=1&&", "a=1&a=2", "a=b=c", "x=a+b&y=%20",
            "uuid=%ZZ", "k=%C3%A9&n=%FF", "long-name-over-fifteen=long-value-over-fifteen-bytes", "a=1&b", "é=ü",
            "uuid=u&pnsdk=x&auth=a&ttl=1&ptto=2&meta=3&seqn=4&store=5&norep=6", "uui=1&uuidd=2&UUID=3&%75uid=4&uu+d=5",
        ]
        for query in queries {
            for target in ["/publish/p/s/0/c/0/1?" + query, "http://host/publish/p/s/0/c/0/1?" + query] {
                let request = HTTPRequest(method: "GET", target: target)
                let fast = PublishPath.queryItems(request)
                #expect(fast == request.queryItems, "\(target)")
            }
            // A parsed request keeps its target in the packed head.
            let parsed = try #require(Self.parse("GET /publish/p/s/0/c/0/1?\(query) HTTP/1.1\r\nHost: h\r\n\r\n"))
            #expect(PublishPath.queryItems(parsed) == parsed.queryItems, "\(query)")
        }
        #expect(PublishPath.queryItems(HTTPRequest(method: "GET", target: "/publish/p/s/0/c/0/1")) == [])
    }

    @Test func aKnownQueryNameIsTheStringTheGeneralDecodingGives() {
        let names = ["uuid", "pnsdk", "auth", "ttl", "ptto", "meta", "seqn", "store", "norep"]
        for name in names {
            let bytes = Array(name.utf8)
            bytes.withUnsafeBufferPointer { piece in
                #expect(PublishPath.knownName(piece) == name)
                #expect(PublishPath.knownName(piece) == HTTPRequest.decode(piece, plusAsSpace: true))
            }
        }
        for other in ["", "u", "uu", "uui", "uuidd", "UUID", "%75uid", "uu+d", "ttl2", "pnsd", "signature", "é"] {
            Array(other.utf8).withUnsafeBufferPointer { #expect(PublishPath.knownName($0) == nil, "\(other)") }
        }
    }

    @Test func slashesAreFoundInEveryPositionOfAWord() throws {
        // Segments of every length around the eight-byte words, dots beside the slashes (the
        // byte after `/`), and more slashes than a publish path has.
        var forms: [(method: String, target: String, fast: Bool)] = []
        for length in 0...17 {
            let piece = String(repeating: "x", count: length)
            forms.append(("GET", "/publish/\(piece)/s/0/c\(piece)/0/1", true))
            forms.append(("GET", "/publish/p/\(piece)./0/.\(piece)/0/.", true))
            forms.append(("POST", "/signal/p/s/0/c/0\(piece)", true))
            forms.append(("GET", "/publish/p/s/0/c\(piece)/0/1?uuid=u/x", true))
            forms.append(("GET", "/publish/p/s/0/c/0/1/\(piece)", false))
        }
        for (method, target, isFast) in forms {
            let request = HTTPRequest(method: method, target: target)
            let general = PubNubRoute.classifyBySegments(request)
            let fast = PubNubRoute.classifyPublish(request)
            #expect((fast != nil) == isFast, "\(method) \(target)")
            if let fast { #expect(general == .success(fast), "\(method) \(target)") }
            #expect(PubNubRoute.classify(request) == general, "\(method) \(target)")
        }
        let seven = try #require(PubNubRoute.classifyPublish(HTTPRequest(method: "GET", target: "/publish/pp/ss/0/channel-name-x/0/%22m%22")))
        #expect(seven.publishKey == "pp" && seven.subscribeKey == "ss" && seven.channels == ["channel-name-x"] && seven.message == "\"m\"")
    }

    /// The request a parser makes of `head`.
    private static func parse(_ head: String) -> HTTPRequest? {
        var parser = HTTPRequestParser()
        parser.append(Array(head.utf8))
        guard let parsed = try? parser.next(), case .packed = parsed.request.line else { return nil }
        return parsed.request
    }

    @Test func aRawNonASCIIPathGetsTheGeneralRoute() throws {
        for target in ["/publish/pé/sü/0/ch€/0/1?uuid=é", "/signal/p/s/0/日本/0/2"] {
            let request = HTTPRequest(method: "GET", target: target)
            let fast = try #require(PubNubRoute.classifyPublish(request))
            #expect(fast == (try PubNubRoute.classifyBySegments(request).get()))
        }
    }
}
