import Foundation
import ZIPFoundation

/// A ZIP file being imported (Daylio's backup, Flourish's ZIP export), read from the disk as it
/// is needed: its list of members once, then a member's bytes when asked. A photo is read when
/// it is imported, one at a time, never the whole file at once: a backup may hold gigabytes.
///
/// Read first by the thread that reads the file, then by the import's: one read at a time,
/// behind a lock (the archive reads through one C file handle).
final class ImportArchive: ImportFiles, @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private let archive: Archive
    private let members: [String: ZIPFoundation.Entry]

    /// Nil when the file is not a ZIP file that can be read.
    init?(path: String) {
        guard let archive = try? Archive(url: URL(fileURLWithPath: path), accessMode: .read) else { return nil }
        self.path = path
        self.archive = archive
        var members: [String: ZIPFoundation.Entry] = [:]
        for entry in archive where entry.type == .file && members[entry.path] == nil {
            members[entry.path] = entry
        }
        self.members = members
    }

    /// Every file's path in it.
    var paths: [String] { Array(members.keys) }

    func contains(_ member: String) -> Bool { members[member] != nil }

    func size(of member: String) -> UInt64? { members[member]?.uncompressedSize }

    /// The member's bytes; nil when there is no such file in it. Throws when it cannot be
    /// unpacked (damaged).
    func data(of member: String) throws -> Data? {
        guard let entry = members[member] else { return nil }
        var data = Data()
        _ = try lock.withLock { try archive.extract(entry) { data.append($0) } }
        return data
    }

    /// A member that inflates past the limit it was read with: refused before it is whole.
    struct TooLarge: Error {
        let member: String
        let limit: Int
    }

    /// The member's bytes, refused (`TooLarge`) as soon as they pass `limit` bytes: a file made
    /// to inflate to gigabytes is never held whole. Nil when there is no such file in it.
    func data(of member: String, limit: Int) throws -> Data? {
        guard let entry = members[member] else { return nil }
        guard entry.uncompressedSize <= UInt64(limit) else { throw TooLarge(member: member, limit: limit) }
        var data = Data()
        _ = try lock.withLock {
            try archive.extract(entry) { chunk in
                data.append(chunk)
                if data.count > limit { throw TooLarge(member: member, limit: limit) }
            }
        }
        return data
    }

    /// The member's first bytes (enough to tell a picture's kind), without unpacking the rest;
    /// nil when it is not there or cannot be unpacked.
    func head(of member: String, count: Int) -> Data? {
        guard let entry = members[member] else { return nil }
        struct Enough: Error {}
        var data = Data()
        do {
            _ = try lock.withLock {
                try archive.extract(entry, skipCRC32: true) { chunk in
                    data.append(chunk)
                    if data.count >= count { throw Enough() }
                }
            }
        } catch is Enough {
        } catch {
            return nil
        }
        return data.prefix(count)
    }
}

/// Where an import's files are read from, one at a time as they are needed: a ZIP file being
/// imported (`ImportArchive`), or a folder (`ImportFolder`).
protocol ImportFiles: AnyObject, Sendable {
    /// The file's bytes; nil when there is no such file. Throws when it cannot be read.
    func data(of member: String) throws -> Data?
    /// The same, refused (`ImportArchive.TooLarge`) past `limit` bytes before it is read whole.
    func data(of member: String, limit: Int) throws -> Data?
    /// Every file's path in it.
    var paths: [String] { get }
    /// The file's size in bytes (unpacked), as its listing says; nil when there is no such file.
    func size(of member: String) -> UInt64?
    /// The file's first bytes (enough to tell a picture's kind); nil when it cannot be read.
    func head(of member: String, count: Int) -> Data?
}

extension ImportFiles {
    func head(of member: String) -> Data? { head(of: member, count: 16) }
}

/// A photo an imported entry carries: the name it is shown by, and where its bytes are in the
/// file or folder being imported (read only when the entry is imported).
public struct ImportedPhoto: Sendable, Hashable {
    public let fileName: String
    let member: String
    let archive: any ImportFiles

    /// Which picture this is, whatever name an entry gives it: a picture two entries share is
    /// read and kept once.
    struct Source: Hashable {
        let archive: ObjectIdentifier
        let member: String
    }

    var source: Source { Source(archive: ObjectIdentifier(archive), member: member) }

    /// Its bytes, read from the file now.
    func bytes() throws(JournalError) -> Data {
        let data: Data?
        do {
            // Within the limit its listing was checked against: a listing can lie.
            data = try archive.data(of: member, limit: ImportPicture.byteLimit)
        } catch is ImportArchive.TooLarge {
            throw .unreadablePicture(name: fileName, reason: String(format: tr("it is larger than %@ MiB"), "\(ImportPicture.byteLimit >> 20)"))
        } catch {
            throw .unreadablePicture(name: fileName, reason: (error as NSError).localizedDescription)
        }
        guard let data else { throw .photoMissing(name: fileName) }
        return data
    }

    public static func == (one: ImportedPhoto, other: ImportedPhoto) -> Bool {
        one.fileName == other.fileName && one.source == other.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileName)
        hasher.combine(source)
    }
}
