import Foundation
import GRDB

/// The entries written between two moments, as SQL: what each of Insights' passes reads along
/// the date index.
struct DateFilter {
    /// "created_at >= ? AND created_at < ?", or as much of it as there are bounds ("1": none).
    let condition: String
    let arguments: StatementArguments

    init(from: Date?, to: Date?) {
        var conditions = ["1"]
        var arguments: StatementArguments = []
        if let from {
            conditions.append("entry.created_at >= ?")
            arguments += [from]
        }
        if let to {
            conditions.append("entry.created_at < ?")
            arguments += [to]
        }
        condition = conditions.joined(separator: " AND ")
        self.arguments = arguments
    }
}
