#!/usr/bin/env python3
"""Debian's lighttpd with mod_webdav and Basic authentication, for the sync tests: another
WebDAV server beside Apache, one that answers a PROPFIND without an XML Content-Type with 415.
On 127.0.0.1 and a free port, everything in FOLDER (configuration, the served files, the
password file, logs). Prints "ready http://127.0.0.1:PORT -" once it answers (no second
listener: "-"), then serves until its standard input closes or it is terminated.

    lighttpd_server.py FOLDER

Users: "anna" with the password "anna app password", "bob" with "bob app password".
Places under the address: /dav/, read and write for any user. Every request is logged in
FOLDER/access.log: method, path, status.
"""
import os
import subprocess
import sys

from local_server import free_port, prepare, serve

folder = os.path.abspath(sys.argv[1])
port = free_port()
# The "plain" back end: one "user:password" a line.
passwords, as_root = prepare(folder, ["dav", "run"], ["anna:anna app password", "bob:bob app password"])

configuration = f"""
server.modules = ("mod_auth", "mod_authn_file", "mod_webdav", "mod_accesslog")
server.document-root = "{folder}"
server.bind = "127.0.0.1"
server.port = {port}
server.pid-file = "{folder}/run/lighttpd.pid"
server.errorlog = "{folder}/error.log"
accesslog.filename = "{folder}/access.log"
accesslog.format = "%m %U %>s"
{'server.username = "www-data"' if as_root else ""}
{'server.groupname = "www-data"' if as_root else ""}
auth.backend = "plain"
auth.backend.plain.userfile = "{passwords}"
auth.require = ("/" => ("method" => "basic", "realm" => "Flourish tests", "require" => "valid-user"))
$HTTP["url"] =^ "/dav/" {{
    webdav.activate = "enable"
    webdav.is-readonly = "disable"
}}
"""
config_path = os.path.join(folder, "lighttpd.conf")
with open(config_path, "w") as file:
    file.write(configuration)

server = subprocess.Popen(["/usr/sbin/lighttpd", "-D", "-f", config_path], stdin=subprocess.DEVNULL)
serve(server, port, os.path.join(folder, "error.log"), f"ready http://127.0.0.1:{port} -")
