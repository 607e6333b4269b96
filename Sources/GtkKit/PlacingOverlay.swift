import CGtk

/// A GtkOverlay whose floating children sit where they are told, as fractions of the main
/// child's area inside an inset: a chart's points over the canvas that draws its lines. GTK
/// asks where each child goes as it lays the overlay out ("get-child-position"), so the points
/// follow every resize in the same pass, with no layout queued from inside a layout.
public final class PlacingOverlay: Widget {
    /// The margin, in pixels, between the overlay's edges and the area the fractions span.
    public let inset: Double
    private var places: [UnsafeMutableRawPointer: (x: Double, y: Double)] = [:]

    public init(child: Widget, inset: Double) {
        self.inset = inset
        super.init(gtk_overlay_new())
        gtk_overlay_set_child(OpaquePointer(raw), child.raw)
        // Weakly: GTK may lay the overlay out after its Swift handle is gone (then children go
        // where GTK puts them). The box is released with the connection.
        let box = Unmanaged.passRetained(WeakOverlay(self)).toOpaque()
        g_signal_connect_data(raw, "get-child-position", unsafeBitCast(placeTrampoline, to: GCallback.self), box, { data, _ in
            guard let data else { return }
            Unmanaged<WeakOverlay>.fromOpaque(data).release()
        }, GConnectFlags(rawValue: 0))
    }

    /// Where fraction (x, y) of the inset area falls in a canvas of this size: for drawing lines
    /// that meet the placed children.
    public func point(x: Double, y: Double, width: Double, height: Double) -> (x: Double, y: Double) {
        (inset + x * max(0, width - 2 * inset), inset + y * max(0, height - 2 * inset))
    }

    /// Adds `child`, centred on fraction (x, y) of the inset area (0, 0 is the top left).
    public func place(_ child: Widget, x: Double, y: Double) {
        places[child.pointer] = (x, y)
        gtk_overlay_add_overlay(OpaquePointer(raw), child.raw)
    }

    /// Moves a placed child to fraction (x, y).
    public func move(_ child: Widget, x: Double, y: Double) {
        guard let was = places[child.pointer], was != (x, y) else { return }
        places[child.pointer] = (x, y)
        gtk_widget_queue_allocate(raw)
    }

    fileprivate func rectangle(for child: UnsafeMutablePointer<GtkWidget>) -> GdkRectangle? {
        guard let (x, y) = places[UnsafeMutableRawPointer(child)] else { return nil }
        var minimum = GtkRequisition(), natural = GtkRequisition()
        gtk_widget_get_preferred_size(child, &minimum, &natural)
        let centre = point(x: x, y: y, width: Double(gtk_widget_get_width(raw)), height: Double(gtk_widget_get_height(raw)))
        return GdkRectangle(x: Int32((centre.x - Double(natural.width) / 2).rounded()), y: Int32((centre.y - Double(natural.height) / 2).rounded()),
                            width: natural.width, height: natural.height)
    }
}

@MainActor
private final class WeakOverlay {
    weak var overlay: PlacingOverlay?
    init(_ overlay: PlacingOverlay) { self.overlay = overlay }
}

private let placeTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?, UnsafeMutableRawPointer?) -> gboolean = { _, child, allocation, data in
    guard let child, let allocation, let data else { return 0 }
    nonisolated(unsafe) let (widget, out) = (child, allocation)
    let box = Unmanaged<WeakOverlay>.fromOpaque(data).takeUnretainedValue()
    return MainActor.assumeIsolated {
        guard let rectangle = box.overlay?.rectangle(for: widget) else { return 0 }
        out.pointee = rectangle
        return 1
    }
}
