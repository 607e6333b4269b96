import Foundation

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
        // Sources/FlourishApp/Window/ResourceLocator.swift -> Resources/, for `swift run` and `swift test`.
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Resources").standardized
        folders.append(sourceTree.path)
        return folders
    }
}
