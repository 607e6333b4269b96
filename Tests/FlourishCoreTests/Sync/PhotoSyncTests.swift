@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Photos travel with their entries through a real folder: each sealed on its own beside the
/// batches, named by a keyed hash, sent once, fetched by each machine byte for byte, waited for
/// when not there yet, refused when changed, and removed from the place once no entry names it.
final class PhotoSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"

    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }
    private var photosAtPlace: String { folder.file("Flourish/photos") }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func setUp(_ machine: SyncMachine) throws {
        machine.sync = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive).0
    }

    private func entry(_ title: String, photos: [EntryPhoto]) throws -> NewEntry {
        try EntryDraft(title: title, mood: .reallyGood, photos: photos).validated().get()
    }

    private func placePhotos() throws -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photosAtPlace)) ?? []
        return try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: photosAtPlace + "/" + $0))) })
    }

    private func modified(_ name: String) throws -> Date {
        try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: photosAtPlace + "/" + name)[.modificationDate] as? Date)
    }

    /// A laptop with an entry of two photos (one of them on a second entry too), synced.
    private func laptopWithPhotos() throws -> (SyncMachine, [EntryPhoto], Entry) {
        let laptop = try machine("laptop")
        let photos = try (1...2).map { try laptop.store.addPhoto(PhotoStoreTests.picture(30 + $0, size: 200_000), fileName: "IMG_\($0).jpg") }
        let beach = try laptop.store.save(entry("Beach", photos: photos), createdAt: Date(timeIntervalSince1970: 1_000))
        _ = try laptop.store.save(entry("Dunes again", photos: [photos[1]]), createdAt: Date(timeIntervalSince1970: 2_000))
        try setUp(laptop)
        let report = try laptop.syncNow()
        XCTAssertEqual(report.photosSent, 2, "each photo once, though two entries name one of them")
        return (laptop, photos, beach)
    }

    func testPhotosTravelSealedBesideTheBatchesAndArriveByteForByte() throws {
        let (laptop, photos, beach) = try laptopWithPhotos()
        let atPlace = try placePhotos()
        XCTAssertEqual(atPlace.count, 2)
        for (name, data) in atPlace {
            XCTAssertTrue(PhotoName.isValid(name))
            XCTAssertFalse(photos.map(\.id).contains(name), "the place's names are not the journal's own")
            XCTAssertFalse(data.starts(with: [0xFF, 0xD8, 0xFF]), "no JPEG header")
            XCTAssertNil(data.range(of: Data("FLOURISH-EXIF-MARKER".utf8)), "no EXIF text")
            XCTAssertGreaterThan(data.count, 200_000, "a photo's file, not a batch's")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: place.path) where name.hasSuffix(".batch") {
            let batch = try Data(contentsOf: URL(fileURLWithPath: place.path + "/" + name))
            XCTAssertLessThan(batch.count, 20_000, "batches stay small: photos are never inside them")
        }

        let desktop = try machine("desktop")
        try setUp(desktop)
        var progress: [(Int, Int)] = []
        desktop.sync?.photoProgress = { progress.append(($0, $1)) }
        let joined = try desktop.syncNow()
        XCTAssertEqual(joined.photosReceived, 2)
        XCTAssertEqual(progress.last.map { [$0.0, $0.1] }, [2, 2], "photo 2 of 2")
        let arrived = try XCTUnwrap(try desktop.entry(beach.uuid))
        XCTAssertEqual(arrived.photos.map(\.fileName), ["IMG_1.jpg", "IMG_2.jpg"])
        XCTAssertEqual(try arrived.photos.map { try desktop.store.photo($0) }, [PhotoStoreTests.picture(31, size: 200_000),
                                                                              PhotoStoreTests.picture(32, size: 200_000)])
        XCTAssertEqual(try desktop.store.entries(ids: try desktop.store.entryIDs()).first { $0.title == "Dunes again" }?.photos.map(\.id),
                       [arrived.photos[1].id], "a photo two entries share is kept once")
        XCTAssertEqual(joined.photosSent, 0, "nothing sent back: the place has them")

        let sentAt = try Dictionary(uniqueKeysWithValues: placePhotos().keys.map { ($0, try modified($0)) })
        XCTAssertEqual(try laptop.syncNow().photosSent, 0)
        XCTAssertEqual(try desktop.syncNow().photosSent, 0)
        XCTAssertEqual(try Dictionary(uniqueKeysWithValues: placePhotos().keys.map { ($0, try modified($0)) }), sentAt,
                       "uploaded once and never again")
    }

    func testAnEditElsewhereKeepsThePhotosAndTakingOneOffTravels() throws {
        let (laptop, photos, beach) = try laptopWithPhotos()
        let desktop = try machine("desktop")
        try setUp(desktop)
        try desktop.syncNow()
        // Words edited on the desktop: the photos stay, there and back on the laptop.
        let onDesktop = try XCTUnwrap(try desktop.entry(beach.uuid))
        _ = try desktop.store.update(id: onDesktop.id, with: try EntryDraft(title: "Beach, edited", mood: .reallyGood).validated().get(),
                                     updatedAt: Date(timeIntervalSince1970: 5_000))
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.entry(beach.uuid)?.title, "Beach, edited")
        XCTAssertEqual(try laptop.entry(beach.uuid)?.photos, photos)
        // One photo taken off on the laptop: gone on the desktop too.
        let onLaptop = try XCTUnwrap(try laptop.entry(beach.uuid))
        _ = try laptop.store.update(id: onLaptop.id, with: try EntryDraft(title: "Beach, edited", mood: .reallyGood, photos: [photos[1]])
            .validated().get(), updatedAt: Date(timeIntervalSince1970: 6_000))
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertEqual(try desktop.entry(beach.uuid)?.photos.map(\.fileName), ["IMG_2.jpg"])
    }

    func testABatchWaitsForAPhotoNotThereYetAndARefusedOneIsNeverKept() throws {
        let (_, _, beach) = try laptopWithPhotos()
        let atPlace = try placePhotos()
        let (first, sealed) = try XCTUnwrap(atPlace.first)
        // Not there yet (a folder syncing files in any order): the entry waits, nothing is said wrong.
        try FileManager.default.removeItem(atPath: photosAtPlace + "/" + first)
        let desktop = try machine("desktop")
        try setUp(desktop)
        let early = try desktop.syncNow()
        XCTAssertGreaterThan(early.photosWaiting, 0)
        XCTAssertEqual(early.refused, [])
        XCTAssertNil(try desktop.entry(beach.uuid), "not applied without its photos")
        // Changed at the place: refused by its seal, never kept, the entry still waits.
        var changed = sealed
        changed[changed.count / 2] ^= 0x01
        try changed.write(to: URL(fileURLWithPath: photosAtPlace + "/" + first))
        let tampered = try desktop.syncNow()
        XCTAssertEqual(tampered.refused, ["photos/" + first])
        XCTAssertNil(try desktop.entry(beach.uuid))
        // Another photo's file put under its name: refused too (its name is sealed in).
        let other = try XCTUnwrap(atPlace.first { $0.key != first })
        try other.value.write(to: URL(fileURLWithPath: photosAtPlace + "/" + first))
        XCTAssertEqual(try desktop.syncNow().refused, ["photos/" + first])
        // Back as it was: the entry arrives whole.
        try sealed.write(to: URL(fileURLWithPath: photosAtPlace + "/" + first))
        let late = try desktop.syncNow()
        XCTAssertEqual(late.refused, [])
        XCTAssertEqual(try desktop.entry(beach.uuid)?.photos.count, 2)
    }

    func testAPhotoNoEntryNamesLeavesThePlaceAfterAWeekAndOneMissingIsSentAgain() throws {
        let (laptop, photos, beach) = try laptopWithPhotos()
        let desktop = try machine("desktop")
        try setUp(desktop)
        try desktop.syncNow()
        // Removed from the place by mistake: any machine that has it sends it again.
        let names = Array(try placePhotos().keys)
        try FileManager.default.removeItem(atPath: photosAtPlace + "/" + names[0])
        XCTAssertEqual(try desktop.syncNow().photosSent, 1)
        XCTAssertEqual(Set(try placePhotos().keys), Set(names))

        // The entries naming the first photo go: a week later it leaves the place.
        let onLaptop = try XCTUnwrap(try laptop.entry(beach.uuid))
        _ = try laptop.store.update(id: onLaptop.id, with: try EntryDraft(title: "Beach", mood: .reallyGood, photos: [photos[1]])
            .validated().get(), updatedAt: Date(timeIntervalSince1970: 6_000))
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertEqual(try placePhotos().count, 2, "not at once: an edit elsewhere may still name it")
        let week = Date().addingTimeInterval(JournalSync.unusedPhotoGrace + 60)
        laptop.sync?.now = { week }
        try laptop.syncNow()
        XCTAssertEqual(try placePhotos().count, 1)
        XCTAssertEqual(try desktop.syncNow().photosSent, 0, "the desktop has no entry naming it either")
        XCTAssertEqual(try placePhotos().count, 1)
    }

    /// More photos than are written together: a first sync cut off part-way through them leaves
    /// nothing half-written at the place, the next sends the rest, and a machine joining keeps
    /// each whole, with no temporary file left on either side.
    func testManyPhotosGoInBatchesAndACutOffSyncLeavesNothingHalfDone() throws {
        let laptop = try machine("laptop")
        let count = PhotoBatch.photos * 2 + 3
        let photos = try (1...count).map { try laptop.store.addPhoto(PhotoStoreTests.picture(100 + $0, size: 20_000), fileName: "IMG_\($0).jpg") }
        let trip = try laptop.store.save(entry("Trip", photos: photos), createdAt: Date(timeIntervalSince1970: 1_000))
        try setUp(laptop)
        // The place is cut off after a few photos were written: the sync says so, and what it
        // wrote is whole.
        let faulty = FaultyPlace(place, failAfter: PhotoBatch.photos + 2, afterWriting: false)
        XCTAssertThrowsError(try JournalSync.open(laptop.store, at: faulty, passphrase: passphrase).sync())
        let cut = try placePhotos()
        XCTAssertGreaterThan(cut.count, 0)
        XCTAssertLessThan(cut.count, count)
        XCTAssertEqual(try laptop.syncNow().photosSent, count - cut.count, "the rest, and none twice")
        XCTAssertEqual(try placePhotos().count, count)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: photosAtPlace).filter { $0.hasPrefix(".") }, [],
                       "no temporary file left at the place")

        let desktop = try machine("desktop")
        try setUp(desktop)
        var progress: [(Int, Int)] = []
        desktop.sync?.photoProgress = { progress.append(($0, $1)) }
        XCTAssertEqual(try desktop.syncNow().photosReceived, count)
        XCTAssertEqual(progress.map(\.0), Array(1...count), "photo 1 of \(count), one after another")
        let arrived = try XCTUnwrap(try desktop.entry(trip.uuid))
        XCTAssertEqual(try arrived.photos.map { try desktop.store.photo($0) }, (1...count).map { PhotoStoreTests.picture(100 + $0, size: 20_000) })
        let here = PhotoFolder(journal: desktop.store.file)
        XCTAssertEqual(here.names().count, count)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: here.path).filter { $0.hasSuffix(".partial") }, [],
                       "every photo written was kept under its name")
    }
}
