import FlourishCore
import Foundation

/// A folder place that misbehaves in one way: what it does not change, the folder does.
protocol FolderPlaceWrapper: SyncPlace {
    var real: FolderPlace { get }
}

extension FolderPlaceWrapper {
    var displayName: String { real.displayName }
    func prepare(create: Bool) throws(SyncError) { try real.prepare(create: create) }
    func list(_ folder: String) throws(SyncError) -> [String] { try real.list(folder) }
    func read(_ name: String) throws(SyncError) -> Data? { try real.read(name) }
}

/// A place that fails once it has written `failAfter` files: before the next file is written,
/// or (with `afterWriting`) just after it, as a sync killed at either moment would.
final class FaultyPlace: FolderPlaceWrapper, @unchecked Sendable {
    let real: FolderPlace
    let failAfter: Int
    let afterWriting: Bool
    private var written = 0

    init(_ real: FolderPlace, failAfter: Int, afterWriting: Bool) {
        self.real = real
        self.failAfter = failAfter
        self.afterWriting = afterWriting
    }

    /// Removing fails too, once the place has failed.
    func remove(_ name: String) throws(SyncError) {
        if written >= failAfter { throw .unreachable(place: displayName, reason: "cut off") }
        try real.remove(name)
    }

    func replace(_ name: String, contents: Data) throws(SyncError) {
        if written >= failAfter { throw .unreachable(place: displayName, reason: "cut off") }
        try real.replace(name, contents: contents)
    }

    func create(_ name: String, contents: Data) throws(SyncError) {
        if written == failAfter && !afterWriting { throw .unreachable(place: displayName, reason: "cut off") }
        try real.create(name, contents: contents)
        written += 1
        if written == failAfter && afterWriting { throw .unreachable(place: displayName, reason: "cut off") }
    }
}

/// A server that ignores `If-None-Match: *` (nginx, rclone) as two machines start a journal at
/// one empty place in the same moment: right after this machine's key file is written, the
/// other's (`later`) lands over it.
final class KeyFileOverwritten: FolderPlaceWrapper, @unchecked Sendable {
    let real: FolderPlace
    private var later: Data?

    init(_ real: FolderPlace, later: Data) {
        self.real = real
        self.later = later
    }

    func remove(_ name: String) throws(SyncError) { try real.remove(name) }
    func replace(_ name: String, contents: Data) throws(SyncError) { try real.replace(name, contents: contents) }

    func create(_ name: String, contents: Data) throws(SyncError) {
        try real.create(name, contents: contents)
        if name == KeyFile.name, let later {
            self.later = nil
            try real.replace(name, contents: later)
        }
    }
}

/// A server whose listing does not show `hidden` yet (a write that timed out here and landed
/// there later): a new file under that name is still refused, as a server honouring
/// `If-None-Match: *` refuses it.
final class ListsLate: FolderPlaceWrapper, @unchecked Sendable {
    let real: FolderPlace
    let hidden: String

    init(_ real: FolderPlace, hiding hidden: String) {
        self.real = real
        self.hidden = hidden
    }

    func list(_ folder: String) throws(SyncError) -> [String] { try real.list(folder).filter { folder != "" || $0 != hidden } }
    func create(_ name: String, contents: Data) throws(SyncError) { try real.create(name, contents: contents) }
    func replace(_ name: String, contents: Data) throws(SyncError) { try real.replace(name, contents: contents) }
    func remove(_ name: String) throws(SyncError) { try real.remove(name) }
}

/// A place that counts how many times each name is read: over WebDAV, each read is a request.
final class CountsReads: FolderPlaceWrapper, @unchecked Sendable {
    let real: FolderPlace
    private(set) var reads: [String: Int] = [:]

    init(_ real: FolderPlace) { self.real = real }

    func read(_ name: String) throws(SyncError) -> Data? {
        reads[name, default: 0] += 1
        return try real.read(name)
    }

    func create(_ name: String, contents: Data) throws(SyncError) { try real.create(name, contents: contents) }
    func replace(_ name: String, contents: Data) throws(SyncError) { try real.replace(name, contents: contents) }
    func remove(_ name: String) throws(SyncError) { try real.remove(name) }
}
