import Foundation

/// What the journal model needs of a store: the entirety of the journal's intents in one place.
/// `JournalStore` is the real one; tests wrap it to inject faults. Every method may block on
/// disk, so callers run them off the GTK thread. Each write is one transaction.
public protocol JournalStoring: Sendable {
    /// Saves a complete entry, stamped `createdAt`, and returns it with its id.
    func save(_ entry: NewEntry, createdAt: Date) throws(JournalError) -> Entry
    /// Replaces the entry's title, body and mood (and its date, when `entry.date` is set), stamps
    /// `updatedAt`, and returns the entry as now stored. The location is left as it was.
    func update(id: Int64, with entry: NewEntry, updatedAt: Date) throws(JournalError) -> Entry
    /// Removes the entry and returns exactly what was removed, for undo.
    func delete(id: Int64) throws(JournalError) -> DeletedEntry
    /// Puts a deleted entry back, byte for byte, under its old id.
    func restore(_ deleted: DeletedEntry) throws(JournalError) -> Entry
    /// Every entry's id, newest first: cheap even for years of entries.
    func entryIDs() throws(JournalError) -> [Int64]
    /// The entries with these ids, in no particular order, and the rows among them that cannot
    /// be read as entries, each with its reason.
    func read(ids: [Int64]) throws(JournalError) -> EntryBatch
    /// Checks the journal's health once (slow on a large journal: every page is read) and, when
    /// it is healthy, readies it for writing. Writes wait for it; a damaged journal is never written.
    func check() -> JournalHealth
    /// A number that changes whenever another connection (another Flourish on the same file, a
    /// sync tool) commits to the journal; nil until the journal is open for writing.
    func dataVersion() -> Int?
    /// The ids of the entries matching `query`, in no particular order.
    func matches(_ query: JournalQuery) throws(JournalError) -> [Int64]
    /// Where the entry stands in `entryIDs()` order (0 is the newest), or nil if it is not there.
    func position(of id: Int64) throws(JournalError) -> Int?

    /// Every tag, by name; with `counted`, each with how many entries carry it.
    func tags(counted: Bool) throws(JournalError) -> [Tag]
    /// A new tag (see `TagName`); a name taken already, in any case, is refused.
    func createTag(named name: String) throws(JournalError) -> Tag
    func renameTag(id: Int64, to name: String) throws(JournalError)
    /// Moves the tag's entries to `target` and removes it; returns how many entries gained `target`.
    func mergeTag(id: Int64, into target: Int64) throws(JournalError) -> Int
    /// Removes the tag from its entries and the journal; returns how many entries carried it.
    func deleteTag(id: Int64) throws(JournalError) -> Int
    /// The words a person added to the dictionary (see `JournalStore+Spelling`).
    func ownWords() -> [String]
    func addOwnWord(_ word: String) throws(JournalError)
    /// The journal's spelling language ("fr_FR"), nil for the desktop's.
    func spellingLanguage() -> String?
    func setSpellingLanguage(_ language: String?) throws(JournalError)
    /// Whether spelling is checked (on unless turned off).
    func isSpellingChecked() -> Bool
    func setSpellingChecked(_ checked: Bool) throws(JournalError)
    /// Every template, in the person's order (see `JournalStore+Templates`).
    func templates() throws(JournalError) -> [EntryTemplate]
    func createTemplate(_ definition: TemplateDefinition) throws(JournalError) -> EntryTemplate
    func updateTemplate(id: Int64, to definition: TemplateDefinition) throws(JournalError) -> EntryTemplate
    /// The template every new entry starts from; nil: none.
    func setDefaultTemplate(id: Int64?) throws(JournalError)
    /// Removes the template; returns it, for Undo.
    func deleteTemplate(id: Int64) throws(JournalError) -> DeletedTemplate
    func restoreTemplate(_ deleted: DeletedTemplate) throws(JournalError) -> EntryTemplate
    /// Every measure, in the person's order (see `JournalStore+Measures`).
    func measures() throws(JournalError) -> [Measure]
    /// How many entries carry a value for each measure, by measure id.
    func measureUse() throws(JournalError) -> [Int64: Int]
    func createMeasure(_ definition: MeasureDefinition) throws(JournalError) -> Measure
    /// A new name, unit or range; the kind stays.
    func updateMeasure(id: Int64, to definition: MeasureDefinition) throws(JournalError) -> Measure
    func moveMeasure(id: Int64, to index: Int) throws(JournalError)
    /// Removes the measure and its values; returns them all, for Undo.
    func deleteMeasure(id: Int64) throws(JournalError) -> DeletedMeasure
    func restoreMeasure(_ deleted: DeletedMeasure) throws(JournalError) -> Measure
    /// What was written on `today`'s date in earlier years, the most recent year first; see
    /// `JournalStore.memories`.
    func memories(on today: Date, calendar: Calendar) throws(JournalError) -> [Memory]
    /// The Insights page's figures for `period`, as of `now`, in the calendar's time zone.
    func insights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> Insights
    /// Each measure over `period`: its values and the mood by its steps or bands.
    func measureInsights(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MeasureInsight]
    /// The words written in each month of the period (see `JournalStore.wordsByMonth`).
    func wordsByMonth(for period: InsightsPeriod, now: Date, calendar: Calendar) throws(JournalError) -> [MonthWords]

    /// Writes the whole journal in `format` to `path`; `progress` hears (done, total) and
    /// returns false to cancel. See `JournalStore.export`.
    func export(_ format: ExportFormat, to path: String, calendar: Calendar, now: Date,
                progress: (Int, Int) -> Bool) throws(ExportFailure) -> ExportResult
    /// What importing `entries` would add and find already there.
    func importSummary(_ entries: [ImportedEntry]) throws(JournalError) -> ImportSummary
    /// Adds the entries not there yet, with their tags and measures' values, in one transaction.
    func importEntries(_ entries: [ImportedEntry], tags: [String], measures: [ImportedMeasure],
                       templates: [ImportedTemplate]) throws(JournalError) -> ImportReceipt
    /// Takes an import back, in one transaction.
    func undoImport(_ receipt: ImportReceipt) throws(JournalError)

    /// The earlier versions sync kept of the entry with this uuid, the most recently kept first.
    func earlierVersions(of uuid: String) throws(JournalError) -> [EarlierVersion]
    /// Takes an earlier version back as an edit, keeping the version it replaces.
    func useEarlierVersion(_ version: EarlierVersion, forEntry id: Int64, updatedAt: Date) throws(JournalError) -> Entry

    /// Keeps a picture's bytes (durably, before any entry names it) and returns the photo to
    /// put on an entry; see `JournalStore.addPhoto`.
    func addPhoto(_ bytes: Data, fileName: String, thumbnail: Data?) throws(JournalError) -> EntryPhoto
    /// A photo's original bytes, exactly as added.
    func photo(_ photo: EntryPhoto) throws(JournalError) -> Data
    /// The entries a printed book of `range` holds, oldest first; see `JournalStore.bookPlan`.
    func bookPlan(_ range: BookRange, calendar: Calendar) throws(JournalError) -> BookPlan
    /// A photo's kept thumbnail; nil until one is made.
    func thumbnail(of photo: EntryPhoto) throws(JournalError) -> Data?
    func keepThumbnail(_ bytes: Data, of photo: EntryPhoto) throws(JournalError)
}

extension JournalStoring {
    /// The readable entries with these ids, in no particular order.
    public func entries(ids: [Int64]) throws(JournalError) -> [Entry] {
        try read(ids: ids).entries
    }
}
