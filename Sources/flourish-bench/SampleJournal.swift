import FlourishCore
import Foundation

/// A deterministic, realistic journal for the benchmark: the same entries on every machine and
/// every run (fixed seed). Most bodies are a few sentences, one in ten runs 2,000 to 5,000
/// characters, all six moods appear, some days have several entries, and the dates go back
/// over years from a fixed day. The newest entry is the longest, so "open an entry" opens it.
struct SampleJournal {
    struct Sample {
        let title: String
        let body: String
        let mood: Mood
        let date: Date
        let location: Location?
    }

    let samples: [Sample]

    init(count: Int, seed: UInt64 = 2026) {
        var random = SplitMix64(seed: seed)
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        // 1 November 2026, 21:00 UTC, going back a day at a time.
        var day = Date(timeIntervalSince1970: 1_793_566_800)
        while samples.count < count {
            let perDay = random.next(100) < 80 ? 1 : (random.next(100) < 75 ? 2 : 3)
            for slot in 0..<min(perDay, count - samples.count) {
                let long = random.next(10) == 0
                let body = long ? Self.text(&random, characters: 2_000 + random.next(3_001))
                                : Self.text(&random, sentences: 1 + random.next(4))
                let title = random.next(20) == 0 ? "" : Self.title(&random)
                let mood = Mood(rawValue: Self.moodWeights.firstIndex { random.next(100) < $0 } ?? 2) ?? .okay
                let location = random.next(5) == 0
                    ? Location(latitude: Double(random.next(18_000)) / 100 - 90, longitude: Double(random.next(36_000)) / 100 - 180,
                               accuracy: Double(10 + random.next(990)))
                    : nil
                let minutes = Double(slot * 150 + random.next(120))
                samples.append(Sample(title: title, body: body, mood: mood, date: day.addingTimeInterval(-minutes * 60), location: location))
            }
            day = day.addingTimeInterval(-86_400)
        }
        if !samples.isEmpty {
            let first = samples[0]
            samples[0] = Sample(title: first.title, body: Self.text(&random, characters: 5_000), mood: first.mood,
                                date: first.date, location: first.location)
        }
        self.samples = samples
    }

    /// The tags of entry `index`, from `tags` (the journal's, in its order): none to three, taken
    /// from a hash of the index, not from the entries' random stream, so that tagging the sample
    /// changed none of its other values. About one entry in four has none.
    static func tags(forEntry index: Int, from tags: [Int64]) -> Set<Int64> {
        guard !tags.isEmpty else { return [] }
        var hash = SplitMix64(seed: UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        return Set((0..<hash.next(4)).map { _ in tags[hash.next(tags.count)] })
    }

    /// The sample's three measures: a number with a unit and range, a scale, a plain number.
    static let measureDefinitions = [
        MeasureDefinition(name: "Sleep", kind: .number, unit: "hours", range: 0...24),
        MeasureDefinition(name: "Energy", kind: .scale),
        MeasureDefinition(name: "Steps", kind: .number),
    ]

    /// The values of entry `index` for `measures` (the journal's ids of `measureDefinitions`):
    /// every one on half the entries, none on the others, from a hash of the index as the tags
    /// are (the entries' other values do not change with them).
    static func measures(forEntry index: Int, from measures: [Int64]) -> [Int64: Double]? {
        guard measures.count == 3 else { return nil }
        var hash = SplitMix64(seed: UInt64(index) &* 0xD1B5_4A32_D192_ED03 &+ 11)
        guard hash.next(2) == 0 else { return nil }
        return [measures[0]: Double(40 + hash.next(61)) / 10, measures[1]: Double(1 + hash.next(5)),
                measures[2]: Double(1_000 + hash.next(15_000))]
    }

    /// Cumulative chances (in %) of each mood, best first: most days are fine, some are not.
    private static let moodWeights = [12, 37, 67, 84, 95, 101]

    private static let words = """
        walk sea rain sun friends work tired slept late coffee calm busy garden train book call mum \
        dinner music quiet park meeting deadline run bike cold warm snow market kids cat dog laughed \
        worried hopeful lunch morning evening night headache cinema long short news letter kitchen
        """.split(separator: " ").map(String.init)

    private static func title(_ random: inout SplitMix64) -> String {
        let words = (0..<(2 + random.next(3))).map { _ in Self.words[random.next(Self.words.count)] }
        return words.joined(separator: " ").capitalizedFirst
    }

    private static func sentence(_ random: inout SplitMix64) -> String {
        let words = (0..<(8 + random.next(13))).map { _ in Self.words[random.next(Self.words.count)] }
        return words.joined(separator: " ").capitalizedFirst + "."
    }

    private static func text(_ random: inout SplitMix64, sentences: Int) -> String {
        (0..<sentences).map { _ in sentence(&random) }.joined(separator: " ")
    }

    private static func text(_ random: inout SplitMix64, characters: Int) -> String {
        var text = ""
        while text.count < characters {
            text += (text.isEmpty ? "" : random.next(5) == 0 ? "\n\n" : " ") + sentence(&random)
        }
        return text
    }
}

/// A small, fast, seeded generator (SplitMix64), so the sample journal is the same everywhere.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number from 0 up to, not including, `bound`.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
