import Foundation

/// What a template holds: its name (in the Template menu), the title and body it writes (with
/// placeholders, `TemplatePlaceholders`), and, optionally, a mood, tags and measure values to
/// prefill.
public struct TemplateDefinition: Sendable, Equatable {
    public static let maximumNameLength = 100

    public var name: String
    public var title: String
    public var body: String
    public var mood: Mood?
    /// Tags by name, as they travel (a tag made on another machine has another id here).
    public var tags: [String]
    /// Measure values by the measures' uuids, which stay the same through a rename.
    public var measures: [String: Double]

    public init(name: String, title: String = "", body: String = "", mood: Mood? = nil, tags: [String] = [],
                measures: [String: Double] = [:]) {
        self.name = name
        self.title = title
        self.body = body
        self.mood = mood
        self.tags = tags
        self.measures = measures
    }

    /// Why a definition cannot be kept, said next to its name.
    public enum Problem: Error, Sendable, Equatable {
        case emptyName
        case longName

        public var message: String {
            switch self {
            case .emptyName: tr("Give the template a name.")
            case .longName: String(format: tr("A template’s name is at most %@ characters."), "\(TemplateDefinition.maximumNameLength)")
            }
        }
    }

    /// The definition as it is kept: no NUL anywhere (SQLite's length() would stop at one), the
    /// name trimmed, the title on one line, tags on one line each, named once (in any case) and in
    /// order, values only finite ones of measures named as the store writes them (a uuid: no
    /// space, no "=").
    public func validated() -> Result<TemplateDefinition, Problem> {
        var valid = self
        valid.name = name.withoutNUL.trimmingCharacters(in: .whitespacesAndNewlines).oneLine
        guard !valid.name.isEmpty else { return .failure(.emptyName) }
        // Counted as SQLite's length() counts (the table's CHECK), in Unicode scalars.
        guard valid.name.unicodeScalars.count <= Self.maximumNameLength else { return .failure(.longName) }
        valid.title = title.withoutNUL.oneLine
        valid.body = body.withoutNUL
        var seen = Set<String>()
        valid.tags = tags.map { $0.withoutNUL.oneLine.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert(TagName.key($0)).inserted }
        valid.measures = measures.filter { key, value in
            !key.isEmpty && !key.contains(where: { $0.isWhitespace || $0 == "=" || $0 == "\u{0}" }) && value.isFinite
        }
        return .success(valid)
    }
}

/// A template of the journal's.
public struct EntryTemplate: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let uuid: String
    public var definition: TemplateDefinition
    /// Whether every new entry starts from it.
    public var isDefault: Bool

    public var name: String { definition.name }
}

/// What deleting a template took out, and where it stood, so that Undo puts it back as it was.
public struct DeletedTemplate: Sendable, Equatable {
    public let template: EntryTemplate
    let position: Int
}

/// A definition's tags and values as a journal's ids, and back: the editor and the forms work
/// with ids, a template keeps names and uuids (which travel).
extension TemplateDefinition {
    /// The ids of the journal's tags the template names (in any case).
    public func tagIDs(in tags: [Tag]) -> Set<Int64> {
        let keys = Set(self.tags.map(TagName.key))
        return Set(tags.filter { keys.contains(TagName.key($0.name)) }.map(\.id))
    }

    /// Its values by the ids of the journal's measures.
    public func values(in measures: [Measure]) -> [Int64: Double] {
        var values: [Int64: Double] = [:]
        for measure in measures { if let value = self.measures[measure.uuid] { values[measure.id] = value } }
        return values
    }

    /// With these tags and values (by the journal's ids) in place of its own. A tag or measure
    /// the journal does not have (deleted since, or not synced here yet) stays as it was.
    public func with(tagIDs: Set<Int64>, values: [Int64: Double], tags: [Tag], measures: [Measure]) -> TemplateDefinition {
        var changed = self
        let known = Set(tags.map { TagName.key($0.name) })
        changed.tags = self.tags.filter { !known.contains(TagName.key($0)) } + tags.filter { tagIDs.contains($0.id) }.map(\.name)
        changed.measures = self.measures.filter { uuid, _ in !measures.contains { $0.uuid == uuid } }
        for measure in measures { if let value = values[measure.id] { changed.measures[measure.uuid] = value } }
        return changed
    }
}
