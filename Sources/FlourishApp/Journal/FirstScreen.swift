/// The first showing of the Journal page lays out only what a window can show.
///
/// GTK 4.8's grid view builds about 30 rows at once, whatever the window's height, and measures
/// each before it paints; with bodies of a few lines that is most of the first frame's time.
/// While the page paints for the first time, rows below what the window could show are bound
/// as placeholders; once that frame is painted, they are filled in (still off screen).
@MainActor
final class FirstScreen {
    /// Shorter than any row can be (a title line and the date line, with padding): with it, the
    /// rows a window can show are counted generously.
    static let shortestRow = 60

    /// Rows at or past this position wait; nil outside a first showing.
    private(set) var limit: Int?

    func begin(windowHeight: Int) {
        // Before the window has a size, nothing is known: every row is laid out.
        limit = windowHeight > 0 ? windowHeight / Self.shortestRow + 2 : nil
    }

    func end() { limit = nil }

    /// Whether the row at `position` is bound as a placeholder for now.
    func waits(_ position: Int) -> Bool {
        guard let limit else { return false }
        return position >= limit
    }
}
