"""A small GTK 4 window that offers files for dragging, as a file manager does: the photo journey
drags pictures from it onto Flourish's form with the real pointer (xdotool), through X's own
drag-and-drop protocol. Usage: drag_source.py TITLE PATH..."""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GObject, Gtk  # noqa: E402


def main():
    title, paths = sys.argv[1], sys.argv[2:]
    app = Gtk.Application(application_id=None, flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title=title)
        window.set_default_size(300, 200)
        label = Gtk.Label(label="Drag these photos")
        files = Gdk.FileList.new_from_array([Gio.File.new_for_path(path) for path in paths])
        source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
        source.set_content(Gdk.ContentProvider.new_for_value(GObject.Value(Gdk.FileList, files)))
        label.add_controller(source)
        window.set_child(label)
        window.present()

    app.connect("activate", activate)
    app.run([sys.argv[0]])


if __name__ == "__main__":
    main()
