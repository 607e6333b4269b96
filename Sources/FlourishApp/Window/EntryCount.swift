import FlourishCore

/// "1 entry", "12 entries": how many entries a tag or a figure counts, said one way everywhere.
enum EntryCount {
    static func words(_ count: Int) -> String {
        count == 1 ? tr("1 entry") : String(format: tr("%@ entries"), "\(count)")
    }
}
