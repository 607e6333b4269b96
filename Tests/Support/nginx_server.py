#!/usr/bin/env python3
"""Debian's nginx with the dav-ext module and Basic authentication, for the sync tests: a WebDAV
server that ignores `If-None-Match: *` (a PUT replaces the file anyway), refuses MKCOL without a
trailing slash and a PUT into a missing folder, and refuses `Depth: infinity`. On 127.0.0.1 and a
free port, everything in FOLDER (configuration, the served files, the password file, its temporary
files, logs). Prints "ready http://127.0.0.1:PORT -" once it answers (no second listener: "-"),
then serves until its standard input closes or it is terminated.

    nginx_server.py FOLDER

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
# "{PLAIN}" passwords.
passwords, as_root = prepare(folder, ["dav", "run", "run/body"],
                             ["anna:{PLAIN}anna app password", "bob:{PLAIN}bob app password"])

# Every temporary path in FOLDER: the defaults are under /var/lib/nginx, which a test may not own.
temporary = "\n".join(f"    {kind}_temp_path {folder}/run/{kind};" for kind in ["proxy", "fastcgi", "uwsgi", "scgi"])
configuration = f"""
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
daemon off;
pid {folder}/run/nginx.pid;
error_log {folder}/error.log;
{'user www-data www-data;' if as_root else ''}
events {{ worker_connections 64; }}
http {{
    log_format flourish '$request_method $uri $status';
    access_log {folder}/access.log flourish;
    client_body_temp_path {folder}/run/body;
{temporary}
    client_max_body_size 300m;
    server {{
        listen 127.0.0.1:{port};
        root {folder};
        location /dav/ {{
            auth_basic "Flourish tests";
            auth_basic_user_file {passwords};
            dav_methods PUT DELETE MKCOL COPY MOVE;
            dav_ext_methods PROPFIND OPTIONS;
            dav_access user:rw group:rw;
        }}
    }}
}}
"""
config_path = os.path.join(folder, "nginx.conf")
with open(config_path, "w") as file:
    file.write(configuration)

server = subprocess.Popen(["/usr/sbin/nginx", "-c", config_path, "-p", folder, "-e", os.path.join(folder, "error.log")],
                          stdin=subprocess.DEVNULL)
serve(server, port, os.path.join(folder, "error.log"), f"ready http://127.0.0.1:{port} -")
