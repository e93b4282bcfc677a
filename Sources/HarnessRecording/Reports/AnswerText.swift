// SPDX-License-Identifier: MIT
import MockPubNubServer

/// An answer as people read it in a report: status line, the compared header fields, the body.
enum AnswerText {
    static let bodyLimit = 64 * 1024

    static func render(status: Int, headers: [NameValue], body: [UInt8]) -> String {
        var text = "\(status) \(HTTPResponse.standardReason(status))\n"
        for field in headers {
            let lower = field.name.lowercased()
            if ExchangeComparer.valueFields.contains(lower) || ExchangeComparer.presenceFields.contains(lower) || lower.hasPrefix("access-control-") {
                text += "\(field.name): \(field.value)\n"
            }
        }
        text += "\n"
        if let utf8 = String(validating: body.prefix(bodyLimit), as: UTF8.self) {
            text += utf8 + (body.count > bodyLimit ? "\n… (\(body.count) bytes)" : "")
        } else {
            text += "(\(body.count) bytes of binary data)"
        }
        return text
    }
}
