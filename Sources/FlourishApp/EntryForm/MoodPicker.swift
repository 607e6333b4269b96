import FlourishCore
import GtkKit

/// The seeds' mood dropdown, as a desktop popover: a button reading "select" in #3687FF that
/// opens a popover of the six moods, each in its colour. Choosing one sets the button's text,
/// colour and value and closes the popover.
@MainActor
final class MoodPicker {
    /// The button on the form. A screen reader calls it "Mood" and reads its text as the description.
    let button = Button(MoodPrompt.title)
    /// The six choices, best first, named by their titles.
    let choices: [Button]
    let popover: Popover

    /// Called whenever the chosen mood changes (including back to nil on reset).
    var onChange: (@MainActor (Mood?) -> Void)?

    private(set) var mood: Mood?
    private var closing = false
    /// Counts closes, so that the timer of an earlier close (reopened meanwhile) does nothing.
    private var closeGeneration = 0

    /// What is wrong with the mood, if anything; a screen reader hears it after the button's text.
    var problem: String? {
        didSet { describe() }
    }

    /// How long the seeds' fade and slide take, in milliseconds.
    static let animationMilliseconds: UInt32 = 300

    init() {
        let list = Box(.vertical, spacing: 2)
        list.setMargins(6)
        choices = Mood.catalogue.map { mood in
            let choice = Button(mood.title)
            choice.addClass("flat")
            choice.addClass("mood-choice")
            choice.addClass(Theme.moodClass(mood))
            list.append(choice)
            return choice
        }
        popover = Popover(attachedTo: button, child: list)
        popover.addClass("mood-picker")
        button.addClass("mood-button")
        button.accessibleName = tr("Mood")
        button.tooltip = tr("Choose how you feel")

        button.onClicked { [unowned self] in toggle() }
        for (mood, choice) in zip(Mood.catalogue, choices) {
            choice.onClicked { [unowned self] in choose(mood) }
        }
        popover.onEscape { [unowned self] in
            close()
            return true
        }
        popover.onClosed { [unowned self] in
            closing = false
            popover.removeClass("opening")
            popover.removeClass("closing")
        }
        show(nil)
    }

    // MARK: - Opening and closing

    /// The seeds' `togglePicker`.
    func toggle() {
        popover.isOpen && !closing ? close() : open()
    }

    func open() {
        closing = false
        popover.removeClass("closing")
        popover.addClass("opening")
        popover.open()
        // Keyboard users land on the current mood, or on the first.
        choices[mood?.rawValue ?? 0].grabFocus()
    }

    /// Fades out and slides up, then hides; at once when the desktop turns animations off.
    func close() {
        guard popover.isOpen, !closing else { return }
        guard popover.animationsEnabled else {
            popover.close()
            return
        }
        closing = true
        closeGeneration += 1
        let generation = closeGeneration
        popover.removeClass("opening")
        popover.addClass("closing")
        MainLoop.after(milliseconds: Self.animationMilliseconds) { [weak self] in
            guard let self, closing, generation == closeGeneration else { return }
            popover.close()
        }
    }

    // MARK: - Value

    /// The seeds' `setMood`: takes the chosen mood's title and colour, and closes the picker.
    func choose(_ mood: Mood) {
        show(mood)
        close()
        onChange?(mood)
    }

    /// Shows `mood` as chosen, without opening the picker (an entry opened for editing).
    func set(_ mood: Mood) {
        show(mood)
        onChange?(mood)
    }

    /// Back to "select" in #3687FF, as after a save.
    func reset() {
        show(nil)
        onChange?(nil)
    }

    private func show(_ mood: Mood?) {
        self.mood = mood
        for other in Mood.catalogue { button.removeClass(Theme.moodClass(other)) }
        button.removeClass(Theme.promptClass)
        button.addClass(mood.map(Theme.moodClass) ?? Theme.promptClass)
        button.label = mood?.title ?? MoodPrompt.title
        describe()
    }

    private func describe() {
        button.setAccessibleDescription([button.label, problem].compactMap { $0 }.joined(separator: ". "))
        button.setAccessibleInvalid(problem != nil)
    }
}
