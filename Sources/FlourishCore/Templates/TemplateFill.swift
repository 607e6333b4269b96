import Foundation

/// A template as it goes into a form at one moment: its placeholders filled, its tags and
/// measure values as this journal's ids (a tag or measure the journal no longer has is left
/// out), and how it meets what the form holds already.
public struct TemplateFill: Sendable, Equatable {
    public var title: String
    public var body: String
    public var mood: Mood?
    public var tagIDs: Set<Int64>
    public var measures: [Int64: Double]

    public init(_ template: EntryTemplate, at date: Date, tags: [Tag], measures: [Measure], locale: Locale = .current,
                timeZone: TimeZone = .current) {
        let definition = template.definition
        title = TemplatePlaceholders.fill(definition.title, at: date, locale: locale, timeZone: timeZone).oneLine
        body = TemplatePlaceholders.fill(definition.body, at: date, locale: locale, timeZone: timeZone)
        mood = definition.mood
        let wanted = Set(definition.tags.map(TagName.key))
        tagIDs = Set(tags.filter { wanted.contains(TagName.key($0.name)) }.map(\.id))
        var values: [Int64: Double] = [:]
        for measure in measures { if let value = definition.measures[measure.uuid] { values[measure.id] = value } }
        self.measures = values
    }

    /// What a form becomes with the template. An empty form (no title, no body) takes all of it.
    /// A written one keeps every word: the template's body goes in at the cursor (`cursor`, in
    /// Unicode scalars, as GTK counts), its title only where there is none, its mood only where none is chosen; its
    /// tags join the form's, its values fill the measures left empty.
    /// `inserted` is what went into a written body at the cursor (nil: the body was replaced),
    /// so that an editor can put in just that, as typing would, and Undo take it out.
    public func applied(to form: EntryDraft, cursor: Int) -> (draft: EntryDraft, cursor: Int, inserted: String?) {
        var draft = form
        if form.title.isEmpty && form.body.isEmpty {
            draft.title = title
            draft.body = body
            draft.mood = mood ?? form.mood
            draft.tagIDs = form.tagIDs.union(tagIDs)
            draft.measures = (form.measures ?? [:]).merging(measures) { _, template in template }
            return (draft, Self.firstBlank(in: body), nil)
        }
        if form.title.isEmpty { draft.title = title }
        if form.mood == nil { draft.mood = mood }
        draft.tagIDs = form.tagIDs.union(tagIDs)
        draft.measures = (form.measures ?? [:]).merging(measures) { form, _ in form }
        let scalars = Array(form.body.unicodeScalars)
        let at = max(0, min(cursor, scalars.count))
        // A template with no body (tags or values only) leaves the words as they are.
        guard !body.isEmpty else { return (draft, at, "") }
        // On a line of its own: a line break before it unless the cursor starts a line, and after
        // it unless one follows.
        let before = at > 0 && scalars[at - 1] != "\n" ? "\n" : ""
        let after = at < scalars.count && scalars[at] != "\n" && !body.hasSuffix("\n") ? "\n" : ""
        let inserted = before + body + after
        var joined = String.UnicodeScalarView(scalars[..<at])
        joined.append(contentsOf: inserted.unicodeScalars)
        joined.append(contentsOf: scalars[at...])
        draft.body = String(joined)
        return (draft, at + before.unicodeScalars.count + Self.firstBlank(in: body), inserted)
    }

    /// Where writing starts in a filled body, in Unicode scalars: the end of its first line that
    /// is a prompt with nothing after it ("1. ", "- [ ] ", a line after a heading), else its end.
    static func firstBlank(in body: String) -> Int {
        var offset = 0
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isPrompt = line.hasSuffix(" ") && (trimmed.hasSuffix(".") || trimmed.hasSuffix("]") || trimmed == "-" || trimmed.hasSuffix(":"))
            let afterHeading = trimmed.isEmpty && index > 0 && lines[index - 1].hasPrefix("#")
            if isPrompt || afterHeading { return offset + line.unicodeScalars.count }
            offset += line.unicodeScalars.count + 1
        }
        return body.unicodeScalars.count
    }
}
