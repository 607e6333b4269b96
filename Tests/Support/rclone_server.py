#!/usr/bin/env python3
"""Debian's rclone as a WebDAV server (`rclone serve webdav`), with Basic authentication, for the
sync tests: one that ignores `If-None-Match: *` (a PUT replaces the file anyway). On 127.0.0.1
and a free port, everything in FOLDER (its configuration, the served files under FOLDER/dav, the
password file, its log). Prints "ready http://127.0.0.1:PORT -" once it answers (no second
listener: "-"), then serves until its standard input closes or it is terminated.

    rclone_server.py FOLDER

Users: "anna" with the password "anna app password", "bob" with "bob app password".
The files are served at /dav/ (rclone's --baseurl), read and write for any user.
"""
import os
import subprocess
import sys

from local_server import free_port, serve

folder = os.path.abspath(sys.argv[1])
os.makedirs(os.path.join(folder, "dav"), exist_ok=True)

port = free_port()

# An htpasswd file (bcrypt), each password given to htpasswd on its standard input, never on a
# command line.
passwords = os.path.join(folder, "passwords")
for index, (user, password) in enumerate([("anna", "anna app password"), ("bob", "bob app password")]):
    subprocess.run(["/usr/bin/htpasswd", "-i", "-B", *(["-c"] if index == 0 else []), passwords, user],
                   input=password, text=True, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.chmod(passwords, 0o600)

log = os.path.join(folder, "error.log")
server = subprocess.Popen(["/usr/bin/rclone", "serve", "webdav", "--config", os.path.join(folder, "rclone.conf"),
                           "--addr", f"127.0.0.1:{port}", "--baseurl", "/dav", "--htpasswd", passwords,
                           "--log-file", log, os.path.join(folder, "dav")],
                          stdin=subprocess.DEVNULL, env={**os.environ, "RCLONE_CONFIG": os.path.join(folder, "rclone.conf")})
serve(server, port, log, f"ready http://127.0.0.1:{port} -")
