/// How the person feels, on the seeds' six-step scale. Index 0 is the best; the raw value is what
/// the journal stores in `entry.mood`.
public enum Mood: Int, CaseIterable, Sendable, Codable {
    case theBest = 0
    case reallyGood
    case okay
    case meh
    case notSoGreat
    case theWorst

    /// The words the picker shows and a screen reader speaks.
    public var title: String {
        switch self {
        case .theBest: tr("the best")
        case .reallyGood: tr("really good")
        case .okay: tr("okay")
        case .meh: tr("meh")
        case .notSoGreat: tr("not so great")
        case .theWorst: tr("the worst")
        }
    }

    /// The mood's colour, as the seeds give it.
    public var hex: String {
        switch self {
        case .theBest: "#8647b7"
        case .reallyGood: "#4870b7"
        case .okay: "#45a85a"
        case .meh: "#a8a23f"
        case .notSoGreat: "#c6802e"
        case .theWorst: "#b05050"
        }
    }

    public var color: RGBAColor {
        // The catalogue's own literals are valid; a typo here is caught by MoodTests.
        (try? RGBAColor(hex: hex)) ?? RGBAColor(red: 0.6, green: 0.6, blue: 0.6)
    }

    /// The catalogue in the order the picker lists it, best first.
    public static var catalogue: [Mood] { allCases }

    /// What is said of an entry that has no mood (one imported from a journal without moods):
    /// a state of its own, never one of the six.
    public static var noneTitle: String { tr("no mood") }

    /// The mood's title, or "no mood".
    public static func title(of mood: Mood?) -> String { mood?.title ?? noneTitle }
}

/// What the mood button says, and its colour, before a mood is chosen.
public enum MoodPrompt {
    public static var title: String { tr("select") }
    public static let hex = "#3687FF"
}
