import Foundation

/// The dates and times Daylio's CSV exports write: `full_date` as "2023-05-14"; the older
/// export's `date` in the phone's language ("7 września", "16 de octubre", "June 22",
/// "22. Juni", "6月22日") beside its `year`; times as "20:15", "9:03", "8:15 pm", "3:26 AM" or
/// "12:00 a.m.".
enum DaylioDates {
    /// "2023-05-14".
    static func isoDay(_ text: String) -> Insights.Day? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2], (1...12).contains(month),
              (1...Insights.Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
        return Insights.Day(year: year, month: month, day: day)
    }

    /// Whether `text` looks like a year ("2018"): what starts a row of the older export.
    static func isYear(_ text: String) -> Bool {
        text.count == 4 && Int(text).map { (1900...2999).contains($0) } == true
    }

    /// A day an older export's `date` can be, with the languages its month name is in.
    struct Reading: Equatable {
        let day: Insights.Day
        let languages: Set<String>
    }

    /// Every day `date` (with `year` beside it) can be read as: one for most names, several for
    /// a name that different languages give different months ("listopada"); none when no day and
    /// month name can be found in it. Daylio's languages are tried first, then every language.
    static func readings(year: Int, date: String) -> [Reading] {
        let found = readings(year: year, date: date, in: DaylioCalendarNames.daylios)
        return found.isEmpty ? readings(year: year, date: date, in: DaylioCalendarNames.every) : found
    }

    static func readings(year: Int, date: String, in table: DaylioCalendarNames.Table) -> [Reading] {
        let text = asciiDigits(date)
        let characters = Array(text)
        // Each run of digits may be the day; what is left, less the day's own mark, the month.
        var runs: [Range<Int>] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber else { index += 1; continue }
            let start = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            runs.append(start..<index)
        }
        var found: [Int: Set<String>] = [:]
        var foundDay: Int?
        for run in runs {
            guard run.count <= 2, let day = Int(String(characters[run])), (1...31).contains(day) else { continue }
            var rest = characters
            var end = run.upperBound
            // "22日", "22일", "22号", "22nd": the mark that says the number is a day.
            for mark in ["日", "일", "号", "st", "nd", "rd", "th"] {
                let marked = Array(mark)
                if end + marked.count <= rest.count, Array(rest[end..<(end + marked.count)]).map({ $0.lowercased() }) == marked.map({ $0.lowercased() }) {
                    end += marked.count
                    break
                }
            }
            rest.removeSubrange(run.lowerBound..<end)
            var remainder = String(rest)
            // A year written into the date too ("June 22, 2018").
            remainder = remainder.replacingOccurrences(of: String(year), with: " ")
            let meanings = monthMeanings(remainder, in: table)
            guard !meanings.isEmpty else { continue }
            for meaning in meanings { found[meaning.month, default: []].insert(meaning.language) }
            foundDay = day
            break
        }
        guard let day = foundDay else { return [] }
        return found.keys.sorted().compactMap { month in
            guard day <= Insights.Day.length(ofMonth: month, in: year) else { return nil }
            return Reading(day: Insights.Day(year: year, month: month, day: day), languages: found[month] ?? [])
        }
    }

    /// Words that join a day and its month and are no part of the month's name.
    private static let joiners: Set<String> = ["de", "del", "di", "du", "of", "the", "a", "do", "da"]

    /// What a month name (possibly with "de" before it, or a dot after it) can mean.
    private static func monthMeanings(_ text: String, in table: DaylioCalendarNames.Table) -> Set<DaylioCalendarNames.Meaning> {
        let months = table.months
        let key = DaylioCalendarNames.key(text.replacingOccurrences(of: ",", with: " "))
        guard !key.isEmpty else { return [] }
        if let whole = months[key] { return whole }
        let words = key.split(separator: " ").map { DaylioCalendarNames.key(String($0)) }.filter { !$0.isEmpty }
        let named = words.filter { !joiners.contains($0) }
        if named.count != words.count, let joined = months[named.joined(separator: " ")] { return joined }
        // One word of several is a month name ("16 de octubre"): that word.
        let meanings = named.compactMap { months[$0] }
        return meanings.count == 1 ? meanings[0] : []
    }

    /// The weekdays a weekday name can be (1 is Sunday), in any language; nil for a name not known.
    static func weekdays(_ name: String) -> Set<Int>? {
        let key = DaylioCalendarNames.key(name)
        return DaylioCalendarNames.daylios.weekdays[key] ?? DaylioCalendarNames.every.weekdays[key]
    }

    /// The weekday of `day` (1 is Sunday, 7 Saturday): 1 January 1970 was a Thursday.
    static func weekday(of day: Insights.Day) -> Int {
        ((day.number + 4) % 7 + 7) % 7 + 1
    }

    /// "20:15", "9:03", "08:05", "8:15 pm", "3:26 AM", "12:00 a.m.", "8:15PM"; seconds, as a
    /// spreadsheet may add them ("20:15:00"), are let go.
    static func time(_ text: String) -> (hour: Int, minute: Int)? {
        var clock = asciiDigits(text).lowercased().replacingOccurrences(of: ".", with: "").filter { !$0.isWhitespace }
        var half: String?
        for suffix in ["am", "pm"] where clock.hasSuffix(suffix) {
            half = suffix
            clock.removeLast(2)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var hour = Int(parts[0]), let minute = Int(parts[1]), (0..<60).contains(minute) else { return nil }
        if parts.count == 3 { guard parts[2].count == 2, let second = Int(parts[2]), (0..<60).contains(second) else { return nil } }
        if let half {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (half == "pm" ? 12 : 0)
        }
        guard (0..<24).contains(hour) else { return nil }
        return (hour, minute)
    }

    /// Decimal digits of any script ("٢٢", "２２") as ASCII ones.
    static func asciiDigits(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.numericType == .decimal }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !scalar.isASCII, scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                result.append(Unicode.Scalar(UInt8(48 + Int(value))))
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
