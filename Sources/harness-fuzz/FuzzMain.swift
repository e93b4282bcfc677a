// SPDX-License-Identifier: MIT
import Foundation
import HarnessFuzzing

// Built two ways (scripts/fuzz.sh):
// - with `-sanitize=fuzzer,address -D HARNESS_LIBFUZZER`: a libFuzzer binary; the target is chosen
//   by the environment variable HARNESS_FUZZ_TARGET and libFuzzer supplies `main`;
// - normally: `harness-fuzz TARGET FILE|FOLDER...` replays saved inputs (seeds, crashes) through
//   the same entry point and exits non-zero if an invariant fails.

#if HARNESS_LIBFUZZER
private let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["HARNESS_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("HARNESS_FUZZ_TARGET must be one of: \(known) (got \"\(name)\")")
    }
    return target
}()

/// libFuzzer's entry: runs the selected target; an invariant failure aborts, which libFuzzer records as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try selectedTarget.run(bytes)
    } catch {
        fatalError("invariant failed: \(error)")
    }
    return 0
}
#else
@main
struct HarnessFuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: harness-fuzz \(known) FILE|FOLDER...\n".utf8))
            exit(2)
        }
        var failures = 0
        var count = 0
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("harness-fuzz: no such file: \(path)\n".utf8))
                exit(2)
            }
            let inputs: [(name: String, bytes: [UInt8])]
            do {
                inputs = isDirectory.boolValue
                    ? try FuzzCorpus.load(url) : [(path, Array(try Data(contentsOf: url)))]
            } catch {
                FileHandle.standardError.write(Data("harness-fuzz: cannot read \(path): \(error)\n".utf8))
                exit(2)
            }
            for input in inputs {
                count += 1
                do {
                    try target.run(input.bytes)
                } catch {
                    failures += 1
                    print("FAIL \(input.name): \(error)")
                }
            }
        }
        print("\(target.rawValue): \(count) inputs, \(failures) failing")
        exit(failures == 0 ? 0 : 1)
    }
}
#endif
