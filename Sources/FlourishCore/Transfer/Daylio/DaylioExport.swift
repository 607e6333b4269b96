import Foundation

/// What a Daylio file holds, read whole before anything is imported: its entries, and the moods
/// it names with how many entries carry each, for the person to map to Flourish's six.
///
/// Two kinds of file give one: a CSV export (`DaylioCSV`: every layout Daylio has written, in
/// every language, with or without its header) and Daylio's own backup (`DaylioBackup`: a ZIP
/// whose JSON knows each mood's step, so nothing is guessed).
public struct DaylioExport: Sendable {
    public struct Record: Sendable, Equatable {
        /// The line of the CSV file the entry starts on; nil in a backup.
        public let line: Int?
        public let time: ExportedTime
        /// The mood as Daylio names it (lower case): "rad", "gut", or a custom name.
        public let mood: String
        public let activities: [String]
        public let title: String
        public let note: String
        /// Its identity, and the others the same entry may already be in the journal under
        /// (see `DaylioIdentity`).
        public let uuid: String
        public let aliases: [String]
        /// The photos it carries (a backup's), in order, and those left behind (see `ImportedEntry`).
        public var photos: [ImportedPhoto] = []
        public var leftBehind: [String] = []
        /// Its values for Daylio's scales, by scale name, and the scales as written.
        public var measures: [String: Double] = [:]
        var scales: [DaylioScales.Value] = []
    }

    /// A mood named in the file: how many entries carry it, and the Flourish mood proposed for it.
    public struct MoodName: Sendable, Equatable {
        public let name: String
        public let count: Int
        public let proposed: Mood
    }

    /// Which kind of file it was, and what the Import window says of it.
    public enum Source: Sendable, Equatable {
        /// A CSV export; `headerMissing` when its first line was already an entry.
        case csv(headerMissing: Bool)
        /// A backup; the photos its entries have (distinct, brought with them), those left
        /// behind (missing from it, or not pictures), and the voice notes (not imported).
        case backup(photos: Int, photosLeftBehind: Int, voiceNotes: Int)
    }

    public let records: [Record]
    /// Each mood named, in the order first met.
    public let moods: [MoodName]
    public let source: Source
    /// Daylio's scales ("Energy", "Stress"), brought as measures: a backup's (see `DaylioScales`).
    public var measures: [ImportedMeasure] = []

    /// Reads a Daylio CSV export.
    public init(text: String, calendar: Calendar = .current) throws(ImportProblem) {
        self = try DaylioCSV.read(text, calendar: calendar)
    }

    init(records: [Record], moods: [MoodName], source: Source) {
        self.records = records
        self.moods = moods
        self.source = source
    }

    /// Whether a CSV export came without its header line.
    public var headerMissing: Bool {
        if case .csv(true) = source { true } else { false }
    }

    /// The distinct photos a backup's entries carry, brought with them.
    public var photos: Int {
        if case .backup(let photos, _, _) = source { photos } else { 0 }
    }

    /// A backup's photos that stay behind: their files are missing from it, or are not pictures.
    public var photosLeftBehind: Int {
        if case .backup(_, let left, _) = source { left } else { 0 }
    }

    /// A backup's voice notes: Flourish keeps no sound.
    public var voiceNotesNotImported: Int {
        if case .backup(_, _, let voiceNotes) = source { voiceNotes } else { 0 }
    }

    /// What an import's preview says of the file beyond its counts: a header line it lacked,
    /// the photos of a backup left behind, and its voice notes, which are not imported; ""
    /// when there is nothing.
    public var remarks: String {
        var remarks: [String] = []
        if headerMissing {
            remarks.append(tr("The file has no header line: its columns were recognised from its entries."))
        }
        if photosLeftBehind > 0 { remarks.append(ImportFile.photosLeftBehind(photosLeftBehind)) }
        let voiceNotes = voiceNotesNotImported
        if voiceNotes > 0 {
            let count = voiceNotes == 1 ? tr("1 voice note") : String(format: tr("%@ voice notes"), "\(voiceNotes)")
            remarks.append(String(format: tr("Not imported (Flourish keeps no sound): %@."), count))
        }
        return remarks.joined(separator: " ")
    }

    /// Daylio's five moods and Flourish's nearest, in any language Daylio ships: rad the best,
    /// good really good, meh okay, bad not so great, awful the worst. A custom name is proposed
    /// as okay.
    public static func proposal(for name: String) -> Mood {
        DaylioMoods.proposal(for: name)
    }

    /// The entries, each Daylio mood made the Flourish mood `mapping` gives it (or its proposal).
    public func entries(mapping: [String: Mood] = [:]) -> [ImportedEntry] {
        let proposed = Dictionary(moods.map { ($0.name, $0.proposed) }, uniquingKeysWith: { first, _ in first })
        return records.map { record in
            ImportedEntry(uuid: record.uuid, title: record.title.oneLine, body: record.note,
                          mood: mapping[record.mood] ?? proposed[record.mood] ?? .okay,
                          createdAt: record.time, updatedAt: nil, tags: record.activities, location: nil, aliases: record.aliases,
                          photos: record.photos, leftBehind: record.leftBehind, measures: record.measures)
        }
    }

    /// Counts each mood of `records`, in the order first met, with its proposal.
    static func moods(of records: [Record], proposal: (String) -> Mood) -> [MoodName] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for record in records {
            if counts[record.mood] == nil { order.append(record.mood) }
            counts[record.mood, default: 0] += 1
        }
        return order.map { MoodName(name: $0, count: counts[$0] ?? 0, proposed: proposal($0)) }
    }
}
