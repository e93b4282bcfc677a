// SPDX-License-Identifier: MIT
internal import CAESCBC
import HarnessPrimitives

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The code that runs AES-256-CBC encryption: the package's AES-NI kernel (`Sources/CAESCBC`), which also
/// base64-encodes a message's finished blocks while the next ones run, or libcrypto's EVP cipher.
///
/// Both write the same bytes. Decryption always uses libcrypto.
package enum AESEncryptionCode: Sendable, CaseIterable, CustomStringConvertible {
    /// The AES-NI kernel (x86-64 CPUs with AES-NI).
    case aesni
    /// libcrypto's `EVP_aes_256_cbc`, on every CPU.
    case libcrypto

    /// Whether this CPU can run the code.
    package var isAvailable: Bool {
        switch self {
        case .aesni: caescbc_available() != 0
        case .libcrypto: true
        }
    }

    /// The code every module uses by default: the kernel where the CPU has AES-NI, unless the environment
    /// variable `PUBNUB_HARNESS_AES_CODE` is `libcrypto` (for benchmarks and comparisons).
    package static let active: AESEncryptionCode = {
        if let name = getenv("PUBNUB_HARNESS_AES_CODE").map({ String(cString: $0) }), name == AESEncryptionCode.libcrypto.description {
            return .libcrypto
        }
        return AESEncryptionCode.aesni.isAvailable ? .aesni : .libcrypto
    }()

    package var description: String {
        switch self {
        case .aesni: "aesni"
        case .libcrypto: "libcrypto"
        }
    }

    /// The kernel's base64 code for `kernel` (`CAESCBC_BASE64_*`): groups are encoded inside the loop with
    /// AVX-512 VBMI or AVX2; with SSSE3 or the scalar code the caller encodes everything after it.
    static func kernelBase64Code(for kernel: Base64.Kernel) -> Int32 {
        switch kernel {
        case .avx512vbmi: Int32(CAESCBC_BASE64_AVX512VBMI)
        case .avx2: Int32(CAESCBC_BASE64_AVX2)
        case .scalar, .ssse3: Int32(CAESCBC_BASE64_NONE)
        }
    }
}
