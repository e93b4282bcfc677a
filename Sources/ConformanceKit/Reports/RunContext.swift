// SPDX-License-Identifier: MIT

/// Where a run's report comes from, so reports of several runs (shards, SDK versions) can be
/// joined and told apart: the catalog it ran, the shard, and the client's version.
public struct RunContext: Sendable, Hashable {
    /// The case family: `pubnub` or `pusher`.
    public var family: String
    /// ``CatalogIdentity/fingerprint(ids:)`` of the family's whole catalog (not of the selection).
    public var catalog: String
    /// How many cases the whole catalog has.
    public var catalogSize: Int
    /// The shard this run was, if it was one.
    public var shard: ShardSpec?
    /// The client's version as the run was told it (`--client-version`), if any.
    public var clientVersion: String?
    /// The harness's own version.
    public var harnessVersion: String
    /// The runs a merged report joins (`pubnub-harness merge`), in input order; empty for one run.
    public var runs: [RunRecord] = []

    public init(family: String, catalog: String, catalogSize: Int, shard: ShardSpec? = nil,
                clientVersion: String? = nil, harnessVersion: String) {
        self.family = family
        self.catalog = catalog
        self.catalogSize = catalogSize
        self.shard = shard
        self.clientVersion = clientVersion
        self.harnessVersion = harnessVersion
    }
}

/// One run inside a merged report: who ran, which shard, with which seed.
public struct RunRecord: Sendable, Hashable {
    public var client: String
    public var clientVersion: String?
    public var shard: ShardSpec?
    public var seed: UInt64
    public var durationSeconds: Double
    /// How many cases the run reported.
    public var cases: Int
    /// The report file it came from.
    public var source: String

    public init(client: String, clientVersion: String?, shard: ShardSpec?, seed: UInt64, durationSeconds: Double,
                cases: Int, source: String) {
        self.client = client
        self.clientVersion = clientVersion
        self.shard = shard
        self.seed = seed
        self.durationSeconds = durationSeconds
        self.cases = cases
        self.source = source
    }

    /// The matrix column the run belongs to: the client and its version.
    public var column: String { client + (clientVersion.map { " \($0)" } ?? "") }
}

/// Names a catalog by its case ids (pure): two runs ran the same catalog when their
/// fingerprints are equal, whatever subset or shard of it each selected.
public enum CatalogIdentity {
    /// `family:` and 16 hex digits of FNV-1a (64-bit) over the sorted ids, one per line.
    public static func fingerprint(family: String, ids: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids.sorted() {
            for byte in id.utf8 + [0x0A] {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return family + ":" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
