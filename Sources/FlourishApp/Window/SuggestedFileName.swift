import Foundation

/// The name the file chooser offers for a file Flourish writes: what it holds and today's date,
/// "Flourish journal 2026-11-22.json", so that saving again another day keeps the first.
enum SuggestedFileName {
    static func dated(_ name: String, extension fileExtension: String, now: Date = Date()) -> String {
        let day = ISO8601DateFormatter.string(from: now, timeZone: .current, formatOptions: [.withFullDate])
        return "\(name) \(day).\(fileExtension)"
    }
}
