import Foundation

/// The names photos get in an export, one per photo: its own file name ("IMG_2041.jpg") the
/// first time, and for another photo of the same name the first 8 digits of its id before it
/// ("3fa2b1c0-IMG_2041.jpg"). Names are compared without case: unpacked on a disk that does not
/// tell "a.jpg" from "A.JPG", two photos must not land on one file. A photo carried by several
/// entries has one name and is written once.
///
/// Names are given in the order the export meets the photos (entries oldest first), so the JSON
/// and the ZIP export of one journal name its photos alike.
struct ExportPhotoNames {
    private var byID: [String: String] = [:]
    private var taken: Set<String> = []

    /// The photo's name in this export, and whether this is the first time it is met (its bytes
    /// are then to be written).
    mutating func name(of photo: EntryPhoto) -> (name: String, isNew: Bool) {
        if let name = byID[photo.id] { return (name, false) }
        let base = Self.safe(photo.fileName)
        var name = base
        for candidate in ["\(photo.id.prefix(8))-\(base)", "\(photo.id)-\(base)"] where taken.contains(name.lowercased()) {
            name = candidate
        }
        // Only a photo whose file was named after another's id gets here.
        var number = 2
        while taken.contains(name.lowercased()) {
            name = "\(photo.id)-\(number)-\(base)"
            number += 1
        }
        taken.insert(name.lowercased())
        byID[photo.id] = name
        return (name, true)
    }

    /// Distinct photos named so far.
    var count: Int { byID.count }

    /// `fileName` as one file name that is safe in any folder and ZIP file: no slash or control
    /// character, no leading dot (a hidden file, or "..": a step out of the folder), at most 120
    /// bytes (file names stop at 255) keeping its ending; "photo" when nothing is left.
    static func safe(_ fileName: String) -> String {
        var name = String(fileName.unicodeScalars.map { scalar -> Character in
            scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control ? "_" : Character(scalar)
        })
        name = String(name.drop { $0 == "." || $0.isWhitespace }).trimmingCharacters(in: .whitespaces)
        if name.utf8.count > 120 {
            let ending = (name as NSString).pathExtension
            let suffix = ending.isEmpty || ending.utf8.count > 10 ? "" : "." + ending
            var stem = suffix.isEmpty ? name : String(name.dropLast(suffix.count))
            while stem.utf8.count + suffix.utf8.count > 120 { stem.removeLast() }
            name = stem + suffix
        }
        return name.isEmpty || name == "." ? "photo" : name
    }

    /// A relative path as a Markdown link's destination: each part percent-encoded, so that
    /// spaces and brackets in a file name do not end the link.
    static func markdownLink(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// A file name as a Markdown image's text: brackets and backslashes escaped.
    static func markdownText(_ name: String) -> String {
        name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
    }
}
