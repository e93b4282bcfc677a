// SPDX-License-Identifier: MIT
// Placeholder so the test target builds; replaced by the module's real tests.
import Testing
