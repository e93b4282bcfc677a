// SPDX-License-Identifier: MIT

/// The harness's version: `pubnub-harness --version`, the run header, the release tarball's name.
enum HarnessVersion {
    static let current = "0.9.0"
}
