import Foundation

/// A short name for what the person did that day ("work", "friends"), carried by entries.
public struct Tag: Sendable, Equatable, Hashable, Identifiable {
    public let id: Int64
    public let name: String
    /// How many entries carry it (when read with `JournalStore.tags()`).
    public let entryCount: Int

    public init(id: Int64, name: String, entryCount: Int = 0) {
        self.id = id
        self.name = name
        self.entryCount = entryCount
    }
}

/// The rules for a tag's name: trimmed, 1 to 40 characters, unique without regard to case.
public enum TagName {
    public static let maximumLength = 40

    /// Why a name cannot be a tag's, said next to the field.
    public enum Problem: Error, Sendable, Equatable {
        case empty
        case tooLong
        case taken(existing: String)

        public var message: String {
            switch self {
            case .empty: tr("Write a name for the tag.")
            case .tooLong: String(format: tr("A tag's name has at most %@ characters."), "\(TagName.maximumLength)")
            case .taken(let existing): String(format: tr("There is already a tag “%@”."), existing)
            }
        }
    }

    /// The name as it is kept, or why it cannot be one (uniqueness is the store's to check).
    public static func validated(_ text: String) -> Result<String, Problem> {
        let name = text.oneLine.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(.empty) }
        if name.count > maximumLength { return .failure(.tooLong) }
        return .success(name)
    }

    /// What names are compared by: "Work", "WORK" and "work" are one tag.
    static func key(_ name: String) -> String { name.lowercased() }

    /// Whether two names are one tag's.
    public static func sameName(_ one: String, _ other: String) -> Bool { key(one) == key(other) }

    /// The tags a journal starts with.
    static var starters: [String] {
        [tr("work"), tr("friends"), tr("family"), tr("exercise"), tr("outdoors"), tr("reading"), tr("good sleep"), tr("music")]
    }
}
