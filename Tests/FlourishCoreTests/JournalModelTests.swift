import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest

/// Records what the model tells its delegate.
@MainActor
final class RecordingDelegate: JournalModelDelegate {
    var changes: [JournalChange] = []
    var errors: [JournalError] = []
    func journalModel(_ model: JournalModel, didChange change: JournalChange) { changes.append(change) }
    func journalModel(_ model: JournalModel, didFailWith error: JournalError) { errors.append(error) }
}

final class JournalModelTests: XCTestCase {
    private let folder = TemporaryFolder()

    /// Runs the main run loop (which drains the main queue) until `condition` holds.
    @MainActor
    private func waitUntil(_ condition: @MainActor () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertTrue(condition(), "condition not met within 5 s", file: file, line: line)
    }

    /// A model over `store` with a recording delegate, its ids loaded.
    @MainActor
    private func loadedModel(_ store: JournalStoring) -> (JournalModel, RecordingDelegate) {
        let model = JournalModel(store: store)
        let delegate = RecordingDelegate()
        model.delegate = delegate
        model.load()
        waitUntil { model.isLoaded }
        return (model, delegate)
    }

    private func newEntry(_ title: String, _ mood: Mood = .okay) -> NewEntry {
        try! EntryDraft(title: title, mood: mood).validated().get()
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

    func testEntriesArriveLazilyInOneBatch() throws {
        let store = try JournalStore(path: folder.file("j.sqlite"))
        let saved = try (0..<200).map { try store.save(newEntry("entry \($0)"), createdAt: Date(timeIntervalSince1970: Double($0))) }
        MainActor.assumeIsolated {
            let (model, delegate) = loadedModel(store)
            XCTAssertNil(model.entry(at: 0), "nothing is read before a row asks")
            XCTAssertNil(model.entry(at: 1))
            waitUntil { delegate.changes.count == 2 }
            guard case .entriesLoaded(let ids)? = delegate.changes.last else { return XCTFail("no entries loaded") }
            XCTAssertTrue(ids.contains(saved[199].id) && ids.contains(saved[198].id))
            XCTAssertLessThan(ids.count, 200, "only a window around the requested rows is read")
            XCTAssertEqual(model.entry(at: 0)?.title, "entry 199")
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
