"""A small GTK 4 window that offers files for dragging, as a file manager does: the photo journey
drags pictures from it onto Flourish's form with the real pointer (xdotool), through X's own
drag-and-drop protocol. Usage: drag_source.py TITLE PATH...

It says on standard output, a line each, what the journey waits for before its next step: "shown"
(its first frame is painted, so a press lands on the label), "begun" (the pointer moved far enough
for a drag), "accepted" (the window under the pointer answered that it takes the files), then
"finished" (the window dropped on has read them: only then may this one go) or "cancelled"."""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GObject, Gtk  # noqa: E402


def say(words):
    print(words, flush=True)


def main():
    title, paths = sys.argv[1], sys.argv[2:]
    app = Gtk.Application(application_id=None, flags=Gio.ApplicationFlags.NON_UNIQUE)

    def begun(source, drag):
        say("begun")

        def action_changed(drag, _):
            if drag.get_selected_action() != 0:
                say("accepted")
        drag.connect("notify::selected-action", action_changed)
        drag.connect("dnd-finished", lambda drag: say("finished"))
        drag.connect("cancel", lambda drag, reason: say(f"cancelled {reason.value_nick}"))

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title=title)
        window.set_default_size(300, 200)
        label = Gtk.Label(label="Drag these photos")
        files = Gdk.FileList.new_from_array([Gio.File.new_for_path(path) for path in paths])
        source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
        source.set_content(Gdk.ContentProvider.new_for_value(GObject.Value(Gdk.FileList, files)))
        source.connect("drag-begin", begun)
        label.add_controller(source)
        window.set_child(label)

        def realized(window):
            clock = window.get_frame_clock()
            handler = None

            def painted(clock):
                clock.disconnect(handler)
                say("shown")
            handler = clock.connect("after-paint", painted)
        window.connect("realize", realized)
        window.present()

    app.connect("activate", activate)
    app.run([sys.argv[0]])


if __name__ == "__main__":
    main()
