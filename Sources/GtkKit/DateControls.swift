import CGtk

/// GtkCalendar: a month of days to pick one from.
public final class Calendar: Widget {
    public init() { super.init(gtk_calendar_new()) }

    private var calendar: OpaquePointer { OpaquePointer(raw) }

    /// The selected day as (year, month 1–12, day 1–31).
    public var day: (year: Int, month: Int, day: Int) {
        get {
            let date = gtk_calendar_get_date(calendar)
            defer { g_date_time_unref(date) }
            return (Int(g_date_time_get_year(date)), Int(g_date_time_get_month(date)), Int(g_date_time_get_day_of_month(date)))
        }
        set {
            guard let date = g_date_time_new_local(Int32(newValue.year), Int32(newValue.month), Int32(newValue.day), 12, 0, 0) else { return }
            defer { g_date_time_unref(date) }
            gtk_calendar_select_day(calendar, date)
        }
    }

    /// Called when the person (or code) selects a day.
    public func onDaySelected(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "day-selected", action)
    }
}

/// GtkSpinButton over whole numbers, such as an hour or a minute.
public final class SpinButton: Widget {
    public init(from minimum: Int, to maximum: Int) {
        super.init(gtk_spin_button_new_with_range(Double(minimum), Double(maximum), 1))
        gtk_spin_button_set_numeric(spin, 1)
        gtk_spin_button_set_wrap(spin, 1)
        gtk_editable_set_width_chars(OpaquePointer(raw), 2)
    }

    private var spin: OpaquePointer { OpaquePointer(raw) }

    public var value: Int {
        get { Int(gtk_spin_button_get_value_as_int(spin)) }
        set { gtk_spin_button_set_value(spin, Double(newValue)) }
    }

    public func onValueChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(pointer, "value-changed", action)
    }

    /// The number as shown.
    public var text: String { String(cString: gtk_editable_get_text(spin)) }

    /// Shows the number with two digits ("05"), as a minute is written.
    public func showsLeadingZeros() {
        Signal.connectReturning(pointer, "output") { [unowned self] in
            gtk_editable_set_text(spin, String(format: "%02d", value))
            return true
        }
    }
}
