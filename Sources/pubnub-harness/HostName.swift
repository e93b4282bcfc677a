// SPDX-License-Identifier: MIT
import Glibc

/// Turns a listen address given by name (`localhost`) into the numeric address the server binds.
enum HostName {
    /// The address itself when it is numeric; otherwise its first IPv4 address, else its first
    /// IPv6 address; nil when it does not resolve.
    static func numeric(_ host: String) -> String? {
        for family in [AF_INET, AF_INET6] {
            var hints = addrinfo()
            hints.ai_family = family
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { continue }
            defer { freeaddrinfo(first) }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }
}
