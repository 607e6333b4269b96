import FlourishCore
import Foundation
import GtkKit

/// The fields New Entry and Edit share: Title, the mood and the date, Body, and the messages
/// that say what is missing next to each. Knows how to read a draft from them and how to show
/// a draft's problems; the forms around it decide what saving means.
@MainActor
final class EntryFields {
    let titleField = TextEntry()
    let bodyField = TextView()
    let picker = MoodPicker()
    let datePicker = DatePicker()
    /// "Tags", under the mood: what the person did that day.
    let tags: TagChooser
    /// The journal's measures, under the tags: each an optional number or scale.
    let measures: MeasureFields
    /// Template (Alt+M), beside the title's label.
    let templateMenu: TemplateMenu
    /// The title and body a template put in an empty form, while they are still as it left
    /// them: such a form holds nothing the person wrote.
    private(set) var templateFill: (title: String, body: String)?
    /// The entry's photos: Add Photo…, its thumbnails, drops and pastes.
    let photos: PhotoAttachments
    /// An edit carries exactly the photos shown (none shown takes them all off); a new entry
    /// without photos has none to carry.
    var carriesPhotosExactly = false
    /// Said next to the mood button when no mood is chosen.
    let moodError = Label()
    /// Said next to the date when it is in the future.
    let dateError = Label()
    /// Said under the body when both title and body are empty.
    let textError = Label()
    /// "124 words", under the body: counted when GTK is idle, never as a key is handled; nothing
    /// while the body is empty (so start-up formats no number: the first one loads ICU's number
    /// rules, 4.5 MiB and some milliseconds, which the window loads once it has settled).
    let wordCount = Label()
    private var countPending = false
    /// Spelling in the title and the body: misspelled words underlined, suggestions in their
    /// context menus.
    private(set) var titleSpelling: TextSpelling!
    private(set) var bodySpelling: TextSpelling!
    /// The body's Markdown, styled as it is written; Ctrl+B, Ctrl+I, lists that go on.
    private(set) var bodyMarkdown: MarkdownEditing!
    /// The fields in form order, for the form to lay out in its own box.
    private(set) var widgets: [Widget] = []
    /// The body's scroller: its scrollbar kept beside the text (see `keepScrollbarBeside`).
    let bodyScroller: ScrolledWindow

    init(model: JournalModel, alerts: Alerts, thumbnails: PhotoThumbnails) {
        bodyScroller = ScrolledWindow(bodyField)
        tags = TagChooser(model: model)
        measures = MeasureFields(model: model)
        templateMenu = TemplateMenu(model: model)
        photos = PhotoAttachments(model: model, alerts: alerts, thumbnails: thumbnails)
        titleSpelling = TextSpelling(titleField, oneLine: true, session: SpellingSession.of(model), alerts: alerts)
        bodySpelling = TextSpelling(bodyField, session: SpellingSession.of(model), alerts: alerts)
        bodyMarkdown = MarkdownEditing(bodyField)
        let titleLabel = fieldLabel(tr("_Title"), for: titleField)
        titleField.placeholder = tr("What is today about?")

        let bodyLabel = fieldLabel(tr("_Body"), for: bodyField)
        bodyField.addClass("body-field")
        bodyScroller.addClass("body-scroller")
        bodyScroller.setMinContentHeight(160)
        // Typing into a long body relays it out under a resting pointer: see keepScrollbarBeside.
        bodyScroller.keepScrollbarBeside()
        bodyScroller.expand(vertically: true)

        // As in the seeds, the mood sits under the title and its picker drops down over the body;
        // the date sits beside it, on the same line.
        let moodRow = Box(.horizontal, spacing: 12)
        moodRow.append(fieldLabel(tr("I’m _feeling"), for: picker.button, namesWidget: false))
        moodRow.append(picker.button)
        moodRow.append(moodError)
        let dateLabel = fieldLabel(tr("_Date"), for: datePicker.button, namesWidget: false)
        dateLabel.setMargins(start: 12)
        moodRow.append(dateLabel)
        moodRow.append(datePicker.button)
        moodRow.append(dateError)
        moodRow.setMargins(top: 8, bottom: 4)
        for widget in [picker.button, datePicker.button, dateLabel] as [Widget] { widget.align(vertical: .center) }

        for error in [moodError, dateError, textError] {
            error.addClass("field-error")
            error.alignStart()
            error.isVisible = false
        }

        wordCount.addClass("journal-meta")
        wordCount.alignEnd()
        let titleRow = Box(.horizontal, spacing: 12)
        titleLabel.expand(horizontally: true)
        titleLabel.align(vertical: .end)
        titleRow.append(titleLabel)
        titleRow.append(templateMenu.button)
        widgets = [titleRow, titleField, moodRow, tags.view, measures.view, bodyLabel, bodyScroller, wordCount, textError, photos.view]

        // Enter in the title moves on to the body, as people expect of a form.
        titleField.onActivate { [unowned self] in bodyField.grabFocus() }
        titleField.onChanged { [unowned self] in
            clear(.missingText)
            keepTitleOnOneLine()
        }
        bodyField.onChanged { [unowned self] in
            clear(.missingText)
            guard !countPending else { return }
            countPending = true
            MainLoop.whenIdle { [weak self] in self?.countWords() }
        }
        // For scripts/bench-typing.py: the moment the body hears a key, before GTK (and
        // spelling) handle it; the benchmark times from there to the frame that shows it.
        if Trace.enabled { bodyField.onKeyPressed(beforeChildren: true) { _, _ in Trace.mark("body key"); return false } }
        picker.onChange = { [unowned self] mood in if mood != nil { clear(.missingMood) } }
        datePicker.onChange = { [unowned self] in clear(.futureDate) }
    }

    private func countWords() {
        countPending = false
        let words = WordCount.of(bodyField.text)
        wordCount.text = words == 0 ? "" : WordCount.phrase(words)
    }

    private func fieldLabel(_ mnemonic: String, for field: Widget, namesWidget: Bool = true) -> Label {
        let label = Label()
        label.setMnemonic(mnemonic, for: field, namesWidget: namesWidget)
        label.addClass("field-label")
        label.alignStart()
        return label
    }

    // MARK: - Contents

    /// What the fields hold now, with `location` attached.
    func draft(location: Location?) -> EntryDraft {
        // A number's field that does not read as one is said at Save (`measuresRead`); until
        // then the draft carries the others (an edit's, when none reads, stay as they were).
        let values = try? measures.values.get()
        return EntryDraft(title: titleField.text, body: bodyField.text, mood: picker.mood, location: location, date: datePicker.date,
                          tagIDs: tags.selected, photos: photos.photos.isEmpty && !carriesPhotosExactly ? nil : photos.photos,
                          measures: values.flatMap { $0.isEmpty && !carriesPhotosExactly ? nil : $0 })
    }

    /// Whether every measure's field reads; if one does not, says so next to it and sends the
    /// keyboard there (Save then saves nothing, and keeps every field as it is).
    func measuresRead() -> Bool {
        switch measures.values {
        case .success: return true
        case .failure(let problem):
            measures.showProblem(problem)
            return false
        }
    }

    /// Whether the title and body are as a template left them in an empty form.
    var isTemplateFillUntouched: Bool {
        templateFill.map { $0.title == titleField.text && $0.body == bodyField.text } ?? false
    }

    /// Puts `template` in, as of now: an empty form (or one still as a template left it) takes
    /// all of it; a written one keeps every word, the template's body going in at the cursor.
    /// With `focus`, the keyboard goes to the body, where writing starts.
    func apply(_ template: EntryTemplate, model: JournalModel, focus: Bool = true) {
        let fill = TemplateFill(template, at: Date(), tags: model.tags, measures: model.measures)
        var form = draft(location: nil)
        if isTemplateFillUntouched { (form.title, form.body) = ("", "") }
        let (filled, cursor, inserted) = fill.applied(to: form, cursor: bodyField.cursorOffset)
        titleField.text = filled.title
        if let inserted {
            bodyField.insertAtCursor(inserted)
        } else {
            bodyField.text = filled.body
        }
        if let mood = filled.mood { picker.set(mood) }
        tags.set(filled.tagIDs)
        measures.set(filled.measures ?? [:])
        templateFill = inserted == nil ? (titleField.text, bodyField.text) : nil
        show([])
        if focus { _ = bodyField.grabFocus() }
        bodyField.placeCursor(at: cursor)
    }

    /// Shows `entry` for editing: its words, its mood, and its date as the date control's text.
    func fill(from entry: Entry) {
        titleField.text = entry.title
        bodyField.text = entry.body
        // An entry without a mood shows the picker's "select": it may be given one, or left without.
        if let mood = entry.mood { picker.set(mood) } else { picker.reset() }
        datePicker.reset(to: entry.createdAt)
        tags.set(entry.tagIDs)
        measures.set(entry.measures)
        photos.set(entry.photos)
        show([])
    }

    /// Shows a kept draft (the form's words when the journal was locked) as it was.
    func fill(from draft: EntryDraft) {
        titleField.text = draft.title
        bodyField.text = draft.body
        if let mood = draft.mood { picker.set(mood) } else { picker.reset() }
        datePicker.reset(to: draft.date)
        tags.set(draft.tagIDs)
        // An edit kept without photos keeps the entry's (filled before).
        if let kept = draft.photos { photos.set(kept) } else if !carriesPhotosExactly { photos.set([]) }
        if let kept = draft.measures { measures.set(kept) } else if !carriesPhotosExactly { measures.set([:]) }
        show([])
    }

    /// Takes photos dropped anywhere on `page`, and pasted with Ctrl+V while the keyboard is
    /// not in a text field (there, Ctrl+V pastes text).
    func takePhotos(on page: Widget) {
        page.onDropFiles { [unowned self] paths in
            guard isSensitive else { return false }
            photos.add(paths: paths)
            return true
        }
        page.onKeyPressed { [unowned self] key, modifiers in
            guard key.isLetter("v"), modifiers.meaningful == .control, isSensitive else { return false }
            photos.paste()
            return true
        }
    }

    /// Empty: title and body blank, mood back to "select" in #3687FF, the date back to "Now".
    func reset() {
        templateFill = nil
        titleField.text = ""
        bodyField.text = ""
        picker.reset()
        datePicker.reset(to: nil)
        tags.set([])
        measures.set([:])
        photos.set([])
        show([])
    }

    /// Locks or unlocks every field (while a save is on its way to disk).
    var isSensitive: Bool = true {
        didSet {
            for widget in [titleField, bodyField, picker.button, datePicker.button] as [Widget] { widget.isSensitive = isSensitive }
            tags.isSensitive = isSensitive
            measures.isSensitive = isSensitive
            photos.isSensitive = isSensitive
        }
    }

    // MARK: - Problems

    /// Says each problem next to its field (and to a screen reader); with `focusFirst`, sends the
    /// keyboard to the first thing to fix.
    func show(_ problems: [EntryDraft.Problem], focusFirst: Bool = true) {
        for problem in EntryDraft.Problem.allCases {
            let present = problems.contains(problem)
            let (label, fields) = widgets(for: problem)
            label.text = present ? problem.message : ""
            label.isVisible = present
            for field in fields {
                field.setAccessibleInvalid(present)
                field.setAccessibleDescription(present ? problem.message : "")
            }
            if problem == .missingMood { picker.problem = present ? problem.message : nil }
            if problem == .futureDate { datePicker.problem = present ? problem.message : nil }
        }
        guard focusFirst, let first = problems.first else { return }
        switch first {
        case .missingMood: picker.button.grabFocus()
        case .futureDate: datePicker.button.grabFocus()
        case .missingText: titleField.grabFocus()
        }
    }

    /// Takes back the message about `problem` once the person has fixed it.
    /// A title is one line: a paragraph pasted into it shows (and is saved) with spaces where
    /// its line breaks were, and the cursor stays after what was pasted.
    private func keepTitleOnOneLine() {
        let text = titleField.text
        guard text.contains(where: \.isNewline) else { return }
        let cursor = titleField.cursorPosition
        let fixed = EntryDraft.oneLineTitle(text)
        titleField.text = fixed
        // A CRLF became one space: the cursor (counted in scalars) moves back by as many as went.
        titleField.cursorPosition = max(0, cursor - (text.unicodeScalars.count - fixed.unicodeScalars.count))
    }

    private func clear(_ problem: EntryDraft.Problem) {
        guard widgets(for: problem).label.isVisible else { return }
        show(draft(location: nil).problems.filter { $0 != problem && widgets(for: $0).label.isVisible }, focusFirst: false)
    }

    private func widgets(for problem: EntryDraft.Problem) -> (label: Label, fields: [Widget]) {
        switch problem {
        case .missingMood: (moodError, [])
        case .futureDate: (dateError, [])
        case .missingText: (textError, [titleField, bodyField])
        }
    }
}
