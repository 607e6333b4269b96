@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest
import ZIPFoundation

/// A Daylio backup brings its photos: each found by its checksum under assets/photos/ (whose
/// month counts from 1, where the entries' counts from 0), on the right entries in order, a photo
/// two entries share kept once; a photo missing from the backup or not a picture is left behind
/// and said, and nothing else is lost.
extension ExportImportTests {
    /// A backup of two entries of March 2024 (Daylio's month 2): the first carries a JPEG, a PNG
    /// and a photo whose file is missing; the second the same JPEG, a voice note, and a "photo"
    /// that is text.
    private func backupWithPhotos(jpeg: Data, png: Data) throws -> String {
        let json = """
            {"customMoods": [{"id": 1, "custom_name": "", "mood_group_id": 1, "predefined_name_id": 1}],
             "assets": [{"id": 10, "checksum": "c0ffee01", "type": 1}, {"id": 11, "checksum": "c0ffee02", "type": 1},
                        {"id": 12, "checksum": "c0ffee03", "type": 1}, {"id": 13, "checksum": "c0ffee04", "type": 2},
                        {"id": 14, "checksum": "c0ffee05", "type": 1}],
             "dayEntries": [
               {"datetime": 1709407800000, "timeZoneOffset": 3600000, "year": 2024, "month": 2, "day": 2, "hour": 20, "minute": 30,
                "mood": 1, "note_title": "Lake", "note": "Cold water", "tags": [], "assets": [10, 11, 12]},
               {"datetime": 1709323200000, "timeZoneOffset": 3600000, "year": 2024, "month": 2, "day": 1, "hour": 21, "minute": 0,
                "mood": 1, "note_title": "Shore", "note": "", "tags": [], "assets": [10, 13, 14]}
             ]}
            """
        let members: [(String, Data)] = [
            ("backup.daylio", Data(Data(json.utf8).base64EncodedString(options: .lineLength76Characters).utf8)),
            ("assets/photos/2024/3/c0ffee01", jpeg),
            ("assets/photos/2024/3/c0ffee02", png),
            ("assets/audio/2024/3/c0ffee04", Data("a voice".utf8)),
            ("assets/photos/2024/3/c0ffee05", Data("not a picture".utf8)),
        ]
        let path = folder.file("phone.daylio")
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (member, data) in members {
            try archive.addEntry(with: member, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return path
    }

    func testADaylioBackupBringsItsPhotosToTheRightEntriesAndSaysWhatStaysBehind() throws {
        let jpeg = PhotoStoreTests.picture(21), png = Self.png(22)
        let path = try backupWithPhotos(jpeg: jpeg, png: png)
        let file = try ImportFile.read(path: path, calendar: utc)
        guard case .daylio(let export) = file else { return XCTFail("read as Daylio") }
        XCTAssertEqual(export.photos, 2, "the JPEG two entries share is one photo")
        XCTAssertEqual(export.photosLeftBehind, 2, "one missing, one not a picture")
        XCTAssertEqual(export.voiceNotesNotImported, 1)
        XCTAssertEqual(file.remarks, "2 photos are left behind: they are missing from the file or are not pictures. "
                       + "Not imported (Flourish keeps no sound): 1 voice note.")
        let entries = export.entries()
        XCTAssertEqual(entries.map { $0.photos.map(\.fileName) }, [["Daylio 2024-03-02.jpg", "Daylio 2024-03-02 (2).png"], ["Daylio 2024-03-01.jpg"]])
        XCTAssertEqual(entries.map(\.leftBehind), [["asset 12"], ["asset 14"]])

        let store = try JournalStore(path: folder.file("daylio-photos.sqlite"))
        XCTAssertEqual(try store.importSummary(entries), ImportSummary(entries: 2, already: 0, tags: 0, newTags: 0, photos: 2))
        let receipt = try store.importEntries(entries)
        XCTAssertEqual(receipt.entryIDs.count, 2)
        XCTAssertEqual(receipt.photos, 2)
        let saved = Dictionary(uniqueKeysWithValues: try store.entries(ids: receipt.entryIDs).map { ($0.title, $0) })
        let lake = try XCTUnwrap(saved["Lake"]), shore = try XCTUnwrap(saved["Shore"])
        XCTAssertEqual(lake.body, "Cold water", "the words come too")
        XCTAssertEqual(lake.photos.map(\.fileName), ["Daylio 2024-03-02.jpg", "Daylio 2024-03-02 (2).png"])
        XCTAssertEqual(try lake.photos.map { try store.photo($0) }, [jpeg, png], "each photo's bytes, in order")
        XCTAssertEqual(shore.photos.map(\.fileName), ["Daylio 2024-03-01.jpg"])
        XCTAssertEqual(try store.photo(try XCTUnwrap(shore.photos.first)), jpeg)
        XCTAssertEqual(shore.photos.first?.id, lake.photos.first?.id, "the shared photo is one stored photo")
        XCTAssertEqual(store.photoFolder.names().count, 2)

        // The same backup again: nothing new, no photo kept twice.
        guard case .daylio(let again) = try ImportFile.read(path: path, calendar: utc) else { return XCTFail() }
        XCTAssertEqual(try store.importSummary(again.entries()).photos, 0)
        XCTAssertEqual(try store.importEntries(again.entries()).entryIDs, [])
        XCTAssertEqual(store.photoFolder.names().count, 2)
        XCTAssertEqual(try store.count(), 2)
    }
}
