// SPDX-License-Identifier: MIT
import MockPusher
import Testing

/// Every expected digest below was computed with OpenSSL's command line, independently of this code:
/// `printf '%s' 'INPUT' | openssl dgst -sha256 -hmac 7ad3773142a6692b25b8` (HMAC) and
/// `printf '%s' 'BODY' | openssl dgst -md5` (MD5).
@Suite("Pusher signatures", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherSignatureTests {
    @Test func privateChannelSignatureMatchesTheAuthDocVector() {
        #expect(
            PusherSignatures.channelAuth(app: docApp, socketID: "1234.1234", channel: "private-foobar")
                == "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
    }

    @Test func userSignatureSignsSocketUserAndUserData() {
        #expect(PusherSignatures.userAuthInput(socketID: "1234.1234", userData: #"{"id":"12345"}"#) == #"1234.1234::user::{"id":"12345"}"#)
        #expect(
            PusherSignatures.userAuth(app: docApp, socketID: "1234.1234", userData: #"{"id":"12345"}"#)
                == "278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba")
    }

    @Test func presenceSignatureCoversTheExactChannelDataBytes() {
        let compact = #"{"user_id":10,"user_info":{"name":"Mr. Channels"}}"#
        let spaced = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#
        #expect(
            PusherSignatures.hmacSHA256Hex(secret: docApp.secret, message: "1234.1234:presence-foobar:" + compact)
                == "31935e7d86dba64c2a90aed31fdc61869f9b22ba9d8863bba239c03ca481bc80")
        #expect(
            PusherSignatures.channelAuth(app: docApp, socketID: "1234.1234", channel: "presence-foobar", channelData: spaced)
                == "278d425bdf160c739803:5b8808f3035fec2e4157c6b430a06d5b0de16d174e1a779e0e2b64d9983bde27")
    }

    /// Spec §4.3's vector (pusher-http-python `generate_shared_secret` gives the same).
    @Test func encryptedChannelSharedSecretMatchesTheSpecVector() {
        let masterKey = [UInt8](repeating: 0x01, count: 32)
        #expect(PusherSignatures.sharedSecretBase64(channel: "private-encrypted-foo", masterKey: masterKey) == "8ziYucAATGLnsfmVQnRpKw1VkUgQbrB5CfEQheHpD0w=")
        #expect(PusherSignatures.sharedSecret(channel: "private-encrypted-foo", masterKey: masterKey).count == 32)
    }

    @Test func md5MatchesTheRESTReferenceBodyAndTheEmptyBody() {
        let body = #"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#
        #expect(PusherSignatures.md5Hex(Array(body.utf8)) == "ec365a775a4cd0599faeb73354201b6f")
        #expect(PusherSignatures.md5Hex([UInt8]()) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func constantTimeComparisonDistinguishesLengthAndContent() {
        #expect(PusherSignatures.constantTimeEqual("abc", "abc"))
        #expect(!PusherSignatures.constantTimeEqual("abc", "abd"))
        #expect(!PusherSignatures.constantTimeEqual("abc", "abcd"))
    }
}
