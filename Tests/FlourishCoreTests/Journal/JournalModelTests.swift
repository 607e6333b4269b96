import FlourishCore
import GRDB
import FlourishTestSupport
import Foundation
import XCTest

/// The real store, counting how often entries are read.
final class CountingStore: JournalStoring, @unchecked Sendable {
    let real: JournalStore
    private let lock = NSLock()
    private var reads = 0
    init(real: JournalStore) { self.real = real }
    var entryReads: Int { lock.withLock { reads } }
    func save(_ entry: NewEntry, createdAt: Date) throws(JournalError) -> Entry { try real.save(entry, createdAt: createdAt) }
    func entryIDs() throws(JournalError) -> [Int64] { try real.entryIDs() }
    func update(id: Int64, with entry: NewEntry, updatedAt: Date) throws(JournalError) -> Entry {
        try real.update(id: id, with: entry, updatedAt: updatedAt)
    }
    func delete(id: Int64) throws(JournalError) -> DeletedEntry { try real.delete(id: id) }
    func restore(_ deleted: DeletedEntry) throws(JournalError) -> Entry { try real.restore(deleted) }
    func position(of id: Int64) throws(JournalError) -> Int? { try real.position(of: id) }
    func check() -> JournalHealth { real.check() }
    func dataVersion() -> Int? { real.dataVersion() }
    func matches(_ query: JournalQuery) throws(JournalError) -> [Int64] { try real.matches(query) }
    func tags(counted: Bool) throws(JournalError) -> [Tag] { try real.tags(counted: counted) }
    func ownWords() -> [String] { real.ownWords() }
    func addOwnWord(_ word: String) throws(JournalError) { try real.addOwnWord(word) }
    func spellingLanguage() -> String? { real.spellingLanguage() }
    func setSpellingLanguage(_ language: String?) throws(JournalError) { try real.setSpellingLanguage(language) }
    func isSpellingChecked() -> Bool { real.isSpellingChecked() }
    func setSpellingChecked(_ checked: Bool) throws(JournalError) { try real.setSpellingChecked(checked) }
    func templates() throws(JournalError) -> [EntryTemplate] { try real.templates() }
    func createTemplate(_ definition: TemplateDefinition) throws(JournalError) -> EntryTemplate { try real.createTemplate(definition) }
    func updateTemplate(id: Int64, to definition: TemplateDefinition) throws(JournalError) -> EntryTemplate { try real.updateTemplate(id: id, to: definition) }
    func setDefaultTemplate(id: Int64?) throws(JournalError) { try real.setDefaultTemplate(id: id) }
    func deleteTemplate(id: Int64) throws(JournalError) -> DeletedTemplate { try real.deleteTemplate(id: id) }
    func restoreTemplate(_ deleted: DeletedTemplate) throws(JournalError) -> EntryTemplate { try real.restoreTemplate(deleted) }
    func memories(on today: Date, calendar: Calendar) throws(JournalError) -> [Memory] {
        try real.memories(on: today, calendar: calendar)
    }
    func insights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> Insights {
        try real.insights(for: period, now: now, calendar: calendar)
    }
    func wordsByMonth(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MonthWords] {
        try real.wordsByMonth(for: period, now: now, calendar: calendar)
    }
    func measureInsights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MeasureInsight] {
        try real.measureInsights(for: period, now: now, calendar: calendar)
    }
    func export(_ format: ExportFormat, to path: String, calendar: Calendar, now: Date,
                progress: (Int, Int) -> Bool) throws(ExportFailure) -> ExportResult {
        try real.export(format, to: path, calendar: calendar, now: now, progress: progress)
    }
    func importSummary(_ entries: [ImportedEntry]) throws(JournalError) -> ImportSummary { try real.importSummary(entries) }
    func importEntries(_ entries: [ImportedEntry], tags: [String], measures: [ImportedMeasure],
                       templates: [ImportedTemplate]) throws(JournalError) -> ImportReceipt {
        try real.importEntries(entries, tags: tags, measures: measures, templates: templates)
    }
    func undoImport(_ receipt: ImportReceipt) throws(JournalError) { try real.undoImport(receipt) }
    func earlierVersions(of uuid: String) throws(JournalError) -> [EarlierVersion] { try real.earlierVersions(of: uuid) }
    func useEarlierVersion(_ version: EarlierVersion, forEntry id: Int64, updatedAt: Date) throws(JournalError) -> Entry {
        try real.useEarlierVersion(version, forEntry: id, updatedAt: updatedAt)
    }
    func addPhoto(_ bytes: Data, fileName: String, thumbnail: Data?) throws(JournalError) -> EntryPhoto {
        try real.addPhoto(bytes, fileName: fileName, thumbnail: thumbnail)
    }
    func photo(_ photo: EntryPhoto) throws(JournalError) -> Data { try real.photo(photo) }
    func bookPlan(_ range: BookRange, calendar: Calendar) throws(JournalError) -> BookPlan { try real.bookPlan(range, calendar: calendar) }
    func thumbnail(of photo: EntryPhoto) throws(JournalError) -> Data? { try real.thumbnail(of: photo) }
    func keepThumbnail(_ bytes: Data, of photo: EntryPhoto) throws(JournalError) { try real.keepThumbnail(bytes, of: photo) }
    func createTag(named name: String) throws(JournalError) -> Tag { try real.createTag(named: name) }
    func renameTag(id: Int64, to name: String) throws(JournalError) { try real.renameTag(id: id, to: name) }
    func mergeTag(id: Int64, into target: Int64) throws(JournalError) -> Int { try real.mergeTag(id: id, into: target) }
    func deleteTag(id: Int64) throws(JournalError) -> Int { try real.deleteTag(id: id) }
    func measures() throws(JournalError) -> [Measure] { try real.measures() }
    func measureUse() throws(JournalError) -> [Int64: Int] { try real.measureUse() }
    func createMeasure(_ definition: MeasureDefinition) throws(JournalError) -> Measure { try real.createMeasure(definition) }
    func updateMeasure(id: Int64, to definition: MeasureDefinition) throws(JournalError) -> Measure {
        try real.updateMeasure(id: id, to: definition)
    }
    func moveMeasure(id: Int64, to index: Int) throws(JournalError) { try real.moveMeasure(id: id, to: index) }
    func deleteMeasure(id: Int64) throws(JournalError) -> DeletedMeasure { try real.deleteMeasure(id: id) }
    func restoreMeasure(_ deleted: DeletedMeasure) throws(JournalError) -> Measure { try real.restoreMeasure(deleted) }
    func read(ids: [Int64]) throws(JournalError) -> EntryBatch {
        lock.withLock { reads += 1 }
        return try real.read(ids: ids)
    }
}

/// Records what the model tells its delegate.
@MainActor
final class RecordingDelegate: JournalModelDelegate {
    var changes: [JournalChange] = []
    var errors: [JournalError] = []
    func journalModel(_ model: JournalModel, didChange change: JournalChange) { changes.append(change) }
    func journalModel(_ model: JournalModel, didFailWith error: JournalError) { errors.append(error) }
}

final class JournalModelTests: XCTestCase {
    let folder = TemporaryFolder()

    /// Runs the main run loop (which drains the main queue) until `condition` holds.
    @MainActor
    func waitUntil(_ condition: @MainActor () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertTrue(condition(), "condition not met within 5 s", file: file, line: line)
    }

    /// A model over `store` with a recording delegate, its ids loaded.
    @MainActor
    func loadedModel(_ store: JournalStoring) -> (JournalModel, RecordingDelegate) {
        let model = JournalModel(store: store)
        let delegate = RecordingDelegate()
        model.delegate = delegate
        model.load()
        waitUntil { model.isLoaded }
        return (model, delegate)
    }

    func newEntry(_ title: String, _ mood: Mood = .okay, date: Date? = nil) -> NewEntry {
        try! EntryDraft(title: title, mood: mood, date: date).validated().get()
    }

    func testLoadTellsTheDelegateAndListsNewestFirst() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let first = try store.save(newEntry("first"), createdAt: Date(timeIntervalSince1970: 1))
        let second = try store.save(newEntry("second"), createdAt: Date(timeIntervalSince1970: 2))
        MainActor.assumeIsolated {
            let model = JournalModel(store: store)
            let delegate = RecordingDelegate()
            model.delegate = delegate
            model.load()
            XCTAssertFalse(model.isLoaded, "loading happens off the calling thread")
            waitUntil { model.isLoaded }
            XCTAssertEqual(delegate.changes, [.reloaded])
            XCTAssertEqual(model.ids, [second.id, first.id])
        }
    }

    func testTheNewestEntriesComeWithTheIdsAndTheRestLazilyInOneBatch() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let saved = try (0..<200).map { try store.save(newEntry("entry \($0)"), createdAt: Date(timeIntervalSince1970: Double($0))) }
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            let opening = JournalModel.openingEntries
            XCTAssertEqual(model.entry(at: 0)?.title, "entry 199", "the rows the page opens on are read with the ids")
            XCTAssertEqual(model.entry(at: opening - 1)?.title, "entry \(200 - opening)")
            XCTAssertFalse(model.isCached(id: model.ids[opening]), "nothing further down is read before a row asks")
            XCTAssertNil(model.entry(at: 120))
            XCTAssertNil(model.entry(at: 121))
            waitUntil { delegate.changes.count == 2 }
            guard case .entriesLoaded(let ids)? = delegate.changes.last else { return XCTFail("no entries loaded") }
            XCTAssertTrue(ids.contains(saved[200 - 121].id) && ids.contains(saved[200 - 122].id))
            XCTAssertLessThan(ids.count, 200 - opening, "only a window around the requested rows is read")
            XCTAssertEqual(model.entry(at: 120)?.title, "entry 79")
        }
    }

    func testReadingAheadOfAScrollReadsTheRowsAPageFurtherBeforeTheyAsk() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try store.save((0..<500).map { (entry: newEntry("entry \($0)"), createdAt: Date(timeIntervalSince1970: Double($0))) })
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            let ahead = JournalModel.readAhead
            XCTAssertFalse(model.isCached(id: model.ids[100 + ahead]))
            model.readAhead(of: 100) // the row at 100 binds, scrolling down
            waitUntil { delegate.changes.count == 2 }
            XCTAssertTrue(model.isCached(id: model.ids[100 + ahead]), "the entries a page further down are read")
            XCTAssertTrue(model.isCached(id: model.ids[100 - ahead]), "and a page further up")
            XCTAssertFalse(model.isCached(id: model.ids[400]), "nothing far away")
            let changes = delegate.changes.count
            model.readAhead(of: 101)
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
            XCTAssertEqual(delegate.changes.count, changes, "what is in memory is not read again")
        }
    }

    func testSaveInsertsAtTheTopThenCompletes() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            var result: Result<Entry, JournalError>?
            model.save(newEntry("saved", .theBest)) { outcome in
                XCTAssertEqual(delegate.changes.last, .inserted(index: 0), "the list hears before the form")
                result = outcome
            }
            waitUntil { result != nil }
            let entry = try? result?.get()
            XCTAssertEqual(entry?.title, "saved")
            XCTAssertEqual(model.ids, [entry?.id].compactMap { $0 })
            XCTAssertEqual(model.entry(at: 0), entry)
        }
        XCTAssertEqual(try store.count(), 1)
    }

    func testAFailedSaveChangesNothingAndReportsTheError() throws {
        let store = FaultyStore(real: try JournalStore(path: folder.file("j.sqlite")), saveFailures: 1)
        try MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            var result: Result<Entry, JournalError>?
            model.save(newEntry("lost?")) { result = $0 }
            waitUntil { result != nil }
            XCTAssertThrowsError(try result?.get()) { XCTAssertEqual($0 as? JournalError, .diskFull) }
            XCTAssertEqual(model.ids, [])
            XCTAssertEqual(delegate.changes, [.reloaded])

            result = nil
            model.save(newEntry("kept")) { result = $0 }
            waitUntil { result != nil }
            XCTAssertEqual(try? result?.get().title, "kept")
        }
        XCTAssertEqual(try store.real.count(), 1)
    }

    func testAFailedLoadTellsTheDelegate() throws {
        let store = FaultyStore(real: try JournalStore(path: folder.file("j.sqlite")), readFailures: 1, error: .busy)
        MainActor.assumeIsolated {
            let model = JournalModel(store: store)
            let delegate = RecordingDelegate()
            model.delegate = delegate
            model.load()
            waitUntil { !delegate.errors.isEmpty }
            XCTAssertEqual(delegate.errors, [.busy])
            XCTAssertFalse(model.isLoaded)
        }
    }

    /// Writes an entry that no longer decodes (a mood off the scale, as only editing the file by
    /// hand, past the CHECK, could leave), dated `seconds` after 1970.
    func insertUnreadableEntry(at path: String, seconds: Int) throws -> Int64 {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "INSERT INTO entry (title, body, mood, created_at, uuid) VALUES ('bad', '', 9, ?, 'b')",
                           arguments: [String(format: "1970-01-01 00:00:%02d.000", seconds)])
            return db.lastInsertedRowID
        }
    }

    func testAnUnreadableRowIsReportedOnceAndNotAskedForAgain() throws {
        let path = folder.file("j.sqlite")
        let store = try JournalStore(path: path)
        // Enough newer entries that the bad one is not among those read with the ids.
        let good = try (0..<JournalModel.openingEntries).map {
            try store.save(newEntry("good \($0)"), createdAt: Date(timeIntervalSince1970: Double(10 + $0)))
        }
        let badID = try insertUnreadableEntry(at: path, seconds: 5)
        let counting = CountingStore(real: store)
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(counting)
            XCTAssertEqual(model.ids.last, badID)
            XCTAssertNil(model.entry(id: badID))
            waitUntil { delegate.changes.count == 2 }
            XCTAssertEqual(delegate.changes.last, .entriesLoaded(ids: [badID]))
            XCTAssertTrue(model.isUnreadable(id: badID))
            XCTAssertEqual(model.entry(id: good[0].id)?.title, "good 0")
            let reads = counting.entryReads
            XCTAssertNil(model.entry(id: badID))
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
            XCTAssertEqual(counting.entryReads, reads, "an unreadable row is not read again on every bind")
        }
    }

    func testAnUnreadableRowAmongTheNewestIsFoundWithTheIds() throws {
        let path = folder.file("j.sqlite")
        let store = try JournalStore(path: path)
        let good = try store.save(newEntry("good"), createdAt: Date(timeIntervalSince1970: 1))
        let badID = try insertUnreadableEntry(at: path, seconds: 5)
        let counting = CountingStore(real: store)
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(counting)
            XCTAssertEqual(model.ids, [badID, good.id])
            XCTAssertTrue(model.isUnreadable(id: badID), "read with the ids, and found unreadable")
            XCTAssertEqual(model.entry(id: good.id)?.title, "good")
            let reads = counting.entryReads
            XCTAssertNil(model.entry(id: badID))
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
            XCTAssertEqual(counting.entryReads, reads, "an unreadable row is not read again on every bind")
            XCTAssertEqual(delegate.changes, [.reloaded])
        }
    }

    func testFinishPendingWorkWaitsForSavesToReachTheDisk() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        MainActor.assumeIsolated {
            let model = JournalModel(store: store)
            for index in 0..<20 { model.save(newEntry("quick \(index)")) { _ in } }
            model.finishPendingWork()
        }
        XCTAssertEqual(try store.count(), 20)
    }
}
