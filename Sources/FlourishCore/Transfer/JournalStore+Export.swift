import Foundation

/// Why an export stopped: the person cancelled it, or the journal or the file failed. Nothing
/// is left where the export was going in either case.
public enum ExportFailure: Error, Equatable, Sendable {
    case cancelled
    case journal(JournalError)
    case file(path: String, reason: String)

    public var message: String {
        switch self {
        case .cancelled: tr("The export was cancelled.")
        case .journal(let error): error.errorDescription ?? tr("The journal could not be read.")
        case let .file(path, reason): String(format: tr("%@ could not be written: %@."), path, reason)
        }
    }
}

/// What an export wrote.
public struct ExportResult: Sendable, Equatable {
    /// Entries written.
    public let entries: Int
    /// Entries whose rows could not be read (a hand edit, a damaged page): left out.
    public let unreadable: Int
    /// The files written (one, or one a year).
    public let files: [String]
}

extension JournalStore {
    /// How many entries an export reads at a time, and how often it reports its progress.
    static let exportBatch = 500

    /// Writes the whole journal, oldest entry first, to `path` (a folder for `.markdownByYear`).
    /// Each file is written beside its name and renamed into place once whole, readable by its
    /// owner only. `progress` hears (entries done, entries in all) after each batch and
    /// returns false to cancel.
    public func export(_ format: ExportFormat, to path: String, calendar: Calendar = .current, now: Date = Date(),
                       progress: (Int, Int) -> Bool = { _, _ in true }) throws(ExportFailure) -> ExportResult {
        let ids: [Int64], tagNames: [Int64: String]
        do {
            ids = Array(try entryIDs().reversed())
            tagNames = Dictionary(uniqueKeysWithValues: try tags(counted: false).map { ($0.id, $0.name) })
        } catch {
            throw .journal(error)
        }
        let text = ExportText(format: format, calendar: calendar,
                              tagNames: tagNames.values.sorted { TagName.key($0) < TagName.key($1) }, exportedAt: now)
        var files: [AtomicFile] = []
        var current: (file: AtomicFile, year: Int?)?
        var written = 0, unreadable = 0
        var previousDay: Insights.Day?
        do throws(ExportFailure) {
            if format != .markdownByYear {
                current = (try AtomicFile(path: path), nil)
                try current?.file.write(text.header())
            }
            for start in stride(from: 0, to: ids.count, by: Self.exportBatch) {
                guard progress(start, ids.count) else { throw .cancelled }
                let batch: EntryBatch
                do {
                    batch = try read(ids: Array(ids[start..<min(ids.count, start + Self.exportBatch)]))
                } catch {
                    throw .journal(error)
                }
                unreadable += batch.unreadable.count
                for entry in batch.entries.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) {
                    let tags = entry.tagIDs.compactMap { tagNames[$0] }.sorted { TagName.key($0) < TagName.key($1) }
                    let time = text.localTime(of: entry)
                    if format == .markdownByYear {
                        let year = time.day.year
                        if current?.year != year {
                            // Finished but not named yet: every year is named only once all are written.
                            if let done = current?.file { try done.finishWriting() }
                            let file = try AtomicFile(path: (path as NSString).appendingPathComponent("Flourish journal \(year).md"))
                            files.append(file)
                            current = (file, year)
                            try file.write(text.header(title: "Flourish journal \(year)"))
                            previousDay = nil
                        }
                    }
                    do {
                        try current?.file.write(text.entry(entry, at: time, tags: tags, first: written == 0, previousDay: previousDay))
                    } catch let failure as ExportFailure {
                        throw failure
                    } catch {
                        throw .file(path: path, reason: "\(error)")
                    }
                    previousDay = time.day
                    written += 1
                }
            }
            guard progress(ids.count, ids.count) else { throw .cancelled }
            if format == .markdownByYear && ids.isEmpty {
                throw .file(path: path, reason: tr("the journal has no entries, so there is no year to write"))
            }
            if let file = current?.file {
                try file.write(text.footer)
                if format != .markdownByYear { files = [file] }
            }
            for file in files { try file.finishWriting() }
            for file in files { try file.commit() }
        } catch {
            for file in files + (current.map { [$0.file] } ?? []) { file.abandon() }
            throw error
        }
        return ExportResult(entries: written, unreadable: unreadable, files: files.map(\.path))
    }
}
