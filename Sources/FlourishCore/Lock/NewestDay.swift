import Foundation
import GRDB

/// The one thing a locked journal lets out: the time of its newest entry, in `<journal>.newest`
/// beside it, so that the daily reminder (a background service that holds no key) can still
/// stay quiet once today is written. No title, text, mood, tag or count: one time.
enum NewestDay {
    static func file(of journal: String) -> String { journal + ".newest" }

    /// The newest entry's time as the file holds it; nil when there is none or it cannot be read.
    static func read(journal: String) -> Date? {
        guard let text = try? String(contentsOfFile: file(of: journal), encoding: .utf8),
              let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Written whole (a temporary file renamed over it), private. Not flushed: a hint lost to a
    /// power cut costs one reminder too many, and each save stays one flush long.
    static func write(_ newest: Date?, journal: String) {
        let path = file(of: journal)
        guard let newest else {
            unlink(path)
            return
        }
        let temporary = path + ".part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let text = Array(String(format: "%.3f\n", newest.timeIntervalSince1970).utf8)
        let written = Glibc.write(descriptor, text, text.count) == text.count
        close(descriptor)
        if written { rename(temporary, path) } else { unlink(temporary) }
    }
}

/// Keeps `NewestDay` up to date from the writer of a locked journal: after each commit, the
/// newest entry's time is read and written beside the journal when it changed.
final class NewestDayKeeper: @unchecked Sendable {
    private let journal: String
    /// Only touched on the writer's own queue, one write at a time.
    private var written: Date??

    init(journal: String) { self.journal = journal }

    /// Reads the newest entry's time and writes it, if it changed.
    func refresh(_ db: Database) {
        let newest: Date?
        do {
            // Cached: it runs after every save, and compiling it each time cost more than the read.
            newest = try Double.fetchOne(db.cachedStatement(sql: """
                SELECT (julianday(max(created_at)) - 2440587.5) * 86400.0 FROM entry
                """)).map(Date.init(timeIntervalSince1970:))
        } catch {
            // Not read: the hint stays as it is (never removed as if the journal were empty).
            return
        }
        guard written != .some(newest) else { return }
        // A later entry on the day already written tells the reminder nothing new: each save of
        // the day costs no file. An earlier one (a deletion) or another day is written.
        if case .some(.some(let old)) = written, let newest, newest >= old,
           Calendar.current.isDate(newest, inSameDayAs: old) { return }
        written = .some(newest)
        NewestDay.write(newest, journal: journal)
    }
}
