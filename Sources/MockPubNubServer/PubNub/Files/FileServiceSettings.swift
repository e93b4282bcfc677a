// SPDX-License-Identifier: MIT

/// Tunables of file sharing (spec pubnub-modern §3): sizes, lifetimes and the in-memory storage cap.
public struct FileServiceSettings: Sendable, Hashable {
    /// The largest file the storage accepts (the service documents 5 MB; 5 MiB as the SDKs' checks read it).
    public var maxFileBytes: Int
    /// Bytes of stored files one subscribe key may hold; an upload beyond it gets the storage's
    /// `EntityTooLarge` refusal with `MaxSizeAllowed` = the bytes left (a mock limit; docs/endpoints.md).
    public var storageBytesPerKeyspace: Int
    /// How long an upload URL stays valid (recorded: `expiration_date` one minute after the request).
    public var uploadURLLifetime: Int
    /// The `max-age` of the download redirect's `Cache-Control` (UNVERIFIED: the recorded value was 2235).
    public var downloadCacheMaxAge: Int
    /// The most files one list call returns (documented: 100).
    public var maxListLimit: Int

    public init(
        maxFileBytes: Int = 5 * 1024 * 1024, storageBytesPerKeyspace: Int = 64 * 1024 * 1024,
        uploadURLLifetime: Int = 60, downloadCacheMaxAge: Int = 2235, maxListLimit: Int = 100
    ) {
        self.maxFileBytes = maxFileBytes
        self.storageBytesPerKeyspace = storageBytesPerKeyspace
        self.uploadURLLifetime = uploadURLLifetime
        self.downloadCacheMaxAge = downloadCacheMaxAge
        self.maxListLimit = maxListLimit
    }

    /// The upload route's HTTP body limit: the file limit plus room for the form fields and framing.
    public var maxUploadBodyBytes: Int { maxFileBytes + 256 * 1024 }
}
