import FlourishTestSupport
import Foundation
import XCTest
import ZIPFoundation

/// ZIP files made for the import tests, from their members' paths and bytes.
enum ZIPFixture {
    static func write(_ members: [(String, Data)], named name: String, in folder: TemporaryFolder) throws -> String {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, data) in members {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        let path = folder.file(name)
        try XCTUnwrap(archive.data).write(to: URL(fileURLWithPath: path))
        return path
    }
}
