import CGtk
import Foundation

/// A modal GtkMessageDialog over a window: a title, a message and a row of buttons.
public final class MessageDialog: Widget {
    public struct Choice {
        public let label: String
        public let response: Int32
        /// Styled as GNOME styles an action that loses something (red).
        public let destructive: Bool
        public init(_ label: String, response: Int32, destructive: Bool = false) {
            self.label = label
            self.response = response
            self.destructive = destructive
        }
    }

    /// GTK's response when the dialog is closed by Escape or the window manager.
    public static let dismissed: Int32 = GTK_RESPONSE_DELETE_EVENT.rawValue

    public let title: String
    public let message: String
    /// Held so the parent outlives the dialog: a dialog disposed after its transient parent was
    /// finalized touches the dead parent.
    private let parent: Window

    public init(parent: Window, title: String, message: String, choices: [Choice], defaultResponse: Int32) {
        self.title = title
        self.message = message
        self.parent = parent
        super.init(flourish_message_dialog_new(typed(parent.raw), title, message))
        for choice in choices {
            // Dialog buttons take mnemonics ("_Retry" gives Alt+R); the spoken name has no underscore.
            let button = gtk_dialog_add_button(typed(raw), choice.label, choice.response)
            gtk_accessible_reset_relation(OpaquePointer(button), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
            if choice.destructive { gtk_widget_add_css_class(button, "destructive-action") }
            flourish_accessible_set_label(button, choice.label.replacingOccurrences(of: "_", with: ""))
        }
        gtk_dialog_set_default_response(typed(raw), defaultResponse)
    }

    /// Called once with the chosen response; the dialog is destroyed as soon as the `response`
    /// emission is over. (Destroying it inside its own emission leaves GTK touching a finalized
    /// object; hiding it first and destroying it later leaves a pending layout on a dead window.)
    public func onResponse(_ action: @escaping @MainActor (Int32) -> Void) {
        // Strong on purpose: the handle (and through it the parent) lives while the dialog can
        // still answer, whoever else lets go of it. Destroying the dialog drops this handler,
        // which ends the cycle; the dialog is then finalized before its parent.
        Signal.connectResponse(pointer, "response", { [self] response in
            let handle = self
            MainLoop.after(milliseconds: 0) {
                gtk_window_destroy(typed(handle.raw))
            }
            action(response)
        })
    }

    public func present() {
        gtk_window_present(typed(raw))
        if let button = gtk_dialog_get_widget_for_response(typed(raw), defaultResponse(of: raw)) {
            gtk_widget_grab_focus(button)
        }
    }

    /// The real button for a response, for keyboard-less checks in tests.
    public func button(for response: Int32) -> Button? {
        gtk_dialog_get_widget_for_response(typed(raw), response).map { Button(existing: $0) }
    }

    /// The labels of the buttons, left to right.
    public var buttonLabels: [String] {
        guard let area = gtk_dialog_get_widget_for_response(typed(raw), defaultResponse(of: raw))
            .flatMap({ gtk_widget_get_parent($0) }) else { return [] }
        var labels: [String] = []
        var child = gtk_widget_get_first_child(area)
        while let current = child {
            if let label = gtk_button_get_label(typed(current)) { labels.append(String(cString: label)) }
            child = gtk_widget_get_next_sibling(current)
        }
        return labels
    }

    public var isShowing: Bool { isVisible && isMapped }
}

private func defaultResponse(of dialog: UnsafeMutablePointer<GtkWidget>) -> Int32 {
    // GTK 4.8 has no getter; the default widget of the window is the default response's button.
    guard let widget = gtk_window_get_default_widget(typed(dialog)) else { return GTK_RESPONSE_OK.rawValue }
    return gtk_dialog_get_response_for_widget(typed(dialog), widget)
}
