@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Templates and words of one's own between machines syncing through a real folder: a template
/// made, edited, made the default and deleted on one arrives so on the other; an edit made after
/// a deletion elsewhere stands; the starters no one changed stay each machine's own; words added
/// anywhere are kept everywhere; a machine joining from a snapshot gets them all; a file that
/// carries them where they do not belong is refused whole.
final class TemplateSyncTests: XCTestCase {
    private let folder = TemporaryFolder()
    private let passphrase = "a long sync passphrase"
    private var place: FolderPlace { FolderPlace(path: folder.file("Flourish")) }

    private func machine(_ name: String) throws -> SyncMachine { try SyncMachine(folder.file("\(name).sqlite")) }

    private func setUp(_ machine: SyncMachine, expecting setup: JournalSync.Setup, every: Int? = nil) throws {
        let (sync, done) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
        XCTAssertEqual(done, setup)
        if let every { sync.snapshotEvery = every }
        machine.sync = sync
    }

    /// Each template as "name|title|body|mood|tags|default|uuid", in order.
    private func templates(_ machine: SyncMachine) throws -> [String] {
        try machine.store.templates().map { template in
            let definition = template.definition
            return [definition.name, definition.title, definition.body, definition.mood.map { "\($0.rawValue)" } ?? "-",
                    definition.tags.joined(separator: ","), template.isDefault ? "default" : "", template.uuid].joined(separator: "|")
        }
    }

    func testTemplatesTravelAndTheirChangesFollow() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let morning = try laptop.store.createTemplate(TemplateDefinition(name: "Morning pages", title: "Morning, {{date}}", body: "Three pages.",
                                                                         mood: .okay, tags: ["work"], measures: [sleep.uuid: 7]))
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        XCTAssertEqual(try templates(desktop), try templates(laptop), "the same templates, identities, order and all")
        let arrived = try XCTUnwrap(try desktop.store.templates().first { $0.uuid == morning.uuid })
        XCTAssertEqual(arrived.definition.values(in: try desktop.store.measures()).values.sorted(), [7], "its value, on the same measure")

        // Edited and made the default there; deleted here after; a new one made here.
        let there = try desktop.store.updateTemplate(id: arrived.id, to: TemplateDefinition(name: "Morning", body: "One page."))
        try desktop.store.setDefaultTemplate(id: there.id)
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.templates().first { $0.uuid == morning.uuid }?.definition.body, "One page.")
        XCTAssertEqual(try laptop.store.templates().first(where: \.isDefault)?.uuid, morning.uuid, "the default travels")
        let evening = try XCTUnwrap(try laptop.store.templates().first { $0.name == "Evening review" })
        _ = try laptop.store.deleteTemplate(id: evening.id)
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertEqual(try templates(desktop), try templates(laptop))
        XCTAssertFalse(try templates(desktop).contains { $0.hasPrefix("Evening review|") }, "the deletion travels")
    }

    func testAnEditMadeAfterADeletionElsewhereStandsAndTwoDefaultsSettleOnOne() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let shared = try laptop.store.createTemplate(TemplateDefinition(name: "Shared"))
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        let copy = try XCTUnwrap(try desktop.store.templates().first { $0.uuid == shared.uuid })

        // Apart: deleted on the laptop first, edited on the desktop later.
        _ = try laptop.store.deleteTemplate(id: shared.id)
        Thread.sleep(forTimeInterval: 0.01)
        _ = try desktop.store.updateTemplate(id: copy.id, to: TemplateDefinition(name: "Shared, kept", body: "Edited later."))
        // Each makes another the default, the desktop later.
        let weekly = { (machine: SyncMachine) in try XCTUnwrap(try machine.store.templates().first { $0.name == "Weekly review" }) }
        let three = { (machine: SyncMachine) in try XCTUnwrap(try machine.store.templates().first { $0.name == "Three good things" }) }
        try laptop.store.setDefaultTemplate(id: try weekly(laptop).id)
        Thread.sleep(forTimeInterval: 0.01)
        try desktop.store.setDefaultTemplate(id: try three(desktop).id)
        for _ in 0..<2 {
            try laptop.syncNow()
            try desktop.syncNow()
        }
        XCTAssertEqual(try templates(laptop), try templates(desktop), "both machines hold the same")
        XCTAssertEqual(try laptop.store.templates().first { $0.uuid == shared.uuid }?.definition.body, "Edited later.",
                       "the later edit stands over the earlier deletion")
        XCTAssertEqual(try laptop.store.templates().filter(\.isDefault).map(\.name), ["Three good things"], "the default chosen last")
    }

    func testStartersNoOneChangedStayEachMachinesOwnAndWordsAreKeptEverywhere() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        // The desktop's starters as another language would have made them: same uuids, other words.
        try desktop.store.writing { db in
            try db.execute(sql: "UPDATE template SET name = 'Trois bonnes choses' WHERE uuid = '5f1c2a9e-3b7d-4e61-9a0c-000000000001'")
        }
        try laptop.store.addOwnWord("Gretchenberg")
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.store.addOwnWord("Quillabamba")
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try laptop.store.templates().first?.name, "Three good things")
        XCTAssertEqual(try desktop.store.templates().first?.name, "Trois bonnes choses", "a starter no one changed is not sent")
        XCTAssertEqual(laptop.store.ownWords(), ["Gretchenberg", "Quillabamba"])
        XCTAssertEqual(desktop.store.ownWords(), ["Gretchenberg", "Quillabamba"])
        for (name, data) in try FileManager.default.contentsOfDirectory(atPath: place.path).map({
            ($0, try Data(contentsOf: URL(fileURLWithPath: (place.path as NSString).appendingPathComponent($0))))
        }) {
            XCTAssertNil(data.range(of: Data("Quillabamba".utf8)), "\(name): no word in the clear")
        }
    }

    func testAMachineJoiningFromASnapshotGetsTemplatesAndWords() throws {
        let laptop = try machine("laptop"), phone = try machine("phone")
        _ = try laptop.store.createTemplate(TemplateDefinition(name: "Gratitude", body: "- "))
        try laptop.store.addOwnWord("Quillabamba")
        try setUp(laptop, expecting: .started, every: 1)
        try laptop.syncNow()
        try laptop.syncNow()
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: place.path).contains { $0.hasSuffix(".snapshot") })
        try setUp(phone, expecting: .joined)
        try phone.syncNow()
        XCTAssertEqual(try templates(phone), try templates(laptop))
        XCTAssertEqual(phone.store.ownWords(), ["Quillabamba"])
    }

    func testAFileCarryingTemplatesOrWordsWhereTheyDoNotBelongIsRefusedWhole() throws {
        let journal = try machine("journal")
        var template = SyncChange(kind: .template)
        template.uuid = "9e0f2c1a-0000-4000-8000-000000000001"
        template.name = "Planted"
        template.at = "2026-12-07 10:00:00.000"
        var unnamed = template
        unnamed.name = "   "
        var withNUL = template
        withNUL.name = "\u{0}Planted"
        var farAway = template
        farAway.position = 1 << 40
        var twoTags = template
        twoTags.tags = ["one\ntwo"]
        let entries = try journal.store.entryIDs().count
        for (changes, extras, why) in [([template], SyncExtras(), "a template among the entries"),
                                       ([], { var e = SyncExtras(); e.templates = [unnamed]; return e }(), "a template without a name"),
                                       ([], { var e = SyncExtras(); e.words = [String(repeating: "w", count: 101)]; return e }(), "a word too long"),
                                       ([], { var e = SyncExtras(); e.words = ["\u{0}word"]; return e }(), "a word holding NUL"),
                                       ([], { var e = SyncExtras(); e.templates = [withNUL]; return e }(), "a name holding NUL"),
                                       ([], { var e = SyncExtras(); e.templates = [farAway]; return e }(), "a position past any list"),
                                       ([], { var e = SyncExtras(); e.templates = [twoTags]; return e }(), "a tag of two lines"),
                                       ([], { var e = SyncExtras(); e.measures = [template]; return e }(), "a template among the measures")] {
            XCTAssertThrowsError(try journal.store.apply(changes, extras: extras, fileName: "x.batch", fromSnapshot: false, holding: []), why) { error in
                XCTAssertEqual(error as? SyncError, .refusedFile(name: "x.batch"), why)
            }
        }
        XCTAssertFalse(try journal.store.templates().contains { $0.name == "Planted" })
        XCTAssertEqual(try journal.store.entryIDs().count, entries)
    }
}
