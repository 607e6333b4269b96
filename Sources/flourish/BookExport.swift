import FlourishApp
import FlourishCore
import Foundation

/// `--from` and `--to` of `--export pdf`: a day as YYYY-MM-DD, or nil for anything else.
func bookDay(_ text: String) -> Insights.Day? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
          let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
          (1...12).contains(month), (1...Insights.Day.length(ofMonth: month, in: year)).contains(day) else { return nil }
    return Insights.Day(year: year, month: month, day: day)
}

/// `flourish --export pdf PATH`: the entries of the range as a book, on the locale's paper.
/// A locked journal's PDF is plain: that is said on stderr before it is written.
func runPDFExport(_ store: JournalStore, to path: String, from: Insights.Day?, to last: Insights.Day?) -> Never {
    if store.cipher != nil {
        FileHandle.standardError.write(Data("flourish: \(BookExport.plainWarning)\n".utf8))
    }
    let range: BookRange = from == nil && last == nil ? .whole : .days(from: from, to: last)
    switch BookExport.writePDF(store, range: range, to: path) {
    case .success(let written):
        print(String(format: tr("Exported %@ entries to %@ (%@ pages)."), "\(written.entries)", path, "\(written.pages)"))
        if written.unreadable > 0 { print(String(format: tr("%@ entries could not be read and were left out."), "\(written.unreadable)")) }
        if written.unreadablePhotos > 0 {
            print(String(format: tr("%@ could not be read; their names are printed in their place."), PhotoCount.words(written.unreadablePhotos)))
        }
        end(0)
    case .failure(let failure):
        FileHandle.standardError.write(Data("flourish: \(failure.message)\n".utf8))
        end(1)
    }
}
