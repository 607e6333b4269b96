import Foundation

/// Where a synced journal's files meet: a folder that something else keeps in step (Syncthing,
/// a Nextcloud client, a USB stick), or a WebDAV server. Flourish only lists, reads and creates
/// files there, and removes old files of its own that a snapshot holds (and, when the journal's
/// key is changed, every file sealed with the old one); it replaces only the key file. Each machine writes
/// files of its own, each once, under names of its own (its machine id and its numbers), so two
/// machines never write the same one and nothing relies on locks or the place's clocks. `create`
/// asks the place not to replace a file, but sync never depends on it: some servers replace it
/// anyway (see `JournalSync.createOnce`).
///
/// Names are relative, with "/" between a folder and a file ("<machine>/00000001.batch").
public protocol SyncPlace: Sendable {
    /// The place as the person knows it (a path, or an address without its password).
    var displayName: String { get }
    /// Checks that the place can be reached and used. With `create`, makes it when it is not
    /// there and its parent is; without, a missing place is `.missing`.
    func prepare(create: Bool) throws(SyncError)
    /// The names of the files directly in `folder` ("" for the top), in no order; none when the
    /// folder is not there.
    func list(_ folder: String) throws(SyncError) -> [String]
    /// The file's bytes, or nil when it is not there.
    func read(_ name: String) throws(SyncError) -> Data?
    /// Writes a new file (and the folder it goes in). `.fileExists` when one is there already:
    /// it is never replaced.
    func create(_ name: String, contents: Data) throws(SyncError)
    /// Writes new files, as `create` does each, where a place can flush them together: a name
    /// taken already is left as it is (the same photo, sent by another machine).
    func createEach(_ files: [(name: String, contents: Data)]) throws(SyncError)
    /// Writes a file whether or not one is there, whole or not at all: only ever the key file,
    /// when the passphrase or the key is changed.
    func replace(_ name: String, contents: Data) throws(SyncError)
    /// Removes a file this machine wrote and a snapshot now holds; one already gone is no error.
    func remove(_ name: String) throws(SyncError)
    /// `heard` is told, in seconds, each wait for a server that said it was busy.
    func hearBusy(_ heard: @escaping @Sendable (Int) -> Void)
}

extension SyncPlace {
    /// `heard` is told, in seconds, each wait for a server that said it was busy (see
    /// `BusyServer`). A folder is never busy.
    public func hearBusy(_ heard: @escaping @Sendable (Int) -> Void) {}

    public func createEach(_ files: [(name: String, contents: Data)]) throws(SyncError) {
        for (name, contents) in files {
            do {
                try create(name, contents: contents)
            } catch .fileExists {
                // Another machine sent the same photo a moment ago.
            }
        }
    }
}

/// What the person gives as where to sync: an http(s) address names a WebDAV server, anything
/// else a folder.
public enum SyncTarget {
    public static func isWebDAV(_ target: String) -> Bool {
        target.hasPrefix("http://") || target.hasPrefix("https://")
    }

    /// The place `target` names; `password` is the server's, for an address.
    public static func place(_ target: String, password: String?) throws(SyncError) -> SyncPlace {
        isWebDAV(target) ? try WebDAVPlace(address: target, password: password ?? "") : FolderPlace(path: target)
    }
}
