import CGtk

/// A GtkDrawingArea: drawn by a Swift closure (`onDraw`), through a `Painter`, whenever GTK
/// paints it (at its new size after a resize, and after `redraw`).
public final class Canvas: Widget {
    public typealias Draw = @MainActor (Painter, _ width: Double, _ height: Double) -> Void

    public init() {
        super.init(gtk_drawing_area_new())
    }

    /// Draws the canvas with `draw` from now on.
    public func onDraw(_ draw: @escaping Draw) {
        let box = Unmanaged.passRetained(SignalBox<Draw>(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(typed(raw), { _, context, width, height, data in
            guard let context, let data else { return }
            let draw = Unmanaged<SignalBox<Draw>>.fromOpaque(data).takeUnretainedValue().handler
            nonisolated(unsafe) let cairo = context
            MainActor.assumeIsolated { draw(Painter(cairo), Double(width), Double(height)) }
        }, box, { data in
            guard let data else { return }
            Unmanaged<SignalBox<Draw>>.fromOpaque(data).release()
        })
    }

    /// Calls `action` with the canvas's new size each time it changes (during layout: change
    /// nothing that would need another layout from there).
    public func onResize(_ action: @escaping @MainActor (_ width: Int, _ height: Int) -> Void) {
        Signal.connectSize(pointer, "resize") { width, height in action(Int(width), Int(height)) }
    }

    /// Paints it again (its figures changed).
    public func redraw() { gtk_widget_queue_draw(raw) }

    /// The theme's text colour where the canvas is: light on dark, dark on light.
    public var foreground: (red: Double, green: Double, blue: Double) {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(raw), &color)
        return (Double(color.red), Double(color.green), Double(color.blue))
    }
}

/// Cairo, for the few strokes a chart needs. Valid only inside the draw closure it is given to.
@MainActor
public struct Painter {
    private let cairo: OpaquePointer

    init(_ cairo: OpaquePointer) { self.cairo = cairo }

    public func setColor(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        cairo_set_source_rgba(cairo, red, green, blue, alpha)
    }

    public func setLineWidth(_ width: Double) { cairo_set_line_width(cairo, width) }

    /// Dashes of `length` with gaps as long; nil for a solid line.
    public func setDash(_ length: Double?) {
        if var length {
            cairo_set_dash(cairo, &length, 1, 0)
        } else {
            cairo_set_dash(cairo, nil, 0, 0)
        }
    }

    public func move(to x: Double, _ y: Double) { cairo_move_to(cairo, x, y) }
    public func line(to x: Double, _ y: Double) { cairo_line_to(cairo, x, y) }
    public func stroke() { cairo_stroke(cairo) }
}
