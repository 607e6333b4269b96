import FlourishApp
import Foundation

// Flourish's command line. GTK never sees these arguments: they are Flourish's own.
let usage = """
Usage: flourish [--database PATH]

A mood journal for the desktop.

Options:
  --database PATH   open the journal at PATH instead of the default
                    ($XDG_DATA_HOME/flourish/journal.sqlite)
  -h, --help        show this help and exit
"""

var arguments = CommandLine.arguments.dropFirst()
var databasePath: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--database":
        guard let path = arguments.popFirst(), !path.isEmpty else {
            FileHandle.standardError.write(Data("flourish: --database needs a file path\n\n\(usage)\n".utf8))
            exit(2)
        }
        databasePath = path
    default:
        if argument.hasPrefix("--database=") {
            databasePath = String(argument.dropFirst("--database=".count))
        } else {
            FileHandle.standardError.write(Data("flourish: unknown option \(argument)\n\n\(usage)\n".utf8))
            exit(2)
        }
    }
}

let status = MainActor.assumeIsolated {
    let app = FlourishApplication(
        journalPath: databasePath ?? JournalPaths.defaultJournal(),
        unique: databasePath == nil)
    return app.run()
}
exit(status)
