/// How a journal fared in its health check.
public enum JournalHealth: Equatable, Sendable {
    case healthy
    /// SQLite found damage; `report` is what it said (its own words, for the rescue tools).
    case damaged(report: [String])
}
