@testable import FlourishCore
import FlourishTestSupport
import Foundation
import GRDB
import XCTest

/// Measures between machines syncing through a real folder: definitions and values travel,
/// renames, moves and deletions (and an Undo of one) follow, two measures of one name made
/// apart become one, and a machine that joins from a snapshot gets them all.
final class MeasureSyncTests: XCTestCase {
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

    /// Each measure as "name|kind|unit|lowest|highest|uuid", in order.
    private func measures(_ machine: SyncMachine) throws -> [String] {
        try machine.store.measures().map { measure in
            [measure.name, measure.kind.rawValue, measure.unit, measure.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "", measure.uuid]
                .joined(separator: "|")
        }
    }

    /// Each entry's values by title, by the measures' names.
    private func values(_ machine: SyncMachine) throws -> [String: [String: Double]] {
        let names = Dictionary(uniqueKeysWithValues: try machine.store.measures().map { ($0.id, $0.name) })
        var values: [String: [String: Double]] = [:]
        for entry in try machine.store.entries(ids: try machine.store.entryIDs()) {
            values[entry.title] = Dictionary(uniqueKeysWithValues: entry.measures.compactMap { id, value in names[id].map { ($0, value) } })
        }
        return values
    }

    private func save(_ machine: SyncMachine, _ title: String, _ values: [Int64: Double], at seconds: Double) throws -> Entry {
        try machine.store.save(try EntryDraft(title: title, mood: .okay, measures: values).validated().get(),
                               createdAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds))
    }

    func testMeasuresAndValuesTravelAndTheirChangesFollow() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
        let energy = try laptop.store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        _ = try save(laptop, "Rested", [sleep.id: 8.5, energy.id: 4], at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        XCTAssertEqual(try measures(desktop), try measures(laptop), "the same measures, identities, order and all")
        XCTAssertEqual(try values(desktop)["Rested"], ["Sleep": 8.5, "Energy": 4])

        // Changed on both sides: a rename and a move here, a value there.
        _ = try laptop.store.updateMeasure(id: sleep.id, to: MeasureDefinition(name: "Rest", kind: .number, unit: "h", range: 0...12))
        try laptop.store.moveMeasure(id: energy.id, to: 0)
        let desktopEnergy = try XCTUnwrap(try desktop.store.measures().first { $0.name == "Energy" })
        _ = try save(desktop, "Tired", [desktopEnergy.id: 1], at: 2_000)
        try laptop.syncNow()
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try measures(desktop), try measures(laptop))
        XCTAssertEqual(try desktop.store.measures().map(\.name), ["Energy", "Rest"])
        XCTAssertEqual(try values(laptop)["Tired"], ["Energy": 1])
        XCTAssertEqual(try values(desktop)["Rested"], ["Rest": 8.5, "Energy": 4])

        // A deletion takes the values everywhere; its Undo brings them back everywhere.
        let gone = try laptop.store.deleteMeasure(id: energy.id)
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertEqual(try desktop.store.measures().map(\.name), ["Rest"])
        XCTAssertEqual(try values(desktop)["Tired"], [:])
        _ = try laptop.store.restoreMeasure(gone)
        try laptop.syncNow()
        try desktop.syncNow()
        try laptop.syncNow()
        XCTAssertEqual(try measures(desktop), try measures(laptop))
        XCTAssertEqual(try values(desktop)["Rested"], ["Rest": 8.5, "Energy": 4], "the values came back with it")
        XCTAssertEqual(try values(desktop)["Tired"], ["Energy": 1])
        XCTAssertEqual(try values(laptop), try values(desktop))
    }

    func testTwoMeasuresOfOneNameMadeApartBecomeOneWithEveryValueWhicheverUUIDSortsFirst() throws {
        try measuresMadeApart(laptopFirst: true, desktopChanged: "2026-01-01 10:00:01.000")
        try measuresMadeApart(laptopFirst: false, desktopChanged: "2026-01-01 10:00:01.000")
    }

    /// Two machines that changed one definition within the same millisecond still end with the
    /// same one (the greater content, "sleep" over "Sleep"), whichever uuid sorts first: a tie
    /// kept as "mine" by each would leave them disagreeing for good.
    func testTwoDefinitionsChangedInTheSameMillisecondEndTheSameOnBoth() throws {
        try measuresMadeApart(laptopFirst: true, desktopChanged: "2026-01-01 10:00:00.000")
        try measuresMadeApart(laptopFirst: false, desktopChanged: "2026-01-01 10:00:00.000")
    }

    /// Gives a measure the uuid `uuid` (to choose which of two sorts first) and the stamp of its
    /// last change `changedAt` (to choose which changed last, to the millisecond), by hand.
    private func renumber(_ measure: Measure, of machine: SyncMachine, to uuid: String, changedAt: String) throws -> Measure {
        let queue = try DatabaseQueue(path: machine.store.file)
        try queue.write { db in
            try db.execute(sql: "UPDATE measure SET uuid = ?, changed_at = ? WHERE id = ?", arguments: [uuid, changedAt, measure.id])
        }
        try queue.close()
        return try XCTUnwrap(try machine.store.measures().first { $0.id == measure.id })
    }

    /// The laptop's "Sleep" changed at 10:00:00.000, the desktop's "sleep" at `desktopChanged`:
    /// later or at the same time, and either way "sleep" is kept.
    private func measuresMadeApart(laptopFirst: Bool, desktopChanged: String) throws {
        let folder = TemporaryFolder()
        let place = FolderPlace(path: folder.file("Flourish"))
        let laptop = try SyncMachine(folder.file("laptop.sqlite")), desktop = try SyncMachine(folder.file("desktop.sqlite"))
        let low = "00000000-0000-4000-8000-000000000000", high = "ffffffff-ffff-4fff-bfff-ffffffffffff"
        var mine = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours"))
        var theirs = try desktop.store.createMeasure(MeasureDefinition(name: "sleep", kind: .number))
        mine = try renumber(mine, of: laptop, to: laptopFirst ? low : high, changedAt: "2026-01-01 10:00:00.000")
        theirs = try renumber(theirs, of: desktop, to: laptopFirst ? high : low, changedAt: desktopChanged)
        for (machine, expecting) in [(laptop, JournalSync.Setup.started), (desktop, .joined)] {
            let (sync, done) = try JournalSync.setUp(machine.store, at: place, passphrase: passphrase, cost: .interactive)
            XCTAssertEqual(done, expecting)
            machine.sync = sync
            if machine === laptop { _ = try save(laptop, "Laptop night", [mine.id: 7], at: 1_000) }
        }
        _ = try save(desktop, "Desktop night", [theirs.id: 5], at: 2_000)
        try laptop.syncNow()
        for _ in 0..<3 {
            try desktop.syncNow()
            try laptop.syncNow()
        }
        XCTAssertEqual(try laptop.store.measures().count, 1)
        XCTAssertEqual(try measures(desktop), try measures(laptop), "one measure, the same on both")
        XCTAssertEqual(try laptop.store.measures().first?.uuid, low, "the uuid that sorts first, on both")
        XCTAssertEqual(try laptop.store.measures().first?.name, "sleep", "the definition changed last (or on a tie, the greater), on both")
        let name = try XCTUnwrap(try laptop.store.measures().first?.name)
        for machine in [laptop, desktop] {
            XCTAssertEqual(try values(machine)["Laptop night"], [name: 7])
            XCTAssertEqual(try values(machine)["Desktop night"], [name: 5])
        }
    }

    func testAMachineJoiningFromASnapshotGetsTheMeasures() throws {
        let laptop = try machine("laptop"), phone = try machine("phone")
        try setUp(laptop, expecting: .started, every: 2)
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24))
        for day in 1...5 {
            _ = try save(laptop, "Night \(day)", [sleep.id: Double(day)], at: Double(day) * 86_400)
            try laptop.syncNow()
        }
        let gone = try laptop.store.createMeasure(MeasureDefinition(name: "Pain", kind: .scale))
        try laptop.syncNow()
        _ = try laptop.store.deleteMeasure(id: gone.id)
        try laptop.syncNow()
        let names = try FileManager.default.contentsOfDirectory(atPath: place.path)
        XCTAssertTrue(names.contains { $0.hasSuffix(".snapshot") }, "\(names)")
        try setUp(phone, expecting: .joined)
        try phone.syncNow()
        XCTAssertEqual(try measures(phone), try measures(laptop))
        XCTAssertEqual(try values(phone)["Night 3"], ["Sleep": 3])
        XCTAssertEqual(try values(phone), try values(laptop))
    }

    func testTheFolderHoldsNoMeasureInTheClear() throws {
        let laptop = try machine("laptop")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Quietude", kind: .number, unit: "sleepunits"))
        _ = try save(laptop, "Night", [sleep.id: 123.456], at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        for name in try FileManager.default.contentsOfDirectory(atPath: place.path) {
            let data = try Data(contentsOf: URL(fileURLWithPath: (place.path as NSString).appendingPathComponent(name)))
            for secret in ["Quietude", "sleepunits", "123.456", sleep.uuid] {
                XCTAssertNil(data.range(of: Data(secret.utf8)), "\(secret) in the clear in \(name)")
            }
        }
    }

    func testAnEditThatLostAConflictKeepsItsValuesAndTakenBackGivesThemBack() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let shared = try save(laptop, "Sunday", [sleep.id: 7], at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        let desktopSleep = try XCTUnwrap(try desktop.store.measures().first).id

        // Apart: the laptop says 5 hours, the desktop (later) 9.
        func edit(_ machine: SyncMachine, _ sleepID: Int64, _ hours: Double, at seconds: Double) throws {
            let id = try XCTUnwrap(try machine.store.entries(ids: try machine.store.entryIDs()).first { $0.uuid == shared.uuid }).id
            _ = try machine.store.update(id: id, with: try EntryDraft(title: "Sunday", mood: .okay, measures: [sleepID: hours]).validated().get(),
                                         updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds))
        }
        try edit(laptop, sleep.id, 5, at: 5_000)
        try edit(desktop, desktopSleep, 9, at: 6_000)
        try laptop.syncNow()
        try desktop.syncNow()
        try laptop.syncNow()
        for machine in [laptop, desktop] {
            XCTAssertEqual(try values(machine)["Sunday"], ["Sleep": 9], "the later edit wins")
            let kept = try machine.store.earlierVersions(of: shared.uuid)
            XCTAssertEqual(kept.map(\.measures), [[sleep.uuid: 5]], "the lost edit is kept with its value, on both")
        }
        let id = try XCTUnwrap(try laptop.store.entries(ids: try laptop.store.entryIDs()).first { $0.uuid == shared.uuid }).id
        let back = try laptop.store.useEarlierVersion(try XCTUnwrap(try laptop.store.earlierVersions(of: shared.uuid).first), forEntry: id,
                                                      updatedAt: Date(timeIntervalSince1970: 1_700_010_000))
        XCTAssertEqual(back.measures, [sleep.id: 5], "taken back, with its value")
        XCTAssertEqual(try laptop.store.earlierVersions(of: shared.uuid).map(\.measures), [[sleep.uuid: 9]], "and the one it replaced is kept")
        try laptop.syncNow()
        try desktop.syncNow()
        XCTAssertEqual(try values(desktop)["Sunday"], ["Sleep": 5])
    }

    /// Sets the machine id a machine writes its files under (to choose the order they are read in).
    private func rename(_ machine: SyncMachine, to id: String) throws {
        let queue = try DatabaseQueue(path: machine.store.file)
        try queue.write { db in try db.execute(sql: "UPDATE sync_state SET value = ? WHERE key = 'machine'", arguments: [id]) }
        try queue.close()
    }

    func testAThirdMachineGetsAValueWhoseMeasureComesInALaterFile() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop"), phone = try machine("phone")
        try setUp(laptop, expecting: .started)
        try rename(laptop, to: "ffffffffffffffff")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        let entry = try save(laptop, "Sunday", [sleep.id: 7], at: 1_000)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try rename(desktop, to: "0000000000000001")
        try desktop.syncNow()
        // The desktop edits the entry: its file names the laptop's measure, and is read first.
        let id = try XCTUnwrap(try desktop.store.entries(ids: try desktop.store.entryIDs()).first { $0.uuid == entry.uuid }).id
        _ = try desktop.store.update(id: id, with: try EntryDraft(title: "Sunday, later", mood: .okay).validated().get(),
                                     updatedAt: Date(timeIntervalSince1970: 1_700_005_000))
        try desktop.syncNow()
        try setUp(phone, expecting: .joined)
        try phone.syncNow()
        XCTAssertEqual(try values(phone)["Sunday, later"], ["Sleep": 7], "the value, though the desktop's file came first")
        XCTAssertEqual(try values(phone), try values(desktop))
    }

    func testAMeasureChangedAfterItWasDeletedElsewhereStandsEverywhereWithItsValues() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let sleep = try laptop.store.createMeasure(MeasureDefinition(name: "Sleep", kind: .number))
        _ = try laptop.store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        _ = try save(laptop, "Night", [sleep.id: 6], at: 1_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        try desktop.syncNow()
        // Apart: the laptop deletes Sleep; the desktop, a moment later, renames it and moves Energy.
        _ = try laptop.store.deleteMeasure(id: sleep.id)
        Thread.sleep(forTimeInterval: 0.01)
        let desktopSleep = try XCTUnwrap(try desktop.store.measures().first { $0.name == "Sleep" })
        _ = try desktop.store.updateMeasure(id: desktopSleep.id, to: MeasureDefinition(name: "Rest", kind: .number))
        try desktop.store.moveMeasure(id: try XCTUnwrap(try desktop.store.measures().first { $0.name == "Energy" }).id, to: 0)
        for _ in 0..<2 {
            try laptop.syncNow()
            try desktop.syncNow()
        }
        try laptop.syncNow()
        XCTAssertEqual(try measures(laptop), try measures(desktop))
        XCTAssertEqual(try laptop.store.measures().map(\.name), ["Energy", "Rest"])
        XCTAssertEqual(try values(laptop)["Night"], ["Rest": 6], "back with its value on the machine that deleted it")
        XCTAssertEqual(try values(desktop)["Night"], ["Rest": 6])
    }

    func testTwoMeasuresOfOneNameButNotOneKindBothStayUnderTwoNames() throws {
        let laptop = try machine("laptop"), desktop = try machine("desktop")
        let scale = try laptop.store.createMeasure(MeasureDefinition(name: "Energy", kind: .scale))
        let number = try desktop.store.createMeasure(MeasureDefinition(name: "energy", kind: .number))
        _ = try save(laptop, "Laptop day", [scale.id: 4], at: 1_000)
        _ = try save(desktop, "Desktop day", [number.id: 7.5], at: 2_000)
        try setUp(laptop, expecting: .started)
        try laptop.syncNow()
        try setUp(desktop, expecting: .joined)
        for _ in 0..<2 {
            try desktop.syncNow()
            try laptop.syncNow()
        }
        XCTAssertEqual(try laptop.store.measures().count, 2)
        XCTAssertEqual(Set(try measures(laptop)), Set(try measures(desktop)), "the same two measures, names and kinds, on both")
        let second = scale.uuid < number.uuid ? "energy (2)" : "Energy (2)"
        XCTAssertTrue(try laptop.store.measures().contains { $0.name == second }, "the one whose uuid sorts last has a second name")
        for machine in [laptop, desktop] {
            let byUUID = Dictionary(uniqueKeysWithValues: try machine.store.measures().map { ($0.uuid, $0) })
            XCTAssertEqual(byUUID[scale.uuid]?.kind, .scale)
            XCTAssertEqual(byUUID[number.uuid]?.kind, .number)
            let entries = try machine.store.entries(ids: try machine.store.entryIDs())
            XCTAssertEqual(entries.first { $0.title == "Laptop day" }?.measures.values.first, 4)
            XCTAssertEqual(entries.first { $0.title == "Desktop day" }?.measures.values.first, 7.5, "no value dropped")
        }
    }
}

/// The tie rule's own promise: two different definitions are never equal to it, so on a tie
/// exactly one of them wins, the same one on both machines.
final class MeasureTieRuleTests: XCTestCase {
    private func definition(_ name: String, kind: String = "number", unit: String? = nil, range: (Double, Double)? = nil,
                            position: Int = 0) -> SyncChange {
        var change = SyncChange(kind: .measure)
        (change.name, change.measureKind, change.unit) = (name, kind, unit)
        (change.lowest, change.highest, change.position) = (range?.0, range?.1, position)
        return change
    }

    func testTwoDifferentDefinitionsAreNeverATieAndOneOrderServesBothMachines() {
        let definitions = [
            definition("Sleep"), definition("sleep"), definition("Sleep", unit: "hours"), definition("Sleep", kind: "scale"),
            definition("Sleep", range: (0, 12)), definition("Sleep", range: (0, 24)), definition("Sleep", position: 1),
            definition("Caf\u{E9}"), definition("Cafe\u{301}"), // one word, two spellings: Swift's String calls them equal
            definition("a\u{1F}b"), definition("a", unit: "b"), // a separator inside a name runs into no other field
        ]
        for (index, one) in definitions.enumerated() {
            for other in definitions[(index + 1)...] {
                let (a, b) = (SyncApplier.definitionContent(one), SyncApplier.definitionContent(other))
                XCTAssertNotEqual(a, b, "\(one.name ?? "") against \(other.name ?? "")")
                XCTAssertNotEqual(a.lexicographicallyPrecedes(b), b.lexicographicallyPrecedes(a),
                                  "exactly one of \(one.name ?? "") and \(other.name ?? "") comes first")
            }
        }
    }
}
