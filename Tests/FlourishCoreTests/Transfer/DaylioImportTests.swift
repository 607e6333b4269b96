@testable import FlourishCore
import FlourishTestSupport
import Foundation
import XCTest
import ZIPFoundation

/// The parts of a Daylio import the fixtures cannot show alone: month names in many languages
/// and what is done when they could be two months; the backup and the CSV of the same entries
/// recognised in either order; bad backups refused, saying why; and how long it all takes.
final class DaylioImportTests: XCTestCase {
    let folder = TemporaryFolder()
    private var utc: Calendar { DaylioFixtureTests.utc }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = folder.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func day(_ year: Int, _ date: String) -> [String] {
        DaylioDates.readings(year: year, date: date).map { String(format: "%04d-%02d-%02d", $0.day.year, $0.day.month, $0.day.day) }
    }

    func testMonthNamesAreReadInEveryLanguageInADateAndAlone() {
        let cases: [(String, String)] = [
            ("7 września", "2018-09-07"), ("7 wrzesień", "2018-09-07"), ("16 de octubre", "2018-10-16"), ("June 22", "2018-06-22"),
            ("22. Juni", "2018-06-22"), ("22 juin", "2018-06-22"), ("Dec 31", "2018-12-31"), ("31 dic.", "2018-12-31"),
            ("6月22日", "2018-06-22"), ("6월 22일", "2018-06-22"), ("22 tháng 6", "2018-06-22"), ("16 d'octubre", "2018-10-16"),
            ("7 сентября", "2018-09-07"), ("22 giugno", "2018-06-22"), ("22 de junho", "2018-06-22"), ("22 juni", "2018-06-22"),
            ("22. června", "2018-06-22"), ("22 Haziran", "2018-06-22"), ("٢٢ يونيو", "2018-06-22"), ("2. Jänner", "2018-01-02"),
            ("June 22nd", "2018-06-22"), ("22 June 2018", "2018-06-22"),
        ]
        for (text, wanted) in cases {
            XCTAssertEqual(day(2018, text), [wanted], text)
        }
        XCTAssertEqual(day(2018, "31 February"), [], "no such day")
        XCTAssertEqual(day(2018, "Someday 7"), [], "no month")
        XCTAssertEqual(day(2018, "June"), [], "no day")
        // Daylio's languages first: "listopada" is Polish November (and Croatian October, in
        // the table of every language).
        XCTAssertEqual(day(2016, "3 listopada"), ["2016-11-03"])
        XCTAssertEqual(DaylioDates.readings(year: 2016, date: "3 listopada", in: DaylioCalendarNames.every).count, 2)
        XCTAssertEqual(day(2019, "5 Maw"), ["2019-03-05", "2019-07-05"], "Welsh March, Tsonga July")
    }

    /// A file imported by the first importer must be found again by this one: the identities
    /// below are what it gave (computed by its code).
    func testACSVEntryKeepsTheIdentityTheFirstImporterGaveIt() throws {
        let path = try write(ExportImportTests.daylio, "daylio.csv")
        guard case .daylio(let export) = try ImportFile.read(path: path, calendar: utc) else { return XCTFail() }
        XCTAssertEqual(export.records.first?.uuid, "f1d7641a-bca3-89b4-9b35-1f9f0bbcf641")
        let polish = DaylioFixtureTests.fixtures.appendingPathComponent("pl-older.csv").path
        guard case .daylio(let older) = try ImportFile.read(path: polish, calendar: utc) else { return XCTFail() }
        XCTAssertEqual(older.records[2].uuid, "1d91ba0b-e879-8ab2-aa56-a2c37fd1397b")
        XCTAssertEqual(older.records[2].aliases.count, 1, "and the canonical identity a backup of it has")
    }

    func testTimesInEveryWayDaylioWritesThem() {
        let cases: [(String, Int, Int)] = [("20:15", 20, 15), ("9:03", 9, 3), ("08:05", 8, 5), ("8:15 pm", 20, 15), ("3:26 AM", 3, 26),
                                           ("12:00 a.m.", 0, 0), ("12:00 P.M.", 12, 0), ("8:15PM", 20, 15), ("7:45 p. m.", 19, 45),
                                           ("20:15:59", 20, 15), ("00:00", 0, 0)]
        for (text, hour, minute) in cases {
            let time = DaylioDates.time(text)
            XCTAssertEqual(time?.hour, hour, text)
            XCTAssertEqual(time?.minute, minute, text)
        }
        for bad in ["25:00", "12:60", "13:00 pm", "0:15 am", "8.15", "half past nine", "", "8:5", "123:00", "20:15:99"] {
            XCTAssertNil(DaylioDates.time(bad), bad)
        }
    }

    func testATwoMonthDateIsSettledByItsWeekdayThenByTheFilesLanguageOrRefusedWithItsLine() throws {
        // "Maw" is March in Welsh and July in Tsonga. No weekday to go by: the other dates are
        // Welsh, so it is March.
        let welsh = "year,date,weekday,time,mood,activities,note\n2019,5 Maw,?,18:00,rad,,\n2019,7 Medi,?,9:00,rad,,\n"
        guard case .daylio(let export) = try ImportFile.read(path: try write(welsh, "cy.csv"), calendar: utc) else { return XCTFail() }
        XCTAssertEqual(export.records.map(\.time.iso8601), ["2019-03-05T18:00:00.000Z", "2019-09-07T09:00:00.000Z"])
        // The weekday says which: Friday 5 July 2019, not Tuesday 5 March.
        let weekday = "year,date,weekday,time,mood,activities,note\n2019,5 Maw,Friday,13:20,good,,\n"
        guard case .daylio(let settled) = try ImportFile.read(path: try write(weekday, "maw.csv"), calendar: utc) else { return XCTFail() }
        XCTAssertEqual(settled.records.map(\.time.iso8601), ["2019-07-05T13:20:00.000Z"])
        // Nothing to go by: refused, with the line.
        let alone = "year,date,weekday,time,mood,activities,note\n2019,5 Maw,?,13:20,good,,\n"
        XCTAssertThrowsError(try ImportFile.read(path: try write(alone, "alone.csv"), calendar: utc)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "Line 2: the date “5 Maw 2019” could be more than one day.")
        }
        let unreadable = "year,date,weekday,time,mood,activities,note\n2019,5 March,Tuesday,13:20,good,,\n2019,Blursday 7,?,10:00,good,,\n"
        XCTAssertThrowsError(try ImportFile.read(path: try write(unreadable, "bad.csv"), calendar: utc)) { error in
            XCTAssertEqual((error as? ImportProblem)?.message, "Line 3: the date “Blursday 7 2019” is not a day.")
        }
    }

    func testABackupNoteKeepsItsLineBreaksAndDropsItsTags() {
        XCTAssertEqual(DaylioNote.html("<div>Windy</div><div><b>but</b> clear</div>"), "Windy\nbut clear")
        XCTAssertEqual(DaylioNote.html("One<br>two<br/>three<BR />four"), "One\ntwo\nthree\nfour")
        XCTAssertEqual(DaylioNote.html("<b>Question?</b><br><br><b>Answer</b>"), "Question?\n\nAnswer")
        XCTAssertEqual(DaylioNote.html("List:<ul><li>one</li><li>two</li></ul>after"), "List:\none\ntwo\nafter")
        XCTAssertEqual(DaylioNote.html("<p>a<br></p><p>b</p>"), "a\nb")
        XCTAssertEqual(DaylioNote.html("I &lt;3 you &amp; &#233;t&#xE9; &quot;x&quot;, <3 and a < b"), "I <3 you & été \"x\", <3 and a < b")
        XCTAssertEqual(DaylioNote.html("Plain\nlines stay"), "Plain\nlines stay")
    }

    /// The same entries as a German CSV export and as a backup (`de-pair`): whichever comes
    /// second adds nothing.
    func testTheBackupAndTheCSVOfTheSameEntriesAreRecognisedInEitherOrder() throws {
        let csv = DaylioFixtureTests.fixtures.appendingPathComponent("de-pair.csv").path
        let backup = DaylioFixtureTests.fixtures.appendingPathComponent("de-pair-backup.daylio").path
        func entries(_ path: String) throws -> [ImportedEntry] {
            guard case .daylio(let export) = try ImportFile.read(path: path, calendar: utc) else { throw ImportProblem(line: nil, reason: "not Daylio") }
            return export.entries()
        }
        for (first, second) in [(csv, backup), (backup, csv)] {
            let journal = try JournalStore(path: folder.file("\((first as NSString).lastPathComponent).sqlite"))
            XCTAssertEqual(try journal.importEntries(try entries(first)).entryIDs.count, 2)
            XCTAssertEqual(try journal.importSummary(try entries(second)), ImportSummary(entries: 2, already: 2, tags: 0, newTags: 0), second)
            XCTAssertEqual(try journal.importEntries(try entries(second)).entryIDs, [], "\(second) after \(first) adds nothing")
            XCTAssertEqual(try journal.count(), 2)
        }
        // An entry changed since is another entry: it comes in beside the first.
        let journal = try JournalStore(path: folder.file("changed.sqlite"))
        _ = try journal.importEntries(try entries(backup))
        let edited = try String(contentsOfFile: csv, encoding: .utf8).replacingOccurrences(of: "Wochenende", with: "Urlaub")
        XCTAssertEqual(try journal.importEntries(try entries(try write(edited, "edited.csv"))).entryIDs.count, 1)
        XCTAssertEqual(try journal.count(), 3)
    }

    // MARK: - Bad backups

    private func zip(_ members: [(String, Data)], _ name: String) throws -> String {
        try ZIPFixture.write(members, named: name, in: folder)
    }

    private func base64(_ json: String) -> Data { Data(Data(json.utf8).base64EncodedString(options: .lineLength76Characters).utf8) }

    func testABadBackupIsRefusedSayingWhyAndNothingIsImported() throws {
        let entry = #"{"datetime": 1674550757766, "timeZoneOffset": 3600000, "year": 2023, "month": 0, "day": 24, "hour": 9, "minute": 59, "mood": %@, "note": "", "note_title": "", "tags": [], "assets": []}"#
        let moods = #"[{"id": 1, "custom_name": "", "mood_group_id": 1, "predefined_name_id": 1}]"#
        let cases: [(path: String, contains: String)] = [
            (try write("full_date,date\n", "text.daylio"), "not a ZIP file"),
            (try zip([("notes.txt", Data("hello".utf8))], "other.zip"), "none of the exports Flourish reads"),
            (try zip([("backup.daylio", Data("%%% not base64 at all %%%".utf8))], "base64.daylio"), "not Base64"),
            (try zip([("backup.daylio", base64("this is not JSON"))], "json.daylio"), "not valid JSON"),
            (try zip([("backup.daylio", base64(#"{"version": 15, "customMoods": []}"#))], "entries.daylio"), "“dayEntries” is missing"),
            (try zip([("backup.daylio", base64(#"{"customMoods": \#(moods), "dayEntries": [\#(String(format: entry, "42"))]}"#))], "mood.daylio"),
             "entry 1: its mood 42 is none of the backup’s moods."),
            (try zip([("backup.daylio", base64(#"{"customMoods": \#(moods), "dayEntries": [\#(String(format: entry, "1").replacingOccurrences(of: "\"day\": 24", with: "\"day\": 32").replacingOccurrences(of: "\"datetime\": 1674550757766, ", with: ""))]}"#))], "day.daylio"),
             "entry 1: its date is not a day."),
        ]
        let journal = try JournalStore(path: folder.file("bad.sqlite"))
        for (path, contains) in cases {
            XCTAssertThrowsError(try ImportFile.read(path: path, calendar: utc), path) { error in
                let message = (error as? ImportProblem)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(contains), "\(path): \(message)")
                XCTAssertNil((error as? ImportProblem)?.line)
            }
        }
        XCTAssertEqual(try journal.count(), 0)
        // And a good one made the same way reads: the refusals above are the file's, not the maker's.
        let good = try zip([("backup.daylio", base64(#"{"customMoods": \#(moods), "dayEntries": [\#(String(format: entry, "1"))]}"#))], "good.daylio")
        guard case .daylio(let export) = try ImportFile.read(path: good, calendar: utc) else { return XCTFail() }
        XCTAssertEqual(export.records.map(\.time.iso8601), ["2023-01-24T08:59:17.766Z"])
        XCTAssertEqual(export.moods.map(\.name), ["rad"])
    }

    // MARK: - How long it takes

    func testTheMonthTableAndALargeImportAreQuick() throws {
        var start = Date()
        let daylios = DaylioCalendarNames.build(Locale.availableIdentifiers.filter {
            DaylioMoods.languageCodes.contains(Locale(identifier: $0).language.languageCode?.identifier ?? "")
        })
        let dayliosSeconds = Date().timeIntervalSince(start)
        start = Date()
        let every = DaylioCalendarNames.build()
        let tableSeconds = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(daylios.months.count, 300, "month names of Daylio's languages")
        XCTAssertGreaterThan(every.months.count, 3_000, "month names of every language")
        XCTAssertLessThan(dayliosSeconds, 1, "the table of Daylio's languages, built once")
        XCTAssertLessThan(tableSeconds, 3, "the table of every language, built once")

        // Ten years of the older layout in Polish, two entries a day.
        var text = "year,date,weekday,time,mood,activities,note\n"
        let months = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"]
        var rows = 0
        for year in 2010..<2020 {
            for month in 1...12 {
                for dayOfMonth in 1...Insights.Day.length(ofMonth: month, in: year) {
                    text += "\(year),\(dayOfMonth) \(months[month - 1]),?,8:15,super,praca | sport,\"Notatka, dzień \(dayOfMonth)\"\n"
                    text += "\(year),\(dayOfMonth) \(months[month - 1]),?,21:40,źle,,\n"
                    rows += 2
                }
            }
        }
        let path = try write(text, "large.csv")
        start = Date()
        guard case .daylio(let export) = try ImportFile.read(path: path, calendar: utc) else { return XCTFail() }
        let readSeconds = Date().timeIntervalSince(start)
        XCTAssertEqual(export.records.count, rows)
        let journal = try JournalStore(path: folder.file("large.sqlite"))
        start = Date()
        let receipt = try journal.importEntries(export.entries())
        let importSeconds = Date().timeIntervalSince(start)
        XCTAssertEqual(receipt.entryIDs.count, rows)

        // The same as a backup: each entry with the names a CSV could have given its mood.
        let moods = (1...5).map { #"{"id": \#($0), "custom_name": "", "mood_group_id": \#($0), "predefined_name_id": \#($0)}"# }
        let entries = (0..<rows).map { index in
            #"{"datetime": \#(1_262_304_000_000 + Int64(index) * 43_200_000), "timeZoneOffset": 0, "mood": \#(index % 5 + 1), "#
                + #""note": "<div>Notatka</div><div>dzień \#(index)</div>", "note_title": "", "tags": [1, 2], "assets": []}"#
        }
        let json = #"{"customMoods": [\#(moods.joined(separator: ","))], "tags": [{"id": 1, "name": "praca"}, {"id": 2, "name": "sport"}], "#
            + #""dayEntries": [\#(entries.joined(separator: ","))]}"#
        let backup = try zip([("backup.daylio", base64(json))], "large.daylio")
        start = Date()
        guard case .daylio(let backupExport) = try ImportFile.read(path: backup, calendar: utc) else { return XCTFail() }
        let backupSeconds = Date().timeIntervalSince(start)
        XCTAssertEqual(backupExport.records.count, rows)
        start = Date()
        XCTAssertEqual(try journal.importSummary(backupExport.entries()).entries, rows)
        let summarySeconds = Date().timeIntervalSince(start)
        print(String(format: "Daylio timings: month tables %.3f s (Daylio's languages), %.3f s (every language); "
                     + "%d older-layout CSV rows read in %.3f s, imported in %.3f s; "
                     + "the same as a backup read in %.3f s, checked against the journal in %.3f s",
                     dayliosSeconds, tableSeconds, rows, readSeconds, importSeconds, backupSeconds, summarySeconds))
        XCTAssertLessThan(backupSeconds, 30)
        XCTAssertLessThan(readSeconds, 30)
        XCTAssertLessThan(importSeconds, 30)
    }
}
