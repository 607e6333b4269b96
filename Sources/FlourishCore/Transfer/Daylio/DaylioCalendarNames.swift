import Foundation

/// Month and weekday names in every language the system's locale data knows, for reading the
/// older Daylio export's `date` ("7 września", "16 de octubre", "June 22", "22. Juni", "6月22日")
/// and `weekday` columns, which Daylio writes in the phone's language.
///
/// Built the first time an older export needs them, over the locales of Daylio's languages
/// first and, only for a date those cannot read, over every locale (regional ones too: Austria's
/// "Jänner", the Maghreb's "جانفي"); shared by every import after.
enum DaylioCalendarNames {
    /// A month a name can stand for, and the language it does so in.
    struct Meaning: Hashable, Sendable {
        let month: Int
        let language: String
    }

    struct Table: Sendable {
        /// Each month name (see `key(_:)`), wide and short, in a date ("września") and alone
        /// ("wrzesień"), with what it can mean.
        var months: [String: Set<Meaning>] = [:]
        /// Each weekday name, wide and short, with the weekdays it can be (1 is Sunday).
        var weekdays: [String: Set<Int>] = [:]
    }

    /// The names of the languages Daylio ships (their regional forms too): enough for nearly
    /// every file, and quick to build (a few hundredths of a second).
    static let daylios: Table = build(Locale.availableIdentifiers.filter { identifier in
        DaylioMoods.languageCodes.contains(Locale(identifier: identifier).language.languageCode?.identifier ?? "")
    })

    /// The names of every language the system knows, for a date the first table cannot read
    /// (a third to half a second to build, on two cores).
    static let every: Table = build(Locale.availableIdentifiers)

    /// Each is built on first use (a `static let` is built once, safely across threads).
    static func build(_ identifiers: [String] = Locale.availableIdentifiers) -> Table {
        // Reading a locale's names is most of the cost (ICU makes a formatter for each): the
        // locales are read in parts side by side, each part with its own formatter.
        let parts = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let tables = Tables(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            tables.set(part, Self.table(of: stride(from: part, to: identifiers.count, by: parts).map { identifiers[$0] }))
        }
        var table = Table()
        for part in tables.all {
            table.months.merge(part.months) { $0.union($1) }
            table.weekdays.merge(part.weekdays) { $0.union($1) }
        }
        return table
    }

    /// The tables of the parts, each written once by its own thread.
    private final class Tables: @unchecked Sendable {
        private let lock = NSLock()
        private var tables: [Table]

        init(count: Int) { tables = Array(repeating: Table(), count: count) }

        func set(_ index: Int, _ table: Table) { lock.withLock { tables[index] = table } }
        var all: [Table] { lock.withLock { tables } }
    }

    private static func table(of identifiers: [String]) -> Table {
        var table = Table()
        let formatter = DateFormatter()
        // Most names recur from locale to locale (every English one has "June"): made a key once.
        var keys: [String: String] = [:]
        func keyed(_ name: String) -> String {
            if let known = keys[name] { return known }
            let made = key(name)
            keys[name] = made
            return made
        }
        for identifier in identifiers {
            let locale = Locale(identifier: identifier)
            let language = locale.language.languageCode?.identifier ?? identifier
            formatter.locale = locale
            // Some locales count in another calendar (Islamic, Persian); Daylio's are Gregorian.
            formatter.calendar = Calendar(identifier: .gregorian)
            for list in [formatter.monthSymbols, formatter.standaloneMonthSymbols, formatter.shortMonthSymbols,
                         formatter.shortStandaloneMonthSymbols] {
                for (index, name) in list.enumerated() {
                    let key = keyed(name)
                    guard !key.isEmpty else { continue }
                    table.months[key, default: []].insert(Meaning(month: index + 1, language: language))
                }
            }
            for list in [formatter.weekdaySymbols, formatter.standaloneWeekdaySymbols, formatter.shortWeekdaySymbols,
                         formatter.shortStandaloneWeekdaySymbols] {
                for (index, name) in list.enumerated() {
                    let key = keyed(name)
                    guard !key.isEmpty else { continue }
                    table.weekdays[key, default: []].insert(index + 1)
                }
            }
        }
        return table
    }

    /// A name as the table keeps it: lower case, one kind of apostrophe and of space, no dots or
    /// commas around it ("Sept." and "sept" are one name).
    static func key(_ name: String) -> String {
        var text = name.lowercased()
            .replacingOccurrences(of: "'", with: "’")
            .replacingOccurrences(of: "\u{00A0}", with: " ")
            .replacingOccurrences(of: "\u{202F}", with: " ")
        text = text.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        return text.trimmingCharacters(in: CharacterSet(charactersIn: " .,"))
    }
}
