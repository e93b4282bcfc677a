// SPDX-License-Identifier: MIT
import Foundation

/// The seed corpus of a target: the files of `Fixtures/fuzz/<target>/`, in name order.
public enum FuzzCorpus {
    /// The folder holding `target`'s seeds under the package root `root`.
    public static func folder(for target: FuzzTarget, root: URL) -> URL {
        root.appendingPathComponent("Fixtures/fuzz").appendingPathComponent(target.rawValue)
    }

    /// Every regular file under `folder` (not recursive) as (name, bytes), sorted by name.
    public static func load(_ folder: URL) throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.compactMap { name in
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard !name.hasPrefix("."), FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return nil }
            return (name, Array(try Data(contentsOf: url)))
        }
    }
}
