import Foundation

/// Month and weekday names in every language the system's locale data knows, for reading the
/// older Daylio export's `date` ("7 września", "16 de octubre", "June 22", "22. Juni", "6月22日")
/// and `weekday` columns, which Daylio writes in the phone's language.
///
/// Built once, the first time an older export needs it, over every locale (regional ones too:
/// Austria's "Jänner", the Maghreb's "جانفي"), and shared by every import after.
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

    /// The table, built on first use (a `static let` is built once, safely across threads).
    static let table: Table = build()

    static func build() -> Table {
        var table = Table()
        let formatter = DateFormatter()
        for identifier in Locale.availableIdentifiers {
            let locale = Locale(identifier: identifier)
            let language = locale.language.languageCode?.identifier ?? identifier
            formatter.locale = locale
            // Some locales count in another calendar (Islamic, Persian); Daylio's are Gregorian.
            formatter.calendar = Calendar(identifier: .gregorian)
            for list in [formatter.monthSymbols, formatter.standaloneMonthSymbols, formatter.shortMonthSymbols,
                         formatter.shortStandaloneMonthSymbols] {
                for (index, name) in (list ?? []).enumerated() {
                    let key = key(name)
                    guard !key.isEmpty else { continue }
                    table.months[key, default: []].insert(Meaning(month: index + 1, language: language))
                }
            }
            for list in [formatter.weekdaySymbols, formatter.standaloneWeekdaySymbols, formatter.shortWeekdaySymbols,
                         formatter.shortStandaloneWeekdaySymbols] {
                for (index, name) in (list ?? []).enumerated() {
                    let key = key(name)
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
