import CSodium
import Foundation

/// Which computer a journal file is on, for its sync identity: a hash of the system's machine id
/// (`/etc/machine-id`, made once per installation), never the id itself, which other programs
/// use. A journal file keeps its device and inode when a whole disk is cloned or a home folder
/// moved with its file system (Clonezilla, `btrfs send`, a virtual machine copied): its sync
/// identity then follows it to the new computer, where the place may sit at the same path, so
/// nothing prompts a new setup. Bound to the computer too, the copy takes a machine id of its
/// own at its first sync (`JournalStore.syncStateForThisFile`), and the two computers never write
/// one file name.
enum ComputerIdentity {
    /// Where the system keeps its machine id: systemd's, then D-Bus's on systems without it.
    nonisolated(unsafe) static var machineIDFiles = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

    /// 16 hexadecimal digits, the same on every reading on one installation; "" where the
    /// system has no machine id (a bare container), so the file's own identity stands alone.
    static func current() -> String {
        guard let id = machineIDFiles.lazy.compactMap({ try? String(contentsOfFile: $0, encoding: .utf8) })
            .map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }).first(where: { !$0.isEmpty })
        else { return "" }
        Sodium.ready()
        let message = Array("flourish sync computer \(id)".utf8)
        var out = [UInt8](repeating: 0, count: 8)
        _ = crypto_generichash(&out, out.count, message, UInt64(message.count), nil, 0)
        return out.map { String(format: "%02x", $0) }.joined()
    }
}
