#!/usr/bin/python3
"""A stand-in for GeoClue 2 on a private bus, answering the real D-Bus calls Flourish makes.

    geoclue_standin.py --mode fix|deny|silent --log CALLS.txt [--latitude D --longitude D --accuracy D]

Connects to $DBUS_SYSTEM_BUS_ADDRESS (a private bus the tests start), owns
org.freedesktop.GeoClue2, prints "ready" once it does, and appends one line per method call it
receives to the log ("GetClient", "Set DesktopId", "Start", ...), so tests can tell what was asked.

- fix: GetClient, the property sets and Start succeed; 200 ms after Start, LocationUpdated names
  a Location whose Latitude, Longitude and Accuracy are those given.
- deny: Start fails with org.freedesktop.DBus.Error.AccessDenied, as GeoClue does when its agent
  or configuration refuses the application.
- silent: everything succeeds but no location ever comes.
- fix-then-stale: as fix, then a second LocationUpdated names a Location object that no longer
  exists (GeoClue frees old Location objects; a client can lose that race).
"""

import argparse
import os
import sys

from gi.repository import Gio, GLib

INTROSPECTION = """
<node>
  <interface name="org.freedesktop.GeoClue2.Manager">
    <method name="GetClient"><arg name="client" type="o" direction="out"/></method>
    <method name="CreateClient"><arg name="client" type="o" direction="out"/></method>
  </interface>
  <interface name="org.freedesktop.GeoClue2.Client">
    <method name="Start"/>
    <method name="Stop"/>
    <property name="Location" type="o" access="read"/>
    <property name="DesktopId" type="s" access="readwrite"/>
    <property name="RequestedAccuracyLevel" type="u" access="readwrite"/>
    <property name="DistanceThreshold" type="u" access="readwrite"/>
    <property name="TimeThreshold" type="u" access="readwrite"/>
    <property name="Active" type="b" access="read"/>
    <signal name="LocationUpdated">
      <arg name="old" type="o"/>
      <arg name="new" type="o"/>
    </signal>
  </interface>
  <interface name="org.freedesktop.GeoClue2.Location">
    <property name="Latitude" type="d" access="read"/>
    <property name="Longitude" type="d" access="read"/>
    <property name="Accuracy" type="d" access="read"/>
    <property name="Altitude" type="d" access="read"/>
    <property name="Speed" type="d" access="read"/>
    <property name="Heading" type="d" access="read"/>
    <property name="Description" type="s" access="read"/>
    <property name="Timestamp" type="(tt)" access="read"/>
  </interface>
</node>
"""

MANAGER = "/org/freedesktop/GeoClue2/Manager"
CLIENT = "/org/freedesktop/GeoClue2/Client/1"
LOCATION = "/org/freedesktop/GeoClue2/Location/1"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["fix", "deny", "silent", "fix-then-stale"], required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--latitude", type=float, default=52.5200)
    parser.add_argument("--longitude", type=float, default=13.4050)
    parser.add_argument("--accuracy", type=float, default=50.0)
    options = parser.parse_args()

    node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
    interfaces = {info.name: info for info in node.interfaces}
    client_properties = {"DesktopId": GLib.Variant("s", ""), "RequestedAccuracyLevel": GLib.Variant("u", 0),
                         "DistanceThreshold": GLib.Variant("u", 0), "TimeThreshold": GLib.Variant("u", 0),
                         "Active": GLib.Variant("b", False), "Location": GLib.Variant("o", "/")}
    location_properties = {"Latitude": GLib.Variant("d", options.latitude),
                           "Longitude": GLib.Variant("d", options.longitude),
                           "Accuracy": GLib.Variant("d", options.accuracy),
                           "Altitude": GLib.Variant("d", -1.7976931348623157e308),
                           "Speed": GLib.Variant("d", -1.0), "Heading": GLib.Variant("d", -1.0),
                           "Description": GLib.Variant("s", ""), "Timestamp": GLib.Variant("(tt)", (0, 0))}

    def log(line):
        with open(options.log, "a") as file:
            file.write(line + "\n")

    address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
    connection = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)

    def manager_call(conn, sender, path, interface, method, parameters, invocation):
        log(method)
        invocation.return_value(GLib.Variant("(o)", (CLIENT,)))

    def emit_location():
        client_properties["Location"] = GLib.Variant("o", LOCATION)
        connection.emit_signal(None, CLIENT, "org.freedesktop.GeoClue2.Client", "LocationUpdated",
                               GLib.Variant("(oo)", ("/", LOCATION)))
        if options.mode == "fix-then-stale":
            GLib.timeout_add(200, emit_stale_location)
        return False

    def emit_stale_location():
        connection.emit_signal(None, CLIENT, "org.freedesktop.GeoClue2.Client", "LocationUpdated",
                               GLib.Variant("(oo)", (LOCATION, "/org/freedesktop/GeoClue2/Location/99")))
        return False

    def client_call(conn, sender, path, interface, method, parameters, invocation):
        log(method)
        if method == "Start" and options.mode == "deny":
            invocation.return_dbus_error("org.freedesktop.DBus.Error.AccessDenied",
                                         "Geolocation disabled for UID 1000")
            return
        if method == "Start":
            client_properties["Active"] = GLib.Variant("b", True)
            if options.mode in ("fix", "fix-then-stale"):
                GLib.timeout_add(200, emit_location)
        if method == "Stop":
            client_properties["Active"] = GLib.Variant("b", False)
        invocation.return_value(None)

    def client_get(conn, sender, path, interface, name):
        log(f"Get {name}")
        return client_properties[name]

    def client_set(conn, sender, path, interface, name, value):
        log(f"Set {name} {value.unpack()}")
        client_properties[name] = value
        return True

    def location_get(conn, sender, path, interface, name):
        log(f"Get {name}")
        return location_properties[name]

    connection.register_object(MANAGER, interfaces["org.freedesktop.GeoClue2.Manager"], manager_call, None, None)
    connection.register_object(CLIENT, interfaces["org.freedesktop.GeoClue2.Client"], client_call, client_get,
                               client_set)
    connection.register_object(LOCATION, interfaces["org.freedesktop.GeoClue2.Location"], None, location_get, None)

    loop = GLib.MainLoop()

    def acquired(conn, name):
        print("ready", flush=True)

    def lost(conn, name):
        print(f"could not own {name}", file=sys.stderr, flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(connection, "org.freedesktop.GeoClue2", Gio.BusNameOwnerFlags.NONE,
                                   acquired, lost)
    loop.run()


if __name__ == "__main__":
    main()
