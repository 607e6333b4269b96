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
    /// Distinct photos the entries written carry: written with them when the format includes
    /// photos, otherwise named (JSON) or left out (CSV).
    public let photos: Int
    /// Whether those photos were written (`ExportFormat.includesPhotos`).
    public let photosIncluded: Bool
}

extension JournalStore {
    /// How many entries an export reads at a time, and how often it reports its progress.
    static let exportBatch = 500

    /// Writes the whole journal, oldest entry first, to `path` (a folder for `.markdownByYear`),
    /// with its photos where the format takes them (see `ExportFormat`); a photo carried by
    /// several entries is written once. Each file is written beside its name and renamed into
    /// place once whole, readable by its owner only. Photos are read and written one at a
    /// time. `progress` hears (entries done, entries in all) after each batch and each photo,
    /// and returns false to cancel.
    public func export(_ format: ExportFormat, to path: String, calendar: Calendar = .current, now: Date = Date(),
                       progress: (Int, Int) -> Bool = { _, _ in true }) throws(ExportFailure) -> ExportResult {
        let ids: [Int64], tagNames: [Int64: String], hasPhotos: Bool, measures: [Measure], templates: [EntryTemplate]
        do {
            measures = try self.measures()
            templates = try self.templates()
            ids = Array(try entryIDs().reversed())
            tagNames = Dictionary(uniqueKeysWithValues: try tags(counted: false).map { ($0.id, $0.name) })
            hasPhotos = try reading { db in try db.tableExists("entry_photo") && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM entry_photo)") == true }
        } catch {
            throw .journal(error)
        }
        if format == .markdownByYear && ids.isEmpty {
            throw .file(path: path, reason: tr("the journal has no entries, so there is no year to write"))
        }
        if let folder = ExportTarget.photoFolder(of: format, at: path), Self.sameFolder(folder, photoFolder.path) {
            throw .file(path: path, reason: tr("its photos would go into the folder where the journal keeps its own; choose another name"))
        }
        var text = ExportText(format: format, calendar: calendar,
                              tagNames: tagNames.values.sorted { TagName.key($0) < TagName.key($1) }, measures: measures, exportedAt: now)
        text.templates = templates
        let target = try ExportTarget(format, path: path)
        var names = ExportPhotoNames()
        var year: Int?
        var written = 0, unreadable = 0
        var previousDay: Insights.Day?
        do throws(ExportFailure) {
            if format != .markdownByYear {
                let note = hasPhotos ? (format == .zip ? ExportDocument.photosBeside : ExportDocument.photosNotIncluded) : nil
                try target.write(text.header(photosNote: note))
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
                    if format == .markdownByYear && year != time.day.year {
                        year = time.day.year
                        try target.startYear(time.day.year)
                        try target.write(text.header(title: "Flourish journal \(time.day.year)"))
                        previousDay = nil
                    }
                    var links: [ExportText.PhotoLink] = []
                    for photo in entry.photos {
                        let (name, isNew) = names.name(of: photo)
                        links.append(ExportText.PhotoLink(name: photo.fileName, path: target.photoPrefix + name))
                        guard isNew, format.includesPhotos else { continue }
                        do {
                            try target.addPhoto(try self.photo(photo), as: name)
                        } catch let failure as ExportFailure {
                            throw failure
                        } catch {
                            throw .journal(error as? JournalError ?? .io(reason: "\(error)"))
                        }
                        guard progress(written, ids.count) else { throw .cancelled }
                    }
                    do {
                        try target.write(text.entry(entry, at: time, tags: tags, photos: links, first: written == 0, previousDay: previousDay))
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
            try target.write(text.footer)
            let files = try target.commit()
            return ExportResult(entries: written, unreadable: unreadable, files: files, photos: names.count, photosIncluded: format.includesPhotos)
        } catch {
            target.abandon()
            throw error
        }
    }

    /// Whether two paths are one folder (links followed).
    private static func sameFolder(_ one: String, _ other: String) -> Bool {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(one) == resolved(other)
    }
}
