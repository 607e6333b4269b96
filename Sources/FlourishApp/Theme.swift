import FlourishCore
import Foundation
import GtkKit

/// Loads Flourish's stylesheet and the mood colours, once per process.
@MainActor
enum Theme {
    private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        Style.install(css: ResourceLocator.text(named: "flourish.css") + "\n" + moodCSS)
    }

    /// CSS class naming a mood's colour: `mood-0` (the best) … `mood-5` (the worst).
    static func moodClass(_ mood: Mood) -> String { "mood-\(mood.rawValue)" }
    static let promptClass = "mood-prompt"

    /// One rule set per mood, from the catalogue: text colour for buttons, border for rows.
    static var moodCSS: String {
        var css = ".\(promptClass) { color: \(MoodPrompt.hex); }\n"
        for mood in Mood.catalogue {
            css += ".\(moodClass(mood)):not(.journal-row) { color: \(mood.hex); }\n"
            css += ".journal-row.\(moodClass(mood)) { border-left-color: \(mood.hex); }\n"
        }
        return css
    }
}

/// Finds files from `Resources/`: in a folder named by FLOURISH_RESOURCES, in `../share/flourish`
/// beside an installed binary, or in the source tree a development build was compiled from.
enum ResourceLocator {
    static func text(named name: String) -> String {
        for folder in candidateFolders {
            let path = (folder as NSString).appendingPathComponent(name)
            if let text = try? String(contentsOfFile: path, encoding: .utf8) { return text }
        }
        // Unstyled is better than not starting; the warning says what to fix.
        FileHandle.standardError.write(Data("flourish: warning: resource \(name) not found; running unstyled\n".utf8))
        return ""
    }

    static var candidateFolders: [String] {
        var folders: [String] = []
        if let override = ProcessInfo.processInfo.environment["FLOURISH_RESOURCES"] { folders.append(override) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let binFolder = executable.deletingLastPathComponent()
        folders.append(binFolder.appendingPathComponent("../share/flourish").standardized.path)
        // Sources/FlourishApp/Theme.swift -> Resources/, for `swift run` and `swift test`.
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources").standardized
        folders.append(sourceTree.path)
        return folders
    }
}
