import Foundation

/// What a machine's file says of itself: whose it is and its number, which must match its name;
/// the computer it was written on; and, sealed with it, what the others must have heard of before
/// it (see `SyncLedger`).
protocol SyncFileContents: Codable {
    var machine: String { get }
    var number: Int { get }
    var computer: String? { get }
    /// For each machine, the highest number of its files its writer had heard of.
    var heard: [String: Int] { get }
    /// Whether what it says of itself stays inside sync's bounds (`SyncLimits`): it is refused
    /// whole otherwise, before anything of it is used.
    var isBounded: Bool { get }
}

/// One file a machine writes to the place: the changes it made since its last batch, in the
/// order it made them. Sealed whole (`JournalKey`), named `<machine>-<number>.batch`, written once.
struct SyncBatch: SyncFileContents, Equatable {
    static let limit = 500

    var machine: String
    var number: Int
    var changes: [SyncChange]
    /// The measures' definitions changed or deleted, applied before `changes` (whose entries
    /// name them by uuid). Apart from `changes` so that a Flourish from before measures, which
    /// does not know their kinds, reads the rest of the batch and leaves them.
    var measures: [SyncChange]?
    /// The templates changed or deleted, and the words of one's own added (see `SyncExtras`):
    /// apart, as the measures are, so that a Flourish from before them reads the rest.
    var templates: [SyncChange]?
    var words: [String]?
    /// The number of the file its machine wrote before it (0: none). Numbers run unbroken but
    /// for a name someone else took first, so this, not `number - 1`, says which file must be
    /// applied before it; a file that says nothing (written before it was sealed in) follows
    /// `number - 1`.
    var previous: Int?
    /// For each other machine, the highest number of its files applied where this was written:
    /// a place that withholds a machine's newest files is noticed as soon as another machine's
    /// later file is read.
    var seen: [String: Int]?
    /// The writer's computer name, for messages; nil from before names were sealed in.
    var computer: String?

    init(machine: String, number: Int, changes: [SyncChange], measures: [SyncChange]? = nil, previous: Int? = nil,
         seen: [String: Int]? = nil, computer: String? = nil) {
        self.machine = machine
        self.number = number
        self.changes = changes
        self.measures = measures
        self.previous = previous
        self.seen = seen
        self.computer = computer
    }

    /// The file before it, as sealed in or else the number before.
    var follows: Int { previous ?? number - 1 }

    var heard: [String: Int] {
        var heard = seen ?? [:]
        if follows > 0 { heard[machine] = max(heard[machine] ?? 0, follows) }
        return heard
    }

    var isBounded: Bool {
        (1...SyncLimits.highestNumber).contains(number) && (0..<number).contains(follows)
            && (seen ?? [:]).allSatisfy { SyncFileName.isMachine($0.key) && (1...SyncLimits.highestNumber).contains($0.value) }
    }

    /// "0123456789abcdef-00000042.batch".
    static func fileName(machine: String, number: Int) -> String {
        SyncFileName.make(machine: machine, number: number, kind: .batch)
    }
}

/// The names of the files machines write: `<machine>-<number>.<kind>`, the machine a 16-digit
/// hexadecimal id, the number 8 digits from one machine's one sequence (batches and snapshots
/// share it, so a number names one file of that machine's).
struct SyncFileName: Hashable {
    enum Kind: String {
        case batch, snapshot
    }

    var machine: String
    var number: Int
    var kind: Kind

    static func make(machine: String, number: Int, kind: Kind) -> String {
        "\(machine)-\(String(format: "%08d", number)).\(kind.rawValue)"
    }

    var text: String { Self.make(machine: machine, number: number, kind: kind) }

    /// The machine, number and kind a file name gives; nil for any other name (the key file,
    /// a syncing tool's "conflicted copy", a half-written file).
    static func parse(_ name: String) -> SyncFileName? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, let kind = Kind(rawValue: String(parts[1])) else { return nil }
        let halves = parts[0].split(separator: "-")
        guard halves.count == 2, isMachine(halves[0]) else { return nil }
        let digits = halves[1]
        guard digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let number = Int(digits) else { return nil }
        return SyncFileName(machine: String(halves[0]), number: number, kind: kind)
    }

    /// Whether `text` is a machine id: 16 lowercase hexadecimal digits.
    static func isMachine(_ text: some StringProtocol) -> Bool {
        text.count == 16 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// One change. Entries travel whole, as stored (their dates as the journal stores them, byte for
/// byte); tags travel by name.
struct SyncChange: Codable, Equatable {
    enum Kind: String, Codable {
        /// An entry as it is now (new, edited or back from a deletion).
        case entry
        case deleted
        /// The version of an entry that lost a conflict here: every machine keeps it.
        case version
        case tag
        case rename
        case deleteTag = "delete-tag"
        case mergeTag = "merge-tag"
        /// A measure's definition as it is now, and its deletion (only in a file's `measures`).
        case measure
        case deleteMeasure = "delete-measure"
        /// A template as it is now, and its deletion (only in a file's `templates`).
        case template
        case deleteTemplate = "delete-template"
        /// A word added to the dictionary (only in a file's `words`, as the word alone).
        case word

        var isMeasure: Bool { self == .measure || self == .deleteMeasure }
        var isTemplate: Bool { self == .template || self == .deleteTemplate }
        /// Whether it travels beside the entries' changes, not among them.
        var travelsApart: Bool { isMeasure || isTemplate || self == .word }
    }

    var kind: Kind
    // Entries.
    var uuid: String?
    var title: String?
    var body: String?
    var mood: Int?
    var createdAt: String?
    var updatedAt: String?
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var tags: [String]?
    /// Its photos, in order, by their names at the place (nil from a Flourish before photos:
    /// the photos an entry has stay as they are).
    var photos: [SyncPhoto]?
    /// Its values for measures, by the measures' uuids (nil from a Flourish before measures:
    /// the values an entry has stay as they are).
    var measures: [String: Double]?
    /// The stamp of the version this one replaced, as the sender had it.
    var base: String?
    /// When a deleted entry was put back (Undo), which outweighs its deletion.
    var revivedAt: String?
    var deletedAt: String?
    // Tags.
    var name: String?
    var to: String?
    /// When the tag was made, renamed, merged or deleted; when the measure's definition
    /// changed, or it was deleted.
    var at: String?
    // Measures (and `uuid`, `name`, `at`).
    var measureKind: String?
    var unit: String?
    var lowest: Double?
    var highest: Double?
    var position: Int?
    // Templates (and `uuid`, `name`, `title`, `body`, `mood`, `tags`, `measures`, `position`, `at`).
    var isDefault: Bool?

    enum CodingKeys: String, CodingKey {
        case kind, uuid, title, body, mood, latitude, longitude, accuracy, tags, photos, measures, base, name, to, at
        case unit, lowest, highest, position
        case createdAt = "created_at", updatedAt = "updated_at", revivedAt = "revived_at", deletedAt = "deleted_at"
        case measureKind = "measure_kind"
        case isDefault = "default"
    }

    init(kind: Kind) { self.kind = kind }

    static func deleted(_ uuid: String, at deletedAt: String) -> SyncChange {
        var change = SyncChange(kind: .deleted)
        change.uuid = uuid
        change.deletedAt = deletedAt
        return change
    }

    static func tag(_ kind: Kind, _ name: String, to: String? = nil, at: String) -> SyncChange {
        var change = SyncChange(kind: kind)
        change.name = name
        change.to = to
        change.at = at
        return change
    }
}
