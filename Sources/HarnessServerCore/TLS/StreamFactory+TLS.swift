// SPDX-License-Identifier: MIT

extension StreamFactory {
    /// TLS streams for a listener: each connection gets the server context of its fault (per port
    /// or queued per connection); `none` serves the trusted leaf. Builds every context once, now.
    ///
    /// Faults without a context (the pre-handshake ones) are carried out by the listener on the raw
    /// socket and never reach the factory; if one does, `make` throws `TLSError.noContextForFault`.
    /// `recordLayer` says who carries records after a TLS 1.3 handshake (``TLSRecordLayer``).
    package static func tls(material: TLSMaterial, recordLayer: TLSRecordLayer = .own) throws(TLSError) -> StreamFactory {
        let catalog = try TLSServerContextCatalog(material: material, recordLayer: recordLayer)
        return StreamFactory(isTLS: true) { fd, fault in
            guard let context = catalog.context(for: fault) else { throw TLSError.noContextForFault(fault) }
            return try ServerTLSStream(context: context, fd: fd)
        }
    }
}
