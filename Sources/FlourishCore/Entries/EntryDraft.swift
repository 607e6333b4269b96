import Foundation

/// What an entry form holds before it is saved: possibly incomplete.
public struct EntryDraft: Sendable, Equatable {
    public var title: String
    public var body: String
    public var mood: Mood?
    public var location: Location?
    /// When the entry happened, if the person chose it; nil means "now" for a new entry and
    /// "unchanged" for an edited one.
    public var date: Date?
    /// The tags chosen for it.
    public var tagIDs: Set<Int64>
    /// The photos chosen for it, in order; nil, for an edit, leaves the entry's as they are.
    public var photos: [EntryPhoto]?
    /// Its values for the journal's measures, by measure id; nil, for an edit, leaves the
    /// entry's as they are.
    public var measures: [Int64: Double]?

    public init(title: String = "", body: String = "", mood: Mood? = nil, location: Location? = nil, date: Date? = nil,
                tagIDs: Set<Int64> = [], photos: [EntryPhoto]? = nil, measures: [Int64: Double]? = nil) {
        self.title = title
        self.body = body
        self.mood = mood
        self.location = location
        self.date = date
        self.tagIDs = tagIDs
        self.photos = photos
        self.measures = measures
    }

    /// A reason the draft cannot be saved yet, said next to the field it concerns.
    public enum Problem: Sendable, Equatable, CaseIterable {
        case missingMood
        case missingText
        case futureDate

        public var message: String {
            switch self {
            case .missingMood: tr("Choose how you feel.")
            case .missingText: tr("Write a title or a few lines.")
            case .futureDate: tr("Choose a time that is not in the future.")
            }
        }
    }

    /// A title as the form keeps it: one line, each line break (in a pasted paragraph, say)
    /// made a space.
    public static func oneLineTitle(_ text: String) -> String { text.oneLine }

    /// Every problem with the draft as of this moment.
    public var problems: [Problem] { problems(now: Date()) }

    /// Every problem with the draft, in form order; empty when it can be saved. A chosen date
    /// later than `now` is refused: a journal records what happened.
    ///
    /// A mood is asked for unless `requiringMood` is false: the Edit page of an entry that came
    /// without one (an import) may leave it without.
    public func problems(now: Date = Date(), requiringMood: Bool = true) -> [Problem] {
        var problems: [Problem] = []
        if requiringMood && mood == nil { problems.append(.missingMood) }
        if let date, date > now { problems.append(.futureDate) }
        if title.withoutNUL.trimmed.isEmpty && body.withoutNUL.trimmed.isEmpty { problems.append(.missingText) }
        return problems
    }

    /// The draft as a savable entry, or the problems that keep it from being one.
    public func validated(now: Date = Date(), requiringMood: Bool = true) -> Result<NewEntry, ValidationError> {
        let problems = problems(now: now, requiringMood: requiringMood)
        guard problems.isEmpty else { return .failure(ValidationError(problems: problems)) }
        return .success(NewEntry(title: title.withoutNUL.oneLine.trimmed, body: body.withoutNUL.trimmed, mood: mood,
                                 location: location, date: date, tagIDs: tagIDs, photos: photos, measures: measures))
    }
}

/// A complete entry, ready for the store: a title or a body, and a mood unless it came without one.
public struct NewEntry: Sendable, Equatable {
    public let title: String
    public let body: String
    public let mood: Mood?
    public let location: Location?
    /// The time the person chose; nil for "now" (new entries) or "keep the entry's" (edits).
    public let date: Date?
    /// The tags it carries: a new entry starts with them; an edited one carries exactly these.
    public let tagIDs: Set<Int64>
    /// The photos it carries, in order: a new entry starts with them (nil: none); an edited one
    /// carries exactly these (nil: the ones it had).
    public let photos: [EntryPhoto]?
    /// Its values for the measures: a new entry starts with them (nil: none); an edited one
    /// carries exactly these (nil: the ones it had).
    public let measures: [Int64: Double]?

    public init(title: String, body: String, mood: Mood?, location: Location? = nil, date: Date? = nil,
                tagIDs: Set<Int64> = [], photos: [EntryPhoto]? = nil, measures: [Int64: Double]? = nil) {
        self.title = title
        self.body = body
        self.mood = mood
        self.location = location
        self.date = date
        self.tagIDs = tagIDs
        self.photos = photos
        self.measures = measures
    }
}

public struct ValidationError: Error, Equatable, Sendable {
    public let problems: [EntryDraft.Problem]
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    /// No NUL characters: no GTK text field can hold one (its text is a C string), and SQLite's
    /// text functions stop at one. Only text that did not come from the form can have them.
    /// (By scalar: a NUL followed by a combining mark is one Character, not equal to "\0".)
    var withoutNUL: String {
        unicodeScalars.contains("\0") ? String(String.UnicodeScalarView(unicodeScalars.filter { $0 != "\0" })) : self
    }

    /// A title is one line: each line break in it (a pasted paragraph, say) becomes a space.
    var oneLine: String {
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }
}
