import Foundation

/// What the entry form holds before it is saved: possibly incomplete.
public struct EntryDraft: Sendable, Equatable {
    public var title: String
    public var body: String
    public var mood: Mood?
    public var location: Location?

    public init(title: String = "", body: String = "", mood: Mood? = nil, location: Location? = nil) {
        self.title = title
        self.body = body
        self.mood = mood
        self.location = location
    }

    /// A reason the draft cannot be saved yet, said next to the field it concerns.
    public enum Problem: Sendable, Equatable, CaseIterable {
        case missingMood
        case missingText

        public var message: String {
            switch self {
            case .missingMood: tr("Choose how you feel.")
            case .missingText: tr("Write a title or a few lines.")
            }
        }
    }

    /// Every problem with the draft, in form order; empty when it can be saved.
    public var problems: [Problem] {
        var problems: [Problem] = []
        if mood == nil { problems.append(.missingMood) }
        if title.trimmed.isEmpty && body.trimmed.isEmpty { problems.append(.missingText) }
        return problems
    }

    /// The draft as a savable entry, or the problems that keep it from being one.
    public func validated() -> Result<NewEntry, ValidationError> {
        guard problems.isEmpty, let mood else { return .failure(ValidationError(problems: problems)) }
        return .success(NewEntry(title: title.trimmed, body: body.trimmed, mood: mood, location: location))
    }
}

/// A complete entry, ready for the store: a mood, and a title or a body.
public struct NewEntry: Sendable, Equatable {
    public let title: String
    public let body: String
    public let mood: Mood
    public let location: Location?
}

public struct ValidationError: Error, Equatable, Sendable {
    public let problems: [EntryDraft.Problem]
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
