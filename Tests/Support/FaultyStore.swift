import FlourishCore
import Foundation

/// The real store, with faults injected in front of it: the next `saveFailures` writes (saves,
/// edits, deletes, restores) or `readFailures` reads throw `error` before reaching the disk; then
/// every call goes through to the real file.
public final class FaultyStore: JournalStoring, @unchecked Sendable {
    public let real: JournalStore
    private let lock = NSLock()
    private var saveFailures: Int
    private var readFailures: Int
    private var entryFailures: Int
    public let error: JournalError

    /// - Parameters:
    ///   - readFailures: failures of any read (the id list first).
    ///   - entryFailures: failures of reading entries' contents only.
    public init(real: JournalStore, saveFailures: Int = 0, readFailures: Int = 0, entryFailures: Int = 0,
         error: JournalError = .diskFull) {
        self.real = real
        self.saveFailures = saveFailures
        self.readFailures = readFailures
        self.entryFailures = entryFailures
        self.error = error
    }

    private func take(_ counter: inout Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard counter > 0 else { return false }
        counter -= 1
        return true
    }

    public func save(_ entry: NewEntry, createdAt: Date) throws(JournalError) -> Entry {
        if take(&saveFailures) { throw error }
        return try real.save(entry, createdAt: createdAt)
    }

    public func update(id: Int64, with entry: NewEntry, updatedAt: Date) throws(JournalError) -> Entry {
        if take(&saveFailures) { throw error }
        return try real.update(id: id, with: entry, updatedAt: updatedAt)
    }

    public func delete(id: Int64) throws(JournalError) -> DeletedEntry {
        if take(&saveFailures) { throw error }
        return try real.delete(id: id)
    }

    public func restore(_ deleted: DeletedEntry) throws(JournalError) -> Entry {
        if take(&saveFailures) { throw error }
        return try real.restore(deleted)
    }

    public func position(of id: Int64) throws(JournalError) -> Int? { try real.position(of: id) }
    public func check() -> JournalHealth { real.check() }
    public func dataVersion() -> Int? { real.dataVersion() }
    public func matches(_ query: JournalQuery) throws(JournalError) -> [Int64] { try real.matches(query) }
    public func tags(counted: Bool) throws(JournalError) -> [Tag] { try real.tags(counted: counted) }
    public func ownWords() -> [String] { real.ownWords() }
    public func addOwnWord(_ word: String) throws(JournalError) { try real.addOwnWord(word) }
    public func spellingLanguage() -> String? { real.spellingLanguage() }
    public func setSpellingLanguage(_ language: String?) throws(JournalError) { try real.setSpellingLanguage(language) }
    public func isSpellingChecked() -> Bool { real.isSpellingChecked() }
    public func setSpellingChecked(_ checked: Bool) throws(JournalError) { try real.setSpellingChecked(checked) }
    public func templates() throws(JournalError) -> [EntryTemplate] { try real.templates() }
    public func createTemplate(_ definition: TemplateDefinition) throws(JournalError) -> EntryTemplate {
        if take(&saveFailures) { throw error }
        return try real.createTemplate(definition)
    }
    public func updateTemplate(id: Int64, to definition: TemplateDefinition) throws(JournalError) -> EntryTemplate {
        if take(&saveFailures) { throw error }
        return try real.updateTemplate(id: id, to: definition)
    }
    public func setDefaultTemplate(id: Int64?) throws(JournalError) {
        if take(&saveFailures) { throw error }
        try real.setDefaultTemplate(id: id)
    }
    public func deleteTemplate(id: Int64) throws(JournalError) -> DeletedTemplate {
        if take(&saveFailures) { throw error }
        return try real.deleteTemplate(id: id)
    }
    public func restoreTemplate(_ deleted: DeletedTemplate) throws(JournalError) -> EntryTemplate {
        if take(&saveFailures) { throw error }
        return try real.restoreTemplate(deleted)
    }
    public func measures() throws(JournalError) -> [Measure] { try real.measures() }
    public func measureUse() throws(JournalError) -> [Int64: Int] { try real.measureUse() }
    public func createMeasure(_ definition: MeasureDefinition) throws(JournalError) -> Measure {
        if take(&saveFailures) { throw error }
        return try real.createMeasure(definition)
    }
    public func updateMeasure(id: Int64, to definition: MeasureDefinition) throws(JournalError) -> Measure {
        if take(&saveFailures) { throw error }
        return try real.updateMeasure(id: id, to: definition)
    }
    public func moveMeasure(id: Int64, to index: Int) throws(JournalError) {
        if take(&saveFailures) { throw error }
        try real.moveMeasure(id: id, to: index)
    }
    public func deleteMeasure(id: Int64) throws(JournalError) -> DeletedMeasure {
        if take(&saveFailures) { throw error }
        return try real.deleteMeasure(id: id)
    }
    public func restoreMeasure(_ deleted: DeletedMeasure) throws(JournalError) -> Measure {
        if take(&saveFailures) { throw error }
        return try real.restoreMeasure(deleted)
    }
    public func export(_ format: ExportFormat, to path: String, calendar: Calendar, now: Date,
                       progress: (Int, Int) -> Bool) throws(ExportFailure) -> ExportResult {
        if take(&readFailures) { throw .journal(error) }
        return try real.export(format, to: path, calendar: calendar, now: now, progress: progress)
    }

    public func importSummary(_ entries: [ImportedEntry]) throws(JournalError) -> ImportSummary {
        if take(&readFailures) { throw error }
        return try real.importSummary(entries)
    }

    public func importEntries(_ entries: [ImportedEntry], tags: [String], measures: [ImportedMeasure],
                              templates: [ImportedTemplate]) throws(JournalError) -> ImportReceipt {
        if take(&saveFailures) { throw error }
        return try real.importEntries(entries, tags: tags, measures: measures, templates: templates)
    }

    public func undoImport(_ receipt: ImportReceipt) throws(JournalError) {
        if take(&saveFailures) { throw error }
        try real.undoImport(receipt)
    }

    public func earlierVersions(of uuid: String) throws(JournalError) -> [EarlierVersion] { try real.earlierVersions(of: uuid) }

    public func useEarlierVersion(_ version: EarlierVersion, forEntry id: Int64, updatedAt: Date) throws(JournalError) -> Entry {
        if take(&saveFailures) { throw error }
        return try real.useEarlierVersion(version, forEntry: id, updatedAt: updatedAt)
    }

    /// A failed save fails keeping a photo too: the disk that refuses one refuses the other.
    public func addPhoto(_ bytes: Data, fileName: String, thumbnail: Data?) throws(JournalError) -> EntryPhoto {
        if take(&saveFailures) { throw error }
        return try real.addPhoto(bytes, fileName: fileName, thumbnail: thumbnail)
    }

    public func photo(_ photo: EntryPhoto) throws(JournalError) -> Data { try real.photo(photo) }
    public func bookPlan(_ range: BookRange, calendar: Calendar) throws(JournalError) -> BookPlan {
        if take(&readFailures) { throw error }
        return try real.bookPlan(range, calendar: calendar)
    }
    public func thumbnail(of photo: EntryPhoto) throws(JournalError) -> Data? { try real.thumbnail(of: photo) }
    public func keepThumbnail(_ bytes: Data, of photo: EntryPhoto) throws(JournalError) { try real.keepThumbnail(bytes, of: photo) }

    public func memories(on today: Date, calendar: Calendar) throws(JournalError) -> [Memory] {
        if take(&readFailures) { throw error }
        return try real.memories(on: today, calendar: calendar)
    }

    public func insights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> Insights {
        try real.insights(for: period, now: now, calendar: calendar)
    }
    public func wordsByMonth(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MonthWords] {
        try real.wordsByMonth(for: period, now: now, calendar: calendar)
    }
    public func measureInsights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MeasureInsight] {
        try real.measureInsights(for: period, now: now, calendar: calendar)
    }

    public func createTag(named name: String) throws(JournalError) -> Tag {
        if take(&saveFailures) { throw error }
        return try real.createTag(named: name)
    }

    public func renameTag(id: Int64, to name: String) throws(JournalError) {
        if take(&saveFailures) { throw error }
        try real.renameTag(id: id, to: name)
    }

    public func mergeTag(id: Int64, into target: Int64) throws(JournalError) -> Int {
        if take(&saveFailures) { throw error }
        return try real.mergeTag(id: id, into: target)
    }

    public func deleteTag(id: Int64) throws(JournalError) -> Int {
        if take(&saveFailures) { throw error }
        return try real.deleteTag(id: id)
    }

    /// Makes the next `count` writes fail.
    public func failNextWrites(_ count: Int) {
        lock.lock()
        defer { lock.unlock() }
        saveFailures = count
    }

    public func entryIDs() throws(JournalError) -> [Int64] {
        if take(&readFailures) { throw error }
        return try real.entryIDs()
    }

    public func read(ids: [Int64]) throws(JournalError) -> EntryBatch {
        if take(&readFailures) || take(&entryFailures) { throw error }
        return try real.read(ids: ids)
    }
}
