import FlourishCore
import Foundation

// The benchmark's helper (scripts/bench runs it; nothing here passes or fails):
//
//   flourish-bench generate ENTRIES PATH [--photos FOLDER] [--no-measures]
//                                          write the sample journal of ENTRIES entries at PATH,
//                                          through Flourish's own store, with three measures (a
//                                          number with a unit, a scale, a plain number) on half
//                                          its entries; with --photos, one entry in five carries
//                                          one to three of FOLDER's pictures (see SamplePhotos);
//                                          with --no-measures, none (to see what measures cost)
//   flourish-bench store PATH              the store's figures on a copy of PATH, as JSON:
//                                          open, list ids, read one scroll's batch, search
//                                          a keystroke at a time, the Insights figures, the
//                                          health check, save
//   flourish-bench peers ENTRIES FOLDER    the same entries in RedNotebook's and Almanah's formats
//   flourish-bench edit PATH               edits the newest entry of PATH (its body gets a line),
//                                          as a person would between two syncs
//   flourish-bench save-loop PATH FIRST [--locked]
//                                          saves entries FIRST, FIRST+1, … into PATH until killed,
//                                          printing "saved N UUID" once each save has returned
//                                          (the crash test kills it at random moments); with
//                                          --locked, PATH is a locked journal and its passphrase
//                                          is the first line of standard input (never an argument)
//   flourish-bench locked PATH FOLDER ROUNDS
//                                          what locking costs: copies of PATH in FOLDER, one
//                                          plain, one locked (under a passphrase the bench keeps
//                                          to itself), unlocked, then opened in turn round after
//                                          round for the store's figures; as JSON
//   flourish-bench unpadded FOLDER         the bytes of a sync folder's sealed files, as they are
//                                          and as they would be unpadded, as JSON (the sync
//                                          passphrase on standard input)

func milliseconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func removeJournal(at path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

func generate(count: Int, path: String, photoFolder: String? = nil, measures withMeasures: Bool = true) throws {
    removeJournal(at: path)
    // A journal written again starts without the photos of the one before.
    try? FileManager.default.removeItem(atPath: PhotoFolder(journal: path).path)
    let store = try JournalStore(path: path)
    let tags = try store.tags().map(\.id)
    let photos = try photoFolder.map { try SamplePhotos(folder: $0, store: store) }
    let measures = withMeasures ? try SampleJournal.measureDefinitions.map { try store.createMeasure($0).id } : []
    let samples = SampleJournal(count: count).samples.enumerated().map { index, sample in
        (entry: try! EntryDraft(title: sample.title, body: sample.body, mood: sample.mood, location: sample.location,
                                tagIDs: SampleJournal.tags(forEntry: index, from: tags),
                                photos: photos?.photos(forEntry: index), measures: SampleJournal.measures(forEntry: index, from: measures))
            .validated().get(), // a sample always has a mood and words
         createdAt: sample.date)
    }
    try store.save(samples)
}

func storeFigures(path: String) throws -> [String: Double] {
    let folder = NSTemporaryDirectory() + "flourish-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copy = folder + "/journal.sqlite"
    try FileManager.default.copyItem(atPath: path, toPath: copy)

    var store: JournalStore?
    let open = try milliseconds { store = try JournalStore(path: copy) }
    guard let store else { return [:] }
    var ids: [Int64] = []
    let list = try milliseconds { ids = try store.entryIDs() }
    let batches = try StoreSteps.scroll(store, ids: ids)
    let searches = try StoreSteps.search(store, ids: ids)
    let (insights, insightsYear) = try StoreSteps.insights(store)
    let memories = try StoreSteps.memories(store)
    let measureSearches = try StoreSteps.measureSearch(store, ids: ids)
    let measureInsights = try StoreSteps.measureInsights(store)
    // The health check runs once, before the first write: timed on its own, not as a save.
    let check = milliseconds { _ = store.check() }
    let saves = try StoreSteps.save(store, count: 300)
    return ["open_ms": open, "list_ids_ms": list, "check_ms": check,
            "search_p50_ms": percentile(searches, 0.5), "search_p95_ms": percentile(searches, 0.95), "fetch_batch_p50_ms": percentile(batches, 0.5),
            "save_p50_ms": percentile(saves, 0.5), "save_p99_ms": percentile(saves, 0.99), "entries": Double(ids.count),
            "insights_all_ms": percentile(insights, 0.5), "insights_year_ms": percentile(insightsYear, 0.5),
            "memories_p50_ms": percentile(memories, 0.5), "memories_p95_ms": percentile(memories, 0.95),
            "measure_search_p50_ms": percentile(measureSearches, 0.5), "measure_search_p95_ms": percentile(measureSearches, 0.95),
            "measure_insights_all_ms": percentile(measureInsights, 0.5)]
}

/// The words of crash-test entry `number`: from a line to several pages, so that saves cross
/// page boundaries and overflow pages. The crash test rebuilds them to check what it finds.
func crashTestEntry(_ number: Int) -> NewEntry {
    let body = String(repeating: "Entry \(number) says this. ", count: 1 + (number * 37) % 400)
    return try! EntryDraft(title: "Crash test \(number)", body: body, mood: Mood(rawValue: number % 6)).validated().get()
}

/// The photo crash-test entry `number` carries, every third one: a JPEG's first bytes, then
/// from a line to about 100 KB, so that a kill can land while the photo is being written.
func crashTestPhoto(_ number: Int) -> Data {
    Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(String(repeating: "Photo \(number) of the crash test. ", count: 1 + (number * 53) % 3000).utf8)
}

func saveLoop(path: String, first: Int, locked: Bool) throws -> Never {
    // A passphrase on the command line would be readable by every user through /proc.
    let cipher = locked ? try JournalLock.unlock(path: path, secret: readLine(strippingNewline: true) ?? "") : nil
    let store = try JournalStore(path: path, cipher: cipher)
    var number = first
    while true {
        var entry = crashTestEntry(number)
        if number % 3 == 0 {
            // The photo is kept before the entry that names it is saved.
            let photo = try store.addPhoto(crashTestPhoto(number), fileName: "crash-\(number).jpg")
            entry = try EntryDraft(title: entry.title, body: entry.body, mood: entry.mood, photos: [photo]).validated().get()
        }
        let saved = try store.save(entry, createdAt: Date())
        // Printed only after save returned: an acknowledged entry, which must survive the kill.
        FileHandle.standardOutput.write(Data("saved \(number) \(saved.uuid)\n".utf8)) // unbuffered: write(2)
        number += 1
    }
}

func editNewest(path: String) throws {
    let store = try JournalStore(path: path)
    defer { store.close() }
    guard let id = try store.entryIDs().first, let entry = try store.entries(ids: [id]).first else { return }
    let edited = try EntryDraft(title: entry.title, body: entry.body + "\nOne more line, written later.", mood: entry.mood,
                                tagIDs: entry.tagIDs).validated().get()
    _ = try store.update(id: id, with: edited, updatedAt: Date())
}

var arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.count) {
    case ("generate", 3):
        try generate(count: Int(arguments[1]) ?? 0, path: arguments[2])
    case ("generate", 4) where arguments[3] == "--no-measures":
        try generate(count: Int(arguments[1]) ?? 0, path: arguments[2], measures: false)
    case ("generate", 5) where arguments[3] == "--photos":
        try generate(count: Int(arguments[1]) ?? 0, path: arguments[2], photoFolder: arguments[4])
    case ("store", 2):
        let figures = try storeFigures(path: arguments[1])
        let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    case ("edit", 2):
        try editNewest(path: arguments[1])
    case ("photo-journal", 3): try PhotoJournal.write(pictures: arguments[1], to: arguments[2]) // see PhotoJournal
    case ("save-loop", 3), ("save-loop", 4) where arguments.last == "--locked":
        try saveLoop(path: arguments[1], first: Int(arguments[2]) ?? 0, locked: arguments.count == 4)
    case ("unpadded", 2):
        let json = try JSONSerialization.data(withJSONObject: try UnpaddedSizes.measure(folder: arguments[1]), options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    case ("locked", 4):
        let figures = try LockedFigures.measure(journal: arguments[1], folder: arguments[2], rounds: Int(arguments[3]) ?? 5)
        let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    case ("peers", 3):
        try PeerFormats.write(SampleJournal(count: Int(arguments[1]) ?? 0), to: arguments[2])
    default:
        FileHandle.standardError.write(Data("usage: flourish-bench generate ENTRIES PATH [--photos FOLDER] [--no-measures] | store PATH | peers ENTRIES FOLDER | edit PATH | save-loop PATH FIRST [--locked] | locked PATH FOLDER ROUNDS | unpadded FOLDER\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("flourish-bench: \(error)\n".utf8))
    exit(1)
}
