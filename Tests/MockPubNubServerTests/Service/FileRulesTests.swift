// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The pure rules of file sharing: times, page tokens, custom message types, content types, hosts.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FileRulesTests {
    @Test func isoTimesAreUTCWithSecondPrecision() {
        #expect(ISOTime.string(0) == "1970-01-01T00:00:00Z")
        #expect(ISOTime.string(1_746_466_005) == "2025-05-05T17:26:45Z")
        #expect(ISOTime.string(951_868_799) == "2000-02-29T23:59:59Z")
        #expect(ISOTime.compact(1_746_466_005) == "20250505T172645Z")
        #expect(ISOTime.day(1_746_466_005) == "20250505")
    }

    @Test func pageTokensRoundTripAndForeignTokensAreRefused() {
        for offset in [0, 2, 100, 12_345] {
            #expect(FileMessages.offset(fromPageToken: FileMessages.pageToken(offset: offset)) == offset)
        }
        #expect(!FileMessages.pageToken(offset: 2).contains("="))
        for token in ["garbage", "", "ZmlsZXM6LTE", "b3RoZXI6Mg"] {  // -, "files:-1", "other:2"
            #expect(FileMessages.offset(fromPageToken: token) == nil, "\(token)")
        }
    }

    @Test func customMessageTypesFollowTheDocumentedRules() {
        for valid in ["abc", "file-msg", "File_Note_2", String(repeating: "x", count: 50), "pnx"] {
            #expect(FileMessages.isValidCustomMessageType(valid), "\(valid)")
        }
        for invalid in ["ab", "-abc", "_abc", "pn-abc", "PN_abc", "a b", "ä-bc", "a.b.c", String(repeating: "x", count: 51)] {
            #expect(!FileMessages.isValidCustomMessageType(invalid), "\(invalid)")
        }
    }

    @Test func contentTypeIsGuessedFromTheExtension() {
        #expect(UploadForm.contentType(forFileName: "king_arthur.txt") == "text/plain; charset=utf-8")
        #expect(UploadForm.contentType(forFileName: "Photo.JPG") == "image/jpeg")
        #expect(UploadForm.contentType(forFileName: "archive") == "application/octet-stream")
        #expect(UploadForm.contentType(forFileName: "a.unknown") == "application/octet-stream")
    }

    @Test func fileIDsAreVersion4UUIDs() {
        let id = UploadForm.newFileID()
        let parts = id.split(separator: "-").map(\.count)
        #expect(parts == [8, 4, 4, 4, 12])
        #expect(Array(id)[14] == "4")
        #expect("89ab".contains(Array(id)[19]))
        #expect(UploadForm.newFileID() != id)
    }

    @Test func onlyAuthorityLikeHostHeadersNameTheStorage() {
        for host in ["127.0.0.1:8090", "localhost", "[::1]:8443", "files.example-1.test"] {
            #expect(StorageURL.isPlausibleAuthority(host), "\(host)")
        }
        for host in ["", "a b", "evil.test/path", "user@host", String(repeating: "h", count: 256)] {
            #expect(!StorageURL.isPlausibleAuthority(host), "\(host)")
        }
    }
}
