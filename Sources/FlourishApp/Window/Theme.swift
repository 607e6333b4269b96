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
            css += ".insight-bar.\(moodClass(mood)), button.chart-point.\(moodClass(mood)), button.pixel.\(moodClass(mood)) { background-color: \(mood.hex); }\n"
        }
        // All four sides one colour (only the bottom has a width): the renderer's fast path.
        if dark { css += ".journal-row { border-color: #3d3935; }\n" }
        return css
    }
}

/// Finds files from `Resources/`: in a folder named by FLOURISH_RESOURCES, in `../share/flourish`
/// beside an installed binary, or in the source tree a development build was compiled from.
enum ResourceLocator {
    static func text(named name: String) -> String {
        if let path = path(named: name), let text = try? String(contentsOfFile: path, encoding: .utf8) { return text }
        // Unstyled is better than not starting; the warning says what to fix.
        FileHandle.standardError.write(Data("flourish: warning: resource \(name) not found; running unstyled\n".utf8))
        return ""
    }

    /// The first candidate folder's copy of `name`.
    static func path(named name: String) -> String? {
        for folder in candidateFolders {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isReadableFile(atPath: path) {
                Trace.once("resources from \(folder)")
                return path
            }
        }
        return nil
    }

    static var candidateFolders: [String] {
        var folders: [String] = []
        if let override = ProcessInfo.processInfo.environment["FLOURISH_RESOURCES"] { folders.append(override) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let binFolder = executable.deletingLastPathComponent()
        folders.append(binFolder.appendingPathComponent("../share/flourish").standardized.path)
        // Sources/FlourishApp/Window/Theme.swift -> Resources/, for `swift run` and `swift test`.
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Resources").standardized
        folders.append(sourceTree.path)
        return folders
    }
}
