// SPDX-License-Identifier: MIT

extension HTTPResponse {
    /// The content type most PubNub services answer with (spec §2.5; per-endpoint exceptions in docs/endpoints.md).
    package static let pubNubContentType = "text/javascript; charset=\"UTF-8\""

    /// A response with PubNub's content type and `body` as its UTF-8 text.
    package static func pubNub(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: pubNubHeaders, body: Array(body.utf8))
    }

    /// The header fields of every PubNub answer, built once and shared by every response.
    private static let pubNubHeaders: HTTPHeaders = ["Content-Type": pubNubContentType]
}
