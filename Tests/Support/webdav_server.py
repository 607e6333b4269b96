#!/usr/bin/env python3
"""A real WebDAV server for the sync tests: Debian's Apache httpd with mod_dav_fs and Basic
authentication, on 127.0.0.1 and a free port, everything in FOLDER (configuration, the served
files, the password file, logs). Prints "ready http://127.0.0.1:PORT http://127.0.0.1:OTHERPORT"
once Apache answers, then serves until its standard input closes or it is terminated, and stops
Apache. OTHERPORT is a second listener standing for another host a hostile server sends Flourish
to: it asks for no password and records every request it gets.

    webdav_server.py FOLDER

Run as root, Apache's workers run as "daemon": FOLDER's parents must let others through (x).

Users: "anna" with the password "anna app password", "bob" with "bob app password".
Every request is logged in FOLDER/access.log: method, path, status, bytes in and out.
Places under the address:
  /dav/        read and write for any user
  /readonly/   reading only: PUT and MKCOL are refused (403)
  /broken/     every request answers 503 with "Retry-After: 1", as a busy server does
  /full/       the files of /dav/, but writing there answers 507, as a server whose quota is
               used up does (reading, listing and removing still work)
  /moved/      every request answers 307 to the same path under OTHERPORT's /elsewhere/, as a
               server that wants the password sent elsewhere does; /moved-permanently/ the same
               with 301, and a query string a message must not repeat ("?token=not-for-anyone")
  /endless/    every request answers 200 with a body that has no Content-Length and never ends
               (chunked; cut off after 1 GiB or 60 seconds), as a hostile server's does
Under OTHERPORT:
  /elsewhere/  read and write for anyone, no password asked (FOLDER/elsewhere)
Every request OTHERPORT gets is logged in FOLDER/elsewhere.log: method, path, and the
Authorization header it carried ("-" for none).
"""
import os
import pwd
import subprocess
import sys

from local_server import free_port, serve

folder = os.path.abspath(sys.argv[1])
os.makedirs(folder, exist_ok=True)
for sub in ["dav", "readonly", "elsewhere", "cgi", "lock", "run"]:
    os.makedirs(os.path.join(folder, sub), exist_ok=True)


port = free_port()
other_port = free_port()
while other_port == port:
    other_port = free_port()

passwords = os.path.join(folder, "passwords")
for index, (user, password) in enumerate([("anna", "anna app password"), ("bob", "bob app password")]):
    # -i: the password from standard input, not the command line.
    subprocess.run(["htpasswd", "-i", "-B"] + (["-c"] if index == 0 else []) + [passwords, user],
                   input=password, text=True, check=True, capture_output=True)

modules = "/usr/lib/apache2/modules"
as_root = os.geteuid() == 0
if as_root:
    # Apache will not serve as root: its workers run as daemon, which must own what they write.
    daemon = pwd.getpwnam("daemon")
    for sub in ["dav", "readonly", "elsewhere", "lock"]:
        os.chown(os.path.join(folder, sub), daemon.pw_uid, daemon.pw_gid)
    os.chmod(passwords, 0o644)

# The endless body: written by a script, so Apache sends it chunked, without Content-Length.
# Bounded all the same, in bytes and in time, should a client never hang up.
endless = os.path.join(folder, "cgi", "endless")
with open(endless, "w") as file:
    file.write("#!/bin/sh\n"
               "printf 'Content-Type: application/octet-stream\\r\\n\\r\\n'\n"
               "exec timeout 60 head -c 1073741824 /dev/zero\n")
os.chmod(endless, 0o755)

configuration = f"""
ServerRoot "{folder}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
Listen 127.0.0.1:{other_port}
PidFile "{folder}/run/httpd.pid"
DefaultRuntimeDir "{folder}/run"
ErrorLog "{folder}/error.log"
LogLevel warn
{"User daemon" if as_root else ""}
{"Group daemon" if as_root else ""}
LoadModule mpm_event_module {modules}/mod_mpm_event.so
LoadModule authz_core_module {modules}/mod_authz_core.so
LoadModule authn_core_module {modules}/mod_authn_core.so
LoadModule authn_file_module {modules}/mod_authn_file.so
LoadModule auth_basic_module {modules}/mod_auth_basic.so
LoadModule authz_user_module {modules}/mod_authz_user.so
LoadModule dav_module {modules}/mod_dav.so
LoadModule dav_fs_module {modules}/mod_dav_fs.so
LoadModule rewrite_module {modules}/mod_rewrite.so
LoadModule headers_module {modules}/mod_headers.so
LoadModule alias_module {modules}/mod_alias.so
LoadModule cgid_module {modules}/mod_cgid.so
ScriptSock "{folder}/run/cgid.sock"
CustomLog "{folder}/access.log" "%m %U %>s %I %O"
DavLockDB "{folder}/lock/DavLock"
Timeout 30

<Directory />
    AllowOverride None
</Directory>
Alias /dav "{folder}/dav"
Alias /readonly "{folder}/readonly"
Alias /full "{folder}/dav"
<Location />
    AuthType Basic
    AuthName "Flourish tests"
    AuthUserFile "{passwords}"
    Require valid-user
</Location>
<Directory "{folder}/dav">
    Dav On
</Directory>
<Directory "{folder}/readonly">
    Dav On
</Directory>
<Location /readonly>
    <Limit GET HEAD OPTIONS PROPFIND>
        Require valid-user
    </Limit>
    <LimitExcept GET HEAD OPTIONS PROPFIND>
        Require all denied
    </LimitExcept>
</Location>
<Location /full>
    RewriteEngine On
    RewriteCond %{{REQUEST_METHOD}} ^(PUT|MKCOL|COPY|MOVE)$
    RewriteRule .* - [R=507,L]
</Location>
<Location /broken>
    RewriteEngine On
    RewriteRule .* - [R=503,L]
    Header always set Retry-After "1"
</Location>
RedirectMatch 307 ^/moved/(.*)$ http://127.0.0.1:{other_port}/elsewhere/$1
RedirectMatch 301 ^/moved-permanently/(.*)$ http://127.0.0.1:{other_port}/elsewhere/$1?token=not-for-anyone
ScriptAliasMatch ^/endless/ "{folder}/cgi/endless"

<VirtualHost 127.0.0.1:{other_port}>
    CustomLog "{folder}/elsewhere.log" "%m %U %{{Authorization}}i"
    Alias /elsewhere "{folder}/elsewhere"
    <Location />
        Require all granted
    </Location>
    <Directory "{folder}/elsewhere">
        Dav On
    </Directory>
</VirtualHost>
"""
config_path = os.path.join(folder, "httpd.conf")
with open(config_path, "w") as file:
    file.write(configuration)

apache = subprocess.Popen(["/usr/sbin/apache2", "-f", config_path, "-DFOREGROUND"], stdin=subprocess.DEVNULL)
serve(apache, port, os.path.join(folder, "error.log"), f"ready http://127.0.0.1:{port} http://127.0.0.1:{other_port}")
