// SPDX-License-Identifier: MIT

extension StreamFactory {
    /// TLS streams for a listener: each connection gets the server context of its fault (per port
    /// or queued per connection); `none` serves the trusted leaf. Builds every context once, now.
    ///
    /// Faults without a context (the pre-handshake ones) are carried out by the listener on the raw
    /// socket and never reach the factory; if one does, `make` throws `TLSError.noContextForFault`.
    package static func tls(material: TLSMaterial) throws(TLSError) -> StreamFactory {
        let catalog = try TLSServerContextCatalog(material: material)
        return StreamFactory(isTLS: true) { fd, fault in
            guard let context = catalog.context(for: fault) else { throw TLSError.noContextForFault(fault) }
            return try ServerTLSStream(context: context, fd: fd)
        }
    }
}
