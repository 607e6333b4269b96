/// What a file carries beside its entries' changes, each in a field of its own that a Flourish
/// from before it leaves unread: measures (applied first: entries name them by uuid), templates,
/// and the words of one's own.
struct SyncExtras: Equatable {
    var measures: [SyncChange] = []
    var templates: [SyncChange] = []
    var words: [String] = []

    var isEmpty: Bool { measures.isEmpty && templates.isEmpty && words.isEmpty }

    /// The entries' changes, and the rest as extras.
    static func split(_ changes: [SyncChange]) -> (changes: [SyncChange], extras: SyncExtras) {
        var extras = SyncExtras()
        extras.measures = changes.filter(\.kind.isMeasure)
        extras.templates = changes.filter(\.kind.isTemplate)
        extras.words = changes.filter { $0.kind == .word }.compactMap(\.name)
        return (changes.filter { !$0.kind.travelsApart }, extras)
    }

    init() {}

    init(_ batch: SyncBatch) {
        (measures, templates, words) = (batch.measures ?? [], batch.templates ?? [], batch.words ?? [])
    }

    init(_ snapshot: SyncSnapshot) {
        (measures, templates, words) = (snapshot.measures ?? [], snapshot.templates ?? [], snapshot.words ?? [])
    }

    /// Into a file: a field with nothing in it is left out.
    func put(into batch: inout SyncBatch) {
        (batch.measures, batch.templates, batch.words) = (measures.nilIfEmpty, templates.nilIfEmpty, words.nilIfEmpty)
    }

    func put(into snapshot: inout SyncSnapshot) {
        (snapshot.measures, snapshot.templates, snapshot.words) = (measures.nilIfEmpty, templates.nilIfEmpty, words.nilIfEmpty)
    }

    /// Whether each field holds only what belongs in it (a file that mixes them is not Flourish's).
    func isWellFormed(besides changes: [SyncChange]) -> Bool {
        measures.allSatisfy(\.kind.isMeasure) && templates.allSatisfy(\.kind.isTemplate) && !changes.contains(where: \.kind.travelsApart)
    }
}

private extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
