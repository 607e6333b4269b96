import Foundation

/// A photo as an entry carries it: which stored photo (`id`, the name of its file among the
/// journal's photos) and the name the person's file had ("IMG_2041.jpg"), said by screen readers
/// and used when the photo is written out again.
public struct EntryPhoto: Sendable, Hashable, Codable {
    public let id: String
    public let fileName: String

    public init(id: String, fileName: String) {
        self.id = id
        self.fileName = fileName
    }

    /// Several photos as one line of text, for a column that keeps a list (a kept draft, an
    /// earlier version): each photo "id/name", separated by line feeds (a file name holds neither
    /// a slash nor a line feed; an id is hexadecimal).
    static func text(_ photos: [EntryPhoto]) -> String {
        photos.map { "\($0.id)/\($0.fileName)" }.joined(separator: "\n")
    }

    /// The photos `text(_:)` wrote; a line that does not read as one is left out.
    static func list(_ text: String) -> [EntryPhoto] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, PhotoName.isValid(String(parts[0])) else { return nil }
            return EntryPhoto(id: String(parts[0]), fileName: String(parts[1]))
        }
    }
}
