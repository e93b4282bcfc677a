// SPDX-License-Identifier: MIT

/// A file the storage holds: its bytes and what the list shows of it.
struct StoredFile: Sendable, Hashable {
    var id: String
    var name: String
    var channel: String
    /// The `Content-Type` form field of its upload, served back on download.
    var contentType: String
    var bytes: [UInt8]
    /// Service-clock second of the upload (the list's `created`).
    var created: Int64
}

/// An upload URL handed out by generate-upload-url and not yet expired: the form fields the
/// storage expects back, in order.
struct PendingUpload: Sendable, Hashable {
    var id: String
    var name: String
    var channel: String
    var formFields: [FormField]
    /// Service-clock second after which the storage refuses the upload (policy expired).
    var expiresAt: Int64

    /// The value issued for form field `key`.
    func field(_ key: String) -> String? { formFields.first { $0.key == key }?.value }
}

/// One form field of an upload URL, as generate-upload-url lists it.
struct FormField: Sendable, Hashable {
    var key: String
    var value: String
}

/// The file storage of one subscribe key, in memory, bounded by a byte cap.
///
/// Pure value: the service keeps it in `KeyspaceState`, so a keyspace reset drops its files.
struct FileStorage: Sendable {
    /// Upload URLs by storage `key` form field.
    private(set) var pending: [String: PendingUpload] = [:]
    /// Channel → its files, oldest upload first.
    private(set) var channels: [String: [StoredFile]] = [:]
    /// Bytes of every stored file.
    private(set) var totalBytes = 0

    /// Every stored file, channel by channel (channels in name order), oldest first.
    var allFiles: [StoredFile] { channels.keys.sorted().flatMap { channels[$0] ?? [] } }

    /// Records an upload URL; expired ones are dropped on the way.
    mutating func addPending(_ upload: PendingUpload, key: String, now: Int64) {
        pending = pending.filter { $0.value.expiresAt >= now }
        pending[key] = upload
    }

    /// The upload URL issued with storage key `key`.
    func pendingUpload(key: String) -> PendingUpload? { pending[key] }

    /// Bytes still free under `cap` if `replacing` (a file being overwritten) were removed.
    func freeBytes(cap: Int, replacing id: String, channel: String) -> Int {
        let old = channels[channel]?.first { $0.id == id }?.bytes.count ?? 0
        return cap - totalBytes + old
    }

    /// Stores `file`, replacing a file with the same id on its channel (a repeated upload overwrites).
    mutating func store(_ file: StoredFile) {
        var list = channels[file.channel] ?? []
        if let index = list.firstIndex(where: { $0.id == file.id }) {
            totalBytes -= list[index].bytes.count
            list.remove(at: index)
        }
        list.append(file)
        totalBytes += file.bytes.count
        channels[file.channel] = list
    }

    /// The file `id` named `name` on `channel`.
    func file(channel: String, id: String, name: String) -> StoredFile? {
        channels[channel]?.first { $0.id == id && $0.name == name }
    }

    /// The files of `channel`, oldest first.
    func files(channel: String) -> [StoredFile] { channels[channel] ?? [] }

    /// Removes the file; returns whether one was there.
    @discardableResult
    mutating func remove(channel: String, id: String, name: String) -> Bool {
        guard var list = channels[channel], let index = list.firstIndex(where: { $0.id == id && $0.name == name }) else {
            return false
        }
        totalBytes -= list[index].bytes.count
        list.remove(at: index)
        channels[channel] = list.isEmpty ? nil : list
        return true
    }

    /// Drops every file and upload URL.
    mutating func removeAll() {
        self = FileStorage()
    }
}
