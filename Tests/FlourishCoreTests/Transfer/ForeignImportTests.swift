@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest
import ZIPFoundation

/// Journals from other apps, as files made here from what their formats are known to hold
/// (never copied from elsewhere): Day One's JSON export (a ZIP of journals and photos) and
/// jrnl's JSON export, each read into entries without a mood, imported, and imported again
/// adding nothing.
final class ForeignImportTests: XCTestCase {
    private let folder = TemporaryFolder()

    private var berlin: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }

    private func zip(_ members: [(String, Data)], _ name: String) throws -> String {
        try ZIPFixture.write(members, named: name, in: folder)
    }

    private func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }

    private func foreign(_ path: String) throws -> ForeignJournal {
        guard case .foreign(let journal) = try ImportFile.read(path: path, calendar: berlin) else {
            throw ImportProblem(line: nil, reason: "not read as another app's journal")
        }
        return journal
    }

    // MARK: - Day One

    /// Two journals ("Journal" and "Travel 🧳"): escapes, a heading as the title, a photo named
    /// by another entry's list, a photo the export lacks, a video, weather, a place, a star.
    private func dayOneExport() throws -> (path: String, pictures: [Data]) {
        let pictures = [PhotoStoreTests.picture(41), ExportImportTests.png(42)]
        let journal: [String: Any] = ["metadata": ["version": "1.0"], "entries": [
            ["uuid": "A1B2C3D4E5F60718293A4B5C6D7E8F90", "creationDate": "2021-03-02T08:15:00Z", "modifiedDate": "2021-03-05T10:00:00Z",
             "timeZone": "Europe/Berlin", "starred": true, "tags": ["walks"],
             "text": "# Sea air\\. At last\n\nWalked 5 km\\, then tea\\-time.\n\n![](dayone-moment://PHOTO-ONE)\n\n![](dayone-moment://PHOTO-TWO)\n\nAfter the photos.",
             "photos": [["identifier": "PHOTO-ONE", "md5": "0a1b2c3d", "type": "jpeg"]],
             "location": ["latitude": 54.18, "longitude": 7.88, "placeName": "Heligoland"],
             "weather": ["conditionsDescription": "Windy", "temperatureCelsius": 9]],
            ["uuid": "B1B2C3D4E5F60718293A4B5C6D7E8F90", "creationDate": "2021-03-03T20:00:00Z", "timeZone": "Europe/Berlin",
             "text": "A video\n![](dayone-moment:/video/VIDEO-ONE)\nand a photo that went missing ![](dayone-moment://PHOTO-GONE)",
             "photos": [["identifier": "PHOTO-TWO", "md5": "ffee0011", "type": "png"],
                        ["identifier": "PHOTO-GONE", "md5": "deadbeef", "type": "jpeg"]],
             "videos": [["identifier": "VIDEO-ONE", "md5": "v1", "type": "mp4"]]],
        ]]
        let travel: [String: Any] = ["metadata": ["version": "1.0"], "entries": [
            ["uuid": "C1B2C3D4E5F60718293A4B5C6D7E8F90", "creationDate": "2022-07-01T12:00:00Z", "text": "Lisbon\nTrams and tiles."],
        ]]
        let path = try zip([("Journal.json", try json(journal)), ("Travel 🧳.json", try json(travel)),
                            ("photos/0a1b2c3d.jpeg", pictures[0]), ("photos/ffee0011.png", pictures[1])], "dayone.zip")
        return (path, pictures)
    }

    func testADayOneExportComesInWithItsTitlesPhotosPlacesAndJournalsAsTags() throws {
        let (path, pictures) = try dayOneExport()
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "Day One")
        XCTAssertEqual(journal.tags, ["Journal", "Travel 🧳"], "several journals: each one's name a tag")
        XCTAssertEqual(journal.notImported, ["weather of 1 entry", "1 video"], "named and counted, not dropped")
        let byTitle = Dictionary(uniqueKeysWithValues: journal.entries.map { ($0.title, $0) })
        let sea = try XCTUnwrap(byTitle["Sea air. At last"], "the first line, its heading marks and escapes gone")
        XCTAssertEqual(sea.body, "Walked 5 km, then tea-time.\n\nAfter the photos.", "the photos leave the text")
        XCTAssertEqual(sea.photos.map(\.fileName), ["0a1b2c3d.jpeg", "ffee0011.png"],
                       "in the text's order, one of them listed under the other entry")
        XCTAssertNil(sea.mood)
        XCTAssertEqual(Set(sea.tags), ["walks", "Journal", "starred"])
        XCTAssertEqual(sea.location, Location(latitude: 54.18, longitude: 7.88, accuracy: 0))
        XCTAssertEqual(sea.createdAt.iso8601, "2021-03-02T08:15:00.000Z")
        XCTAssertEqual(sea.updatedAt?.iso8601, "2021-03-05T10:00:00.000Z")
        let video = try XCTUnwrap(byTitle["A video"])
        XCTAssertEqual(video.body, "and a photo that went missing", "no reference is kept as text")
        XCTAssertEqual(video.photos, [])
        XCTAssertEqual(video.leftBehind, ["deadbeef.jpeg"], "a photo the export lacks is said")
        XCTAssertEqual(byTitle["Lisbon"]?.tags, ["Travel 🧳"])
        XCTAssertTrue(ImportFile.foreign(journal).remarks.contains("1 photo is left behind"))
        XCTAssertTrue(ImportFile.foreign(journal).remarks.contains("Not imported: weather of 1 entry, 1 video."))

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let receipt = try store.importEntries(journal.entries, tags: journal.tags)
        XCTAssertEqual(receipt.entryIDs.count, 3)
        XCTAssertEqual(receipt.photos, 2)
        let imported = try store.entries(ids: try store.entryIDs())
        let kept = try XCTUnwrap(imported.first { $0.title == "Sea air. At last" })
        XCTAssertEqual(try kept.photos.map { try store.photo($0) }, pictures, "each photo byte for byte, in order")
        XCTAssertTrue(imported.allSatisfy { $0.mood == nil }, "Day One keeps no mood: none is made up")
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 3, "imported again, it adds nothing")
    }

    func testADayOneJSONAloneComesInWithoutItsPhotosSayingSo() throws {
        let path = folder.file("Journal.json")
        try json(["metadata": ["version": "1.0"], "entries": [
            ["uuid": "D1", "creationDate": "2020-01-01T09:00:00Z", "text": "Alone\n![](dayone-moment://P)", "photos": [["identifier": "P", "md5": "aa", "type": "jpeg"]]],
        ]]).write(to: URL(fileURLWithPath: path))
        let journal = try foreign(path)
        XCTAssertEqual(journal.entries.map(\.title), ["Alone"])
        XCTAssertEqual(journal.entries.first?.leftBehind, ["aa.jpeg"])
        XCTAssertEqual(journal.tags, [], "one journal: no tag of its name")
    }

    func testABadDayOneFileIsRefusedInOneLine() throws {
        let badDate = try zip([("Journal.json", try json(["metadata": [:], "entries": [["uuid": "X", "creationDate": "yesterday", "text": "x"]]]))], "bad.zip")
        XCTAssertThrowsError(try ImportFile.read(path: badDate)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "Journal, entry 1: its creationDate “yesterday” is not an ISO 8601 time.")
        }
        // A journal that inflates past the limit is refused before it is whole.
        let huge = try zip([("Journal.json", Data("{\"metadata\": {}, \"entries\": [".utf8) + Data(repeating: 0x20, count: ForeignText.documentLimit + 1))], "huge.zip")
        XCTAssertThrowsError(try ImportFile.read(path: huge)) { error in
            XCTAssertTrue((error as? ImportProblem)?.message.contains("larger than 64 MiB unpacked") ?? false, "\(error)")
        }
        let other = try zip([("notes.txt", Data("hello".utf8))], "other.zip")
        XCTAssertThrowsError(try ImportFile.read(path: other)) { error in
            XCTAssertTrue((error as? ImportProblem)?.message.contains("none of the exports Flourish reads") ?? false, "\(error)")
        }
    }

    // MARK: - Diaro

    private static let diaroXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <data version="2">
        <table name="diaro_folders"><r><uid>f1</uid><title>Travel</title><color>#ff0000</color><pattern/></r></table>
        <table name="diaro_tags"><r><uid>t1</uid><title>beach</title></r><r><uid>t2</uid><title>friends &amp; family</title></r></table>
        <table name="diaro_locations"><r><uid>l1</uid><title>Lisbon</title><lat>38.72</lat><lng>-9.14</lng></r></table>
        <table name="diaro_entries">
        <r><uid>e1</uid><date>1656676800000</date><tz_offset>+01:00</tz_offset><title>Sea &lt;3</title><text><![CDATA[Swam <b>far</b>.
        Then lunch.]]></text><folder_uid>f1</folder_uid><location_uid>l1</location_uid><tags>,t1,t2,</tags><mood>2</mood><weather_temperature>24</weather_temperature></r>
        <r><uid>e2</uid><date>1656763200000</date><title></title><text>No mood that day &#x1F30A;</text><folder_uid/><location_uid/><tags/><mood/></r>
        </table>
        <table name="diaro_attachments">
        <r><uid>a2</uid><entry_uid>e1</entry_uid><type>photo</type><filename>photo_b.png</filename><position>2</position></r>
        <r><uid>a1</uid><entry_uid>e1</entry_uid><type>photo</type><filename>photo_a.jpg</filename><position>1</position></r>
        <r><uid>a3</uid><entry_uid>e1</entry_uid><type>photo</type><filename>photo_gone.jpg</filename><position>3</position></r>
        </table>
        </data>
        """

    func testADiaroBackupComesInWithItsFoldersTagsPlacesMoodsAndPhotosInOrder() throws {
        let pictures = [PhotoStoreTests.picture(71), ExportImportTests.png(72)]
        let path = try zip([("DiaroBackup.xml", Data(Self.diaroXML.utf8)), ("media/photo/photo_a.jpg", pictures[0]),
                            ("media/photo/photo_b.png", pictures[1])], "diaro.zip")
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "Diaro")
        XCTAssertEqual(journal.notImported, ["weather of 1 entry"])
        let sea = try XCTUnwrap(journal.entries.first { $0.title == "Sea <3" })
        XCTAssertEqual(sea.body, "Swam <b>far</b>.\nThen lunch.", "CDATA as written")
        XCTAssertEqual(sea.mood, .reallyGood)
        XCTAssertEqual(Set(sea.tags), ["beach", "friends & family", "Travel"], "tags, and the folder as a tag")
        XCTAssertEqual(sea.location, Location(latitude: 38.72, longitude: -9.14, accuracy: 0))
        XCTAssertEqual(sea.photos.map(\.fileName), ["photo_a.jpg", "photo_b.png"], "by their position")
        XCTAssertEqual(sea.leftBehind, ["photo_gone.jpg"])
        XCTAssertEqual(sea.createdAt.milliseconds, 1_656_676_800_000)
        let other = try XCTUnwrap(journal.entries.first { $0.title.isEmpty })
        XCTAssertEqual(other.body, "No mood that day 🌊")
        XCTAssertNil(other.mood, "an empty mood is none")

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        XCTAssertEqual(try store.importEntries(journal.entries, tags: journal.tags).photos, 2)
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 2, "imported again, it adds nothing")
    }

    func testAnEncryptedOrEntityDeclaringDiaroBackupIsRefusedInWords() throws {
        let encrypted = try zip([("DiaroBackup.xml", Data((0..<64).map { UInt8($0 * 7 % 256) }))], "encrypted.zip")
        XCTAssertThrowsError(try ImportFile.read(path: encrypted)) { error in
            XCTAssertTrue((error as? ImportProblem)?.message.hasPrefix("This Diaro backup is encrypted") ?? false, "\(error)")
        }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE data [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>"
            + "<data><table name=\"diaro_entries\"><r><uid>x</uid><date>1</date><text>&b;</text></r></table></data>"
        let bomb = try zip([("DiaroBackup.xml", Data(laughs.utf8))], "laughs.zip")
        XCTAssertThrowsError(try ImportFile.read(path: bomb)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "This Diaro backup declares a document type, which Diaro never writes: it is not imported.")
        }
    }

    // MARK: - Journey

    func testAJourneyExportComesInWithItsMoodsHTMLPlacesAndPhotos() throws {
        let picture = PhotoStoreTests.picture(51)
        let none = 1.7976931348623157e308
        let entries: [[String: Any]] = [
            ["id": "1614000000000-3f2a", "date_journal": 1_614_000_000_000, "date_modified": 1_614_100_000_000, "timezone": "Europe/Berlin",
             "type": "html", "text": "<p>Snow day</p><p>Built a snowman &amp; went <b>sledging</b>.</p>", "mood": 1,
             "lat": 52.52, "lon": 13.405, "tags": ["winter"], "photos": ["1614000000000-3f2a-abc.jpg", "missing.jpg"],
             "weather": ["description": "Snow", "degree_c": -3, "icon": "13d"]],
            ["id": "1614200000000-9b1c", "date_journal": 1_614_200_000_000, "type": "markdown", "text": "Quiet\nNothing much.",
             "mood": 0, "lat": none, "lon": none, "tags": [], "photos": [],
             "weather": ["description": "", "degree_c": none, "icon": ""]],
            ["id": "1614300000000-77aa", "date_journal": 1_614_300_000_000, "text": "Rough one", "mood": 5, "lat": none, "lon": none],
        ]
        var members = try entries.map { ("\($0["id"]!).json", try json($0)) }
        members.append(("1614000000000-3f2a-abc.jpg", picture))
        let path = try zip(members, "journey.zip")
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "Journey")
        XCTAssertEqual(journal.notImported, ["weather of 1 entry"], "an empty weather is no weather")
        let byTitle = Dictionary(uniqueKeysWithValues: journal.entries.map { ($0.title, $0) })
        let snow = try XCTUnwrap(byTitle["Snow day"])
        XCTAssertEqual(snow.body, "Built a snowman & went sledging.", "HTML made plain text")
        XCTAssertEqual(snow.mood, .theBest, "1 of five is the best")
        XCTAssertEqual(snow.location, Location(latitude: 52.52, longitude: 13.405, accuracy: 0))
        XCTAssertEqual(snow.photos.map(\.fileName), ["1614000000000-3f2a-abc.jpg"])
        XCTAssertEqual(snow.leftBehind, ["missing.jpg"])
        XCTAssertEqual(snow.createdAt.milliseconds, 1_614_000_000_000)
        XCTAssertEqual(snow.updatedAt?.milliseconds, 1_614_100_000_000)
        XCTAssertNil(byTitle["Quiet"]?.mood, "0 is no mood")
        XCTAssertNil(byTitle["Quiet"]?.location, "the largest double is no place")
        XCTAssertEqual(byTitle["Rough one"]?.mood, .theWorst)

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let receipt = try store.importEntries(journal.entries, tags: journal.tags)
        XCTAssertEqual(receipt.entryIDs.count, 3)
        XCTAssertEqual(receipt.photos, 1)
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 3, "imported again, it adds nothing")

        let bad = try zip([("x.json", try json(["id": "x", "date_journal": 1, "text": "t", "mood": 9]))], "bad-journey.zip")
        XCTAssertThrowsError(try ImportFile.read(path: bad)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "x.json: its mood 9 is not one of Journey’s five (1 to 5).")
        }
    }

    // MARK: - Markdown notes

    /// A vault: notes by day in a folder of their own, front matter, pictures both ways (one
    /// beside the note, one by name elsewhere, one missing), a note not named by a date, an
    /// embedded note and a web picture left as text.
    private func vault() throws -> (path: String, pictures: [Data]) {
        let root = folder.file("Vault")
        let pictures = [PhotoStoreTests.picture(61), ExportImportTests.png(62)]
        let files: [(String, Data)] = [
            ("Daily/2024-03-02.md", Data("""
                ---
                tags: [garden, "spring"]
                mood: 2
                ---
                # First seeds
                Sowed tomatoes. ![](seed%20tray.jpg)
                ![[sky.png|300]] and ![[Old plans]] and ![web](https://example.org/a.png)
                ![[gone.jpg]]
                """.utf8)),
            ("Daily/seed tray.jpg", pictures[0]),
            ("Attachments/sky.png", pictures[1]),
            ("Daily/2024-03-03 Sunday.md", Data("---\ntags:\n  - rest\n  - '#home'\nmood: splendid\n---\nLazy day\n".utf8)),
            ("Daily/2024-03-04.markdown", Data("---\nmood: the worst\n---\nFlu\n".utf8)),
            ("Ideas.md", Data("Not a day\n".utf8)),
            (".obsidian/app.json", Data("{}".utf8)),
        ]
        for (path, data) in files {
            let full = (root as NSString).appendingPathComponent(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
        }
        return (root, pictures)
    }

    func testAFolderOfDailyNotesComesInWithTheirFrontMatterAndPictures() throws {
        let (path, pictures) = try vault()
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "Markdown notes")
        XCTAssertEqual(journal.notImported, ["1 note not named by a date", "the mood “splendid” of 1 note"])
        let byTitle = Dictionary(uniqueKeysWithValues: journal.entries.map { ($0.title, $0) })
        let seeds = try XCTUnwrap(byTitle["First seeds"])
        XCTAssertEqual(seeds.body, "Sowed tomatoes. \n and ![[Old plans]] and ![web](https://example.org/a.png)",
                       "pictures leave the text; a note or a web address stays as written")
        XCTAssertEqual(seeds.photos.map(\.fileName), ["seed tray.jpg", "sky.png"], "beside the note, then found by name")
        XCTAssertEqual(seeds.leftBehind, ["gone.jpg"])
        XCTAssertEqual(seeds.tags, ["garden", "spring"])
        XCTAssertEqual(seeds.mood, .reallyGood, "2 of five")
        XCTAssertEqual(seeds.createdAt, ExportedTime(berlin.date(from: DateComponents(year: 2024, month: 3, day: 2, hour: 12))!), "noon, local")
        XCTAssertEqual(byTitle["Lazy day"]?.tags, ["rest", "home"])
        XCTAssertNil(byTitle["Lazy day"]?.mood, "a mood that is none stays none, and is said")
        XCTAssertEqual(byTitle["Flu"]?.mood, .theWorst, "a mood by its name")
        XCTAssertEqual(journal.entries.count, 3)

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let receipt = try store.importEntries(journal.entries, tags: journal.tags)
        XCTAssertEqual(receipt.photos, 2)
        let kept = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.title == "First seeds" })
        XCTAssertEqual(try kept.photos.map { try store.photo($0) }, pictures)
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 3, "the same notes again add nothing")

        // The same vault as a ZIP file reads the same.
        var members: [(String, Data)] = []
        for relative in ["Daily/2024-03-02.md", "Daily/seed tray.jpg", "Attachments/sky.png"] {
            members.append((relative, try Data(contentsOf: URL(fileURLWithPath: (path as NSString).appendingPathComponent(relative)))))
        }
        let zipped = try foreign(try zip(members, "vault.zip"))
        XCTAssertEqual(zipped.entries.first?.photos.map(\.fileName), ["seed tray.jpg", "sky.png"])
        XCTAssertEqual(zipped.entries.first?.uuid, seeds.uuid, "the same note is the same entry, from a folder or a ZIP")
    }

    // MARK: - RedNotebook

    /// RedNotebook's data folder: a month in today's PyYAML block style, one in the older flow
    /// style, a picture the text links to that is on this computer and one that is not.
    private func redNotebook() throws -> (path: String, picture: Data) {
        let data = folder.file("rednotebook-data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let picture = PhotoStoreTests.picture(81)
        let beach = folder.file("beach.jpg")
        try picture.write(to: URL(fileURLWithPath: beach))
        let march = """
            1:
              text: 'First line

                Second line with **bold** and //italic//, see [our site ""https://example.org""]


                [""\(beach.dropLast(4))"".jpg]
                [""/nowhere/lost"".png]

                = Heading ='
            2:
              Work:
                Meeting with Sam: null
                Review: null
              text: It's a long day, and I wrote quite a lot about it because there was a lot
                to say about the weather.
            15:
              Ideas:
                Buy milk: null
            16:
              text: "Quote \\"this\\" and: colon \\\\ backslash\\ttab\\u00e9"

            """
        let april = """
            3: {text: 'Old style, it''s quoted

                and folded'}
            4:
              Garden: {Tomatoes: null}
              text: Plain
            """
        try Data(march.utf8).write(to: URL(fileURLWithPath: (data as NSString).appendingPathComponent("2015-03.txt")))
        try Data(april.utf8).write(to: URL(fileURLWithPath: (data as NSString).appendingPathComponent("2015-04.txt")))
        return (data, picture)
    }

    func testARedNotebookDataFolderComesInDayByDayWithCategoriesAsTags() throws {
        let (path, picture) = try redNotebook()
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "RedNotebook")
        let byTitle = Dictionary(uniqueKeysWithValues: journal.entries.map { ($0.title, $0) })
        let first = try XCTUnwrap(byTitle["First line"])
        XCTAssertEqual(first.body, "Second line with bold and italic, see our site (https://example.org)\n\nHeading",
                       "txt2tags made readable, the images taken out")
        XCTAssertEqual(first.photos.map(\.fileName), ["beach.jpg"], "a picture on this computer comes along")
        XCTAssertEqual(first.leftBehind, ["/nowhere/lost.png"], "one that is not is said")
        XCTAssertEqual(first.createdAt, ExportedTime(berlin.date(from: DateComponents(year: 2015, month: 3, day: 1, hour: 12))!))
        XCTAssertNil(first.mood)
        let long = try XCTUnwrap(byTitle["It's a long day, and I wrote quite a lot about it because there was a lot to say about the weather."])
        XCTAssertEqual(long.tags, ["Work"])
        XCTAssertEqual(long.body, "Work: Meeting with Sam\nWork: Review", "a category's entries kept as lines")
        XCTAssertEqual(byTitle["Ideas: Buy milk"]?.tags, ["Ideas"], "a day of categories only")
        XCTAssertEqual(byTitle["Quote \"this\" and: colon \\ backslash\ttabé"]?.body, "", "double-quoted escapes undone")
        XCTAssertEqual(byTitle["Old style, it's quoted"]?.body, "and folded")
        XCTAssertEqual(byTitle["Plain"]?.tags, ["Garden"])
        XCTAssertEqual(journal.entries.count, 6)

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        let receipt = try store.importEntries(journal.entries, tags: journal.tags)
        XCTAssertEqual(receipt.photos, 1)
        let kept = try XCTUnwrap(try store.entries(ids: try store.entryIDs()).first { $0.title == "First line" })
        XCTAssertEqual(try kept.photos.map { try store.photo($0) }, [picture])
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 6, "imported again, it adds nothing")
    }

    func testAMonthFileThatIsNotYAMLIsRefusedInOneLine() throws {
        let data = folder.file("broken-data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data("1: {text: 'never closed\n".utf8).write(to: URL(fileURLWithPath: (data as NSString).appendingPathComponent("2015-03.txt")))
        XCTAssertThrowsError(try ImportFile.read(path: data)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "Line 1: 2015-03.txt is not a RedNotebook month: its YAML cannot be read.")
        }
    }

    // MARK: - jrnl

    func testAJrnlExportComesInAtItsLocalTimesWithItsTagsAndStars() throws {
        let path = folder.file("jrnl.json")
        try json(["tags": ["@work": 1], "entries": [
            ["title": "Standup moved.", "body": "Again.\nTwo lines.", "date": "2024-03-31", "time": "09:30", "tags": ["@work"], "starred": true],
            ["title": "Clocks went forward", "body": "", "date": "2024-03-31", "time": "01:15", "tags": [], "starred": false],
        ]]).write(to: URL(fileURLWithPath: path))
        let journal = try foreign(path)
        XCTAssertEqual(journal.source, "jrnl")
        let standup = try XCTUnwrap(journal.entries.first)
        XCTAssertEqual(standup.title, "Standup moved.")
        XCTAssertEqual(standup.body, "Again.\nTwo lines.")
        XCTAssertEqual(standup.tags, ["work", "starred"], "@ dropped; a star kept as a tag")
        XCTAssertEqual(standup.createdAt.iso8601, "2024-03-31T07:30:00.000Z", "09:30 in Berlin, summer time")
        XCTAssertEqual(journal.entries[1].createdAt.iso8601, "2024-03-31T00:15:00.000Z", "01:15 in Berlin, winter time")
        XCTAssertNil(standup.mood)

        let store = try JournalStore(path: folder.file("journal.sqlite"))
        XCTAssertEqual(try store.importEntries(journal.entries, tags: journal.tags).entryIDs.count, 2)
        XCTAssertEqual(try store.importSummary(try foreign(path).entries).already, 2, "the same export again adds nothing")

        try json(["entries": [["title": "t", "body": "", "date": "2024-02-30", "time": "09:30"]]]).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ImportFile.read(path: path, calendar: berlin)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "entry 1: its date “2024-02-30 09:30” is not a date and time.")
        }
    }

    func testAPictureTooLargeByItsHeaderIsLeftBehindUnread() throws {
        // A PNG whose header says 60,000 × 60,000 (3.6 gigapixels), a JPEG whose frame says
        // 20,000 × 20,000, and a small real-sized JPEG header: only the last is kept.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0x00, 0x00, 0xEA, 0x60, 0x00, 0x00, 0xEA, 0x60, 8, 6, 0, 0, 0]) + Data(repeating: 0, count: 64)
        func jpeg(width: Int, height: Int) -> Data {
            // Start of image, an APP0 block of 16 bytes, then a frame header giving the size.
            var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
            bytes += Array("JFIF\0".utf8) + [UInt8](repeating: 1, count: 9)
            let size: [UInt8] = [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
            bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08] + size + [UInt8](repeating: 2, count: 64)
            return Data(bytes)
        }
        XCTAssertEqual(ImportPicture.dimensions(of: png).map { [$0.0, $0.1] }, [60_000, 60_000])
        XCTAssertEqual(ImportPicture.dimensions(of: jpeg(width: 640, height: 480)).map { [$0.0, $0.1] }, [640, 480])
        let document: [String: Any] = ["metadata": [:], "entries": [
            ["uuid": "P", "creationDate": "2020-01-01T09:00:00Z",
             "text": "Three\n![](dayone-moment://HUGE) ![](dayone-moment://TALL) ![](dayone-moment://FINE)",
             "photos": [["identifier": "HUGE", "md5": "huge", "type": "png"], ["identifier": "TALL", "md5": "tall", "type": "jpeg"],
                        ["identifier": "FINE", "md5": "fine", "type": "jpeg"]]],
        ]]
        let path = try zip([("Journal.json", try json(document)), ("photos/huge.png", png),
                            ("photos/tall.jpeg", jpeg(width: 20_000, height: 20_000)), ("photos/fine.jpeg", jpeg(width: 640, height: 480))], "huge.zip")
        let entry = try XCTUnwrap(try foreign(path).entries.first)
        XCTAssertEqual(entry.photos.map(\.fileName), ["fine.jpeg"])
        XCTAssertEqual(entry.leftBehind, ["huge.png", "tall.jpeg"], "named, never stored or thumbnailed")
    }

    func testACSVFieldLongerThanAnyJournalsIsRefusedAtOnce() throws {
        let path = folder.file("daylio.csv")
        let note = String(repeating: "a", count: CSV.fieldLimit + 1)
        try Data("full_date,date,weekday,time,mood,activities,note_title,note\n2024-03-01,March 1,Friday,21:00,rad,,Long,\"\(note)\"\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ImportFile.read(path: path)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "Line 2: a field longer than 1 MiB of text, longer than any journal's.")
        }
    }

    func testAValueAMeasureCannotHoldIsSaidBeforeTheImportNotDroppedInSilence() throws {
        let store = try JournalStore(path: folder.file("from.sqlite"))
        let energy = try store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        let sleep = try store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours"))
        _ = try store.save(NewEntry(title: "Tired", body: "", mood: .meh, measures: [energy.id: 2, sleep.id: 5.5]))
        _ = try store.save(NewEntry(title: "Wired", body: "", mood: .okay, measures: [energy.id: 4]))
        let path = folder.file("journal.json")
        _ = try store.export(.json, to: path)
        // As a hand (or another program) left it: 7 and 4.5 on a scale of 1 to 5.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"Energy\":2", with: "\"Energy\":7").replacingOccurrences(of: "\"Energy\":4", with: "\"Energy\":4.5")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let file = try ImportFile.read(path: path)
        XCTAssertEqual(ImportFile.valuesNotKept(in: file.entries ?? [], measures: file.measures),
                       "2 values of “Energy” are not ones it can hold, and are not kept.")
    }

    /// Files made to break the readers: each is refused in words or read safely, never a crash,
    /// and nothing outside the folder chosen is read.
    func testHostileFilesAreRefusedOrReadSafely() throws {
        func refused(_ path: String, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try ImportFile.read(path: path, calendar: berlin), file: file, line: line) { error in
                XCTAssertTrue((error as? ImportProblem)?.message.contains(words) ?? false, "\(error)", file: file, line: line)
            }
        }
        // Front matter left empty, as a template leaves it.
        let notes = folder.file("notes")
        try FileManager.default.createDirectory(atPath: (notes as NSString).appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("---\n---\nEmpty front matter\n![](../../secret.jpg) ![](./../secret.jpg)\n".utf8)
            .write(to: URL(fileURLWithPath: (notes as NSString).appendingPathComponent("in/2024-01-01.md")))
        try PhotoStoreTests.picture(91).write(to: URL(fileURLWithPath: folder.file("secret.jpg")))
        let note = try XCTUnwrap(try foreign(notes).entries.first)
        XCTAssertEqual(note.title, "Empty front matter")
        XCTAssertEqual(note.photos, [], "a picture outside the folder chosen is never read")
        XCTAssertEqual(note.leftBehind, ["../../secret.jpg", "./../secret.jpg"])
        // A PNG claiming 4,294,967,295 pixels a side.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 8, 6, 0, 0, 0])
        try png.write(to: URL(fileURLWithPath: (notes as NSString).appendingPathComponent("in/huge.png")))
        XCTAssertFalse(ImportPicture.isKeepable("in/huge.png", in: ImportFolder(root: notes)))
        // Times no journal can hold.
        let diaro = folder.file("DiaroBackup.xml")
        try Data("<data><table name=\"diaro_entries\"><r><uid>x</uid><date>-9223372036854775808</date></r></table></data>".utf8)
            .write(to: URL(fileURLWithPath: diaro))
        refused(diaro, "is not a time")
        let jrnl = folder.file("jrnl.json")
        try json(["entries": [["title": "t", "body": "", "date": "100000000000000000-01-01", "time": "09:00"]]]).write(to: URL(fileURLWithPath: jrnl))
        refused(jrnl, "is not a date and time")
        let journey = folder.file("journey.json")
        try json(["id": "j", "date_journal": -100_000_000_000_000, "text": "Long ago"]).write(to: URL(fileURLWithPath: journey))
        refused(journey, "its time is not between the years 1 and 9999")
        // A month nested a thousand deep.
        let months = folder.file("months")
        try FileManager.default.createDirectory(atPath: months, withIntermediateDirectories: true)
        try Data(("1: " + String(repeating: "{a: ", count: 1_000) + "null" + String(repeating: "}", count: 1_000) + "\n").utf8)
            .write(to: URL(fileURLWithPath: (months as NSString).appendingPathComponent("2015-03.txt")))
        refused(months, "is not a RedNotebook month")
    }

    func testAPipeOrAFolderIsRefusedBeforeItIsOpened() throws {
        let pipe = folder.file("journal.json")
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let link = folder.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pipe)
        for path in [pipe, link] {
            // A read of the pipe would wait for a writer for ever: refused at once instead.
            XCTAssertThrowsError(try ImportFile.read(path: path)) { error in
                XCTAssertEqual((error as? ImportProblem)?.message, "This is not a file but a pipe or a device, so Flourish does not read it.")
            }
        }
        XCTAssertThrowsError(try ImportFile.read(path: folder.path)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message,
                           "This folder holds no notes named by their day (such as 2024-03-02.md) and no RedNotebook months (2024-03.txt): choose such a folder, or an export file.")
        }
    }

    func testFlourishsOwnJSONIsStillReadAsFlourishs() throws {
        let store = try JournalStore(path: folder.file("from.sqlite"))
        _ = try store.save(NewEntry(title: "Mine", body: "", mood: .okay))
        let path = folder.file("mine.json")
        _ = try store.export(.json, to: path)
        guard case .flourish(let entries, _, _, _) = try ImportFile.read(path: path) else { return XCTFail("not read as Flourish's") }
        XCTAssertEqual(entries.map(\.title), ["Mine"])
    }
}
