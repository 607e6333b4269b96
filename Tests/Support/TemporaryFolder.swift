import Foundation

/// A fresh folder under the system's temporary directory, removed when the test ends.
public final class TemporaryFolder {
    public let path: String

    public init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("flourish-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

public func permissions(of path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
