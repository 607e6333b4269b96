import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// The model tells the list exactly what each edit changed, and only after the disk has it.
extension JournalModelTests {
    /// Three entries an hour apart (newest first: c, b, a), loaded into a model.
    @MainActor
    private func threeEntries(_ store: JournalStoring, real: JournalStore) throws -> (JournalModel, RecordingDelegate, [Entry]) {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let saved = try ["a", "b", "c"].enumerated().map { index, title in
            try real.save(newEntry(title), createdAt: base.addingTimeInterval(Double(index) * 3_600))
        }
        let (model, delegate) = loadedModel(store)
        return (model, delegate, saved)
    }

    @MainActor
    private func run<T>(_ start: (@escaping @MainActor (Result<T, JournalError>) -> Void) -> Void) -> Result<T, JournalError>? {
        var result: Result<T, JournalError>?
        start { result = $0 }
        waitUntil { result != nil }
        return result
    }

    func testABackDatedSaveLandsAtItsPlaceNotAtTheTop() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try MainActor.assumeIsolated {
            let (model, delegate, saved) = try threeEntries(store, real: store)
            let between = Date(timeIntervalSince1970: 1_700_000_000 + 1_800)
            let result = run { model.save(newEntry("back-dated", date: between), completion: $0) }
            let entry = try XCTUnwrap(try result?.get())
            XCTAssertEqual(entry.createdAt, between)
            XCTAssertEqual(delegate.changes.last, .inserted(index: 2))
            XCTAssertEqual(model.ids, [saved[2].id, saved[1].id, entry.id, saved[0].id])
            XCTAssertEqual(model.ids, try store.entryIDs())
        }
    }

    func testAnEditInPlaceIsAnUpdateOfThatRowOnly() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try MainActor.assumeIsolated {
            let (model, delegate, saved) = try threeEntries(store, real: store)
            let result = run { model.update(id: saved[1].id, with: newEntry("B!", .theBest), completion: $0) }
            XCTAssertEqual(try result?.get().title, "B!")
            XCTAssertEqual(delegate.changes.last, .updated(id: saved[1].id, index: 1))
            XCTAssertEqual(model.entry(id: saved[1].id)?.mood, .theBest, "the row reads the new entry from memory")
            XCTAssertEqual(model.ids, try store.entryIDs())
        }
    }

    func testAnEditThatChangesTheDateMovesTheRow() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try MainActor.assumeIsolated {
            let (model, delegate, saved) = try threeEntries(store, real: store)
            let older = Date(timeIntervalSince1970: 1_600_000_000)
            _ = run { model.update(id: saved[2].id, with: newEntry("c", date: older), completion: $0) }
            XCTAssertEqual(delegate.changes.last, .moved(id: saved[2].id, from: 0, to: 2))
            XCTAssertEqual(model.ids, [saved[1].id, saved[0].id, saved[2].id])
            XCTAssertEqual(model.ids, try store.entryIDs())
        }
    }

    func testDeleteThenRestoreRemovesAndPutsBackTheSameRow() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try MainActor.assumeIsolated {
            let (model, delegate, saved) = try threeEntries(store, real: store)
            let deleted = try XCTUnwrap(try run { model.delete(id: saved[1].id, completion: $0) }?.get())
            XCTAssertEqual(deleted.entry, saved[1])
            XCTAssertEqual(delegate.changes.last, .removed(index: 1))
            XCTAssertEqual(model.ids, [saved[2].id, saved[0].id])

            let restored = try XCTUnwrap(try run { model.restore(deleted, completion: $0) }?.get())
            XCTAssertEqual(restored, saved[1])
            XCTAssertEqual(delegate.changes.last, .restored(index: 1))
            XCTAssertEqual(model.ids, try store.entryIDs())
        }
    }

    func testSeveralDeletesUndoLatestFirstBackToTheSameJournal() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        try MainActor.assumeIsolated {
            let (model, _, saved) = try threeEntries(store, real: store)
            let original = model.ids
            var undo: [DeletedEntry] = []
            for entry in [saved[0], saved[2], saved[1]] {
                undo.append(try XCTUnwrap(try run { model.delete(id: entry.id, completion: $0) }?.get()))
            }
            XCTAssertEqual(model.ids, [])
            while let latest = undo.popLast() {
                _ = try run { model.restore(latest, completion: $0) }?.get()
                XCTAssertEqual(model.ids, try store.entryIDs())
            }
            XCTAssertEqual(model.ids, original)
        }
    }

    func testAFailedEditOrDeleteChangesNothing() throws {
        let real = try JournalStore(path: folder.file("j.sqlite"))
        let faulty = FaultyStore(real: real)
        try MainActor.assumeIsolated {
            let (model, delegate, saved) = try threeEntries(faulty, real: real)
            faulty.failNextWrites(2)
            let edit = run { model.update(id: saved[0].id, with: newEntry("lost?"), completion: $0) }
            XCTAssertThrowsError(try edit?.get()) { XCTAssertEqual($0 as? JournalError, .diskFull) }
            let delete = run { model.delete(id: saved[0].id, completion: $0) }
            XCTAssertThrowsError(try delete?.get())
            XCTAssertEqual(delegate.changes, [.reloaded])
            XCTAssertEqual(model.ids.count, 3)
            XCTAssertEqual(try real.entries(ids: [saved[0].id]).first?.title, "a")
        }
    }
}

extension JournalModelTests {
    func testMemoryFollowsWhatWasReadLatelyNotTheJournalsSize() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let start = Date(timeIntervalSince1970: 1_000)
        try store.save((0..<5_000).map { (entry: newEntry("e\($0)"), createdAt: start.addingTimeInterval(Double($0))) })
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            // Read the whole journal, a window at a time, as a long scroll would.
            // (The newest come with the ids.)
            for index in stride(from: JournalModel.openingEntries, to: model.count, by: 60) { // the model reads 60 at a time
                _ = model.entry(at: index)
                let changes = delegate.changes.count
                waitUntil { delegate.changes.count > changes }
            }
            let cached = model.ids.filter { id in model.isCached(id: id) }
            XCTAssertLessThanOrEqual(cached.count, JournalModel.cacheLimit)
            XCTAssertTrue(model.isCached(id: model.ids.last!), "the latest read stay")
            XCTAssertFalse(model.isCached(id: model.ids.first!), "the oldest read go")
            XCTAssertNil(model.entry(at: 0), "and are read again when asked for")
            waitUntil { model.isCached(id: model.ids.first!) }
        }
    }
}
