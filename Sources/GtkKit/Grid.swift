import CGtk

/// GtkGrid: children in rows and columns (the year in pixels: a month a row, a day a column).
public final class Grid: Widget {
    public init(rowSpacing: Int32 = 0, columnSpacing: Int32 = 0) {
        super.init(gtk_grid_new())
        gtk_grid_set_row_spacing(typed(raw), UInt32(rowSpacing))
        gtk_grid_set_column_spacing(typed(raw), UInt32(columnSpacing))
    }

    public func attach(_ child: Widget, column: Int, row: Int) {
        gtk_grid_attach(typed(raw), child.raw, Int32(column), Int32(row), 1, 1)
    }
}
