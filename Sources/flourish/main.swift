import FlourishApp
import FlourishCore
import Foundation

// Flourish's command line. GTK never sees these arguments: they are Flourish's own.

// Translations first: everything below may speak to the person.
Localization.setUp(localeDirectory: BuildProfile.installedDataDirectory.map { ($0 as NSString).appendingPathComponent("locale") })

func usage() -> String {
    String(format: tr("Usage: flourish [OPTION…]\n\nA mood journal for the desktop: log how you feel, look back over your days.\n\nOptions:\n  --database PATH   open the journal at PATH instead of %@\n  --version         print the version and exit\n  -h, --help        print this help and exit\n"),
           JournalPaths.defaultJournal())
}

func fail(_ message: String) -> Never {
    let hint = tr("Try “flourish --help” for more information.")
    FileHandle.standardError.write(Data("flourish: \(message)\n\(hint)\n".utf8))
    exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
var databasePath: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage(), terminator: "")
        exit(0)
    case "--version":
        print("Flourish \(BuildProfile.version)")
        exit(0)
    case "--database":
        guard let path = arguments.popFirst(), !path.isEmpty else { fail(tr("--database needs a file path")) }
        databasePath = path
    default:
        if argument.hasPrefix("--database=") {
            databasePath = String(argument.dropFirst("--database=".count))
        } else {
            fail(String(format: tr("unknown option %@"), argument))
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
