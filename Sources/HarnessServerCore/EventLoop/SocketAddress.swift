// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

/// Numeric socket addresses and the listening-socket set-up.
enum SocketAddress {
    /// The peer of a connected socket as `host:port` (`[v6]:port` for IPv6), or `unknown`.
    static func peer(of fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        guard cposix_peer_address(fd, &buffer, buffer.count, &port) == 0 else { return "unknown" }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The bound local address of a socket.
    static func local(of fd: Int32) -> (host: String, port: Int)? {
        var buffer = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        guard cposix_local_address(fd, &buffer, buffer.count, &port) == 0 else { return nil }
        return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(port))
    }

    /// A bound socket (SO_REUSEADDR, never SO_REUSEPORT), listening with `backlog` unless `listen` is false.
    static func bind(host: String, port: Int, listen: Bool, backlog: Int32) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        let ipv6 = cposix_is_ipv6_literal(host) != 0
        let fd = cposix_tcp_socket(ipv6 ? 1 : 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        _ = cposix_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if cposix_bind(fd, host, Int32(port)) != 0 {
            let code = errno
            Glibc.close(fd)
            if code == EINVAL { throw .invalidAddress(host) }
            throw .system("bind \(host):\(port)", code)
        }
        if listen && Glibc.listen(fd, backlog) != 0 {
            let code = errno
            Glibc.close(fd)
            throw .system("listen", code)
        }
        guard let local = local(of: fd) else {
            let code = errno
            Glibc.close(fd)
            throw .system("getsockname", code)
        }
        return (fd, local.port)
    }
}
