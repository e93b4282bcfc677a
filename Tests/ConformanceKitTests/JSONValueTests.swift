// SPDX-License-Identifier: MIT
import Testing
@testable import ConformanceKit
