import FlourishCore
import Foundation
import GtkKit

/// Loads Flourish's stylesheet and the mood colours, light or dark.
@MainActor
enum Theme {
    private static var installed: Bool?
    private static var stylesheet: String?

    /// Installs the styles once; later calls keep the current light or dark variant.
    static func install() {
        if installed == nil { apply(dark: Toolkit.prefersDark) }
    }

    /// Installs the light or the dark variant (the mood colours lightened for dark backgrounds).
    static func apply(dark: Bool) {
        guard installed != dark else { return }
        installed = dark
        let css = stylesheet ?? ResourceLocator.text(named: "flourish.css")
        stylesheet = css
        Style.install(css: css + "\n" + moodCSS(dark: dark))
    }

    static var isDark: Bool { installed ?? false }

    /// CSS class naming a mood's colour: `mood-0` (the best) … `mood-5` (the worst).
    static func moodClass(_ mood: Mood) -> String { "mood-\(mood.rawValue)" }
    static let promptClass = "mood-prompt"
    /// An entry without a mood: a neutral edge, never one of the six colours.
    static let noMoodClass = "no-mood"

    /// Gives `widget` the class of `mood` (none for nil) in place of `old`'s, touching its
    /// classes only when the mood changed: a chart restyles hundreds of points and days.
    static func replaceMoodClass(on widget: Widget, _ old: Mood?, with mood: Mood?) {
        guard old != mood else { return }
        if let old { widget.removeClass(moodClass(old)) }
        if let mood { widget.addClass(moodClass(mood)) }
    }

    /// One rule set per mood, from the catalogue: text colour for buttons, the left edge for rows.
    static var moodCSS: String { moodCSS(dark: false) }

    /// On a dark background the seeds' colours are too dim to read as text, so they are lightened
    /// with the seeds' own `lighten` (brightness × 1.5); row edges keep the true colour.
    static func moodCSS(dark: Bool) -> String {
        let prompt = dark ? ((try? RGBAColor(hex: MoodPrompt.hex).lightened().hex) ?? MoodPrompt.hex) : MoodPrompt.hex
        var css = ".\(promptClass) { color: \(prompt); }\n"
        for mood in Mood.catalogue {
            let text = dark ? mood.color.lightened().hex : mood.hex
            css += ".\(moodClass(mood)):not(.journal-row) { color: \(text); }\n"
            css += ".journal-row.\(moodClass(mood)) { box-shadow: inset 8px 0 \(mood.hex); }\n"
            css += "button.memory.\(moodClass(mood)) { box-shadow: inset 4px 0 \(mood.hex); }\n"
            css += ".insight-bar.\(moodClass(mood)), button.chart-point.\(moodClass(mood)), button.pixel.\(moodClass(mood)) { background-color: \(mood.hex); }\n"
        }
        css += ".journal-row.\(noMoodClass) { box-shadow: inset 8px 0 alpha(currentColor, 0.22); }\n"
        css += "button.memory.\(noMoodClass) { box-shadow: inset 4px 0 alpha(currentColor, 0.22); }\n"
        // All four sides one colour (only the bottom has a width): the renderer's fast path.
        if dark { css += ".journal-row { border-color: #3d3935; }\n" }
        return css
    }
}
