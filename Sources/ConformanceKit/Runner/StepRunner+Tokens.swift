// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Synchronization

/// The last Access Manager v3 token of a case, for `{token}` in later steps.
final class TokenSlot: Sendable {
    private let value = Mutex<String?>(nil)
    var token: String? { value.withLock { $0 } }
    func set(_ token: String) { value.withLock { $0 = token } }
}

extension StepRunner {
    /// `operation` with `{token}` replaced by the last token (and `{uuid}` etc. in a grant's
    /// authorized uuid, `{message.N}` in a reconnect's timetoken).
    func substitutingToken(in operation: ClientOperation) -> ClientOperation {
        let token = lastToken.token ?? ""
        func fill(_ text: String) -> String { substitute(text).replacingOccurrences(of: "{token}", with: token) }
        switch operation {
        case .setToken(let text): return .setToken(token: fill(text))
        case .revokeToken(let text): return .revokeToken(token: fill(text))
        case .parseToken(let text): return .parseToken(token: fill(text))
        case .grantToken(let grant): return .grantToken(grant.substituting(substitute))
        case .reconnect(let timetoken?): return .reconnect(timetoken: fill(timetoken))
        default: return operation
        }
    }

    /// Keeps the token a client's `grantToken` returned.
    func rememberToken(from operation: ClientOperation, result: OperationResult) {
        guard case .grantToken = operation, case .string(let token)? = result.data?["token"] else { return }
        lastToken.set(token)
    }

    /// `issueToken`: `POST /__admin/tokens/{sub}` with the grant-token body; keeps the token.
    func issueToken(_ grant: TokenGrant, number: Int) async -> Bool {
        let body = Array(grant.substituting(substitute).requestBody.jsonText.utf8)
        do {
            let (status, answer) = try await server.request(
                method: "POST", path: "/__admin/tokens/" + Self.segment(keys.subscribeKey), query: [], body: body)
            guard (200..<300).contains(status), let json = try? JSONValue.parse(answer), case .string(let token)? = json["token"] else {
                await state.fail(.failed("step \(number) issue token: HTTP \(status) \(String(decoding: answer.prefix(200), as: UTF8.self))"))
                return false
            }
            lastToken.set(token)
            return true
        } catch {
            await state.fail(.failed("step \(number) issue token: \(error)"))
            return false
        }
    }
}
