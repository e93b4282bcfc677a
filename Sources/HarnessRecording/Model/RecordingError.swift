// SPDX-License-Identifier: MIT

/// Why a recording cannot be read or used.
public enum RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON, or not the recording format (`reason` says where).
    case unreadable(String)
    /// Another format or version than this harness reads.
    case unsupportedVersion(format: String, version: Int)
    /// A comparison rule that is not a path pattern.
    case invalidRule(String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "not a recording: \(reason)"
        case .unsupportedVersion(let format, let version):
            "unsupported recording \(format) version \(version) (this harness reads \(Recording.formatName) version \(Recording.currentVersion))"
        case .invalidRule(let text, let reason): "invalid rule path \"\(text)\": \(reason)"
        }
    }
}
