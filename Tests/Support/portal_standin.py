#!/usr/bin/python3
"""A stand-in for the desktop's settings portal (org.freedesktop.portal.Settings) on the session
bus, publishing the freedesktop appearance setting.

    portal_standin.py SCHEME      (0 no preference, 1 prefer dark, 2 prefer light)

Prints "ready" once it owns org.freedesktop.portal.Desktop. Each line read on stdin is a new
scheme: the setting changes and SettingChanged is emitted, as when the person flips the
desktop's style.
"""

import sys

from gi.repository import Gio, GLib

INTROSPECTION = """
<node>
  <interface name="org.freedesktop.portal.Settings">
    <method name="Read">
      <arg name="namespace" type="s" direction="in"/>
      <arg name="key" type="s" direction="in"/>
      <arg name="value" type="v" direction="out"/>
    </method>
    <method name="ReadAll">
      <arg name="namespaces" type="as" direction="in"/>
      <arg name="value" type="a{sa{sv}}" direction="out"/>
    </method>
    <signal name="SettingChanged">
      <arg name="namespace" type="s"/>
      <arg name="key" type="s"/>
      <arg name="value" type="v"/>
    </signal>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.Settings"


def main():
    scheme = [int(sys.argv[1])]
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)

    def call(conn, sender, path, interface, method, parameters, invocation):
        namespace, key = (parameters.unpack() + ("", ""))[:2] if method == "Read" else ("", "")
        if method == "Read" and (namespace, key) == ("org.freedesktop.appearance", "color-scheme"):
            # The real portal's Read wraps the value in a second variant.
            invocation.return_value(GLib.Variant("(v)", (GLib.Variant("v", GLib.Variant("u", scheme[0])),)))
        elif method == "ReadAll":
            invocation.return_value(GLib.Variant("(a{sa{sv}})", (
                {"org.freedesktop.appearance": {"color-scheme": GLib.Variant("u", scheme[0])}},)))
        else:
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "Requested setting not found")

    def get(conn, sender, path, interface, name):
        return GLib.Variant("u", 1)

    connection.register_object(PATH, node.interfaces[0], call, get, None)

    def stdin_line(channel, condition):
        line = sys.stdin.readline()
        if not line:
            print("standard input closed", file=sys.stderr, flush=True)
            loop.quit()
            return False
        scheme[0] = int(line)
        connection.emit_signal(None, PATH, INTERFACE, "SettingChanged",
                               GLib.Variant("(ssv)", ("org.freedesktop.appearance", "color-scheme",
                                                      GLib.Variant("u", scheme[0]))))
        connection.flush_sync(None)
        return True

    loop = GLib.MainLoop()
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP,
                      stdin_line)
    def lost(conn, name):
        print(f"could not own {name}", file=sys.stderr, flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(connection, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE,
                                   lambda c, n: print("ready", flush=True), lost)
    loop.run()


if __name__ == "__main__":
    main()
