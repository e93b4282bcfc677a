// SPDX-License-Identifier: MIT

/// Why a Pusher fault plan was refused: the path of the first offending field and what is wrong
/// (`rules[0].fault.code: expected an integer 1000...4999`). Nothing is installed.
public struct PusherFaultPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
