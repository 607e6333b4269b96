"""What the test servers share: a free port on 127.0.0.1, and serving a started server until the
test closes standard input (or terminates this script), then stopping it."""
import os
import pwd
import signal
import socket
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(folder, subfolders, password_lines):
    """Makes FOLDER and its `subfolders`, and the password file FOLDER/passwords (one line of
    `password_lines` a user, readable by the server only). Run as root, a server drops root for
    www-data, which must then own what it writes and read its passwords: they are given to it.
    Returns the password file's path, and whether the server runs as root (to say so in its
    configuration)."""
    for sub in subfolders:
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    passwords = os.path.join(folder, "passwords")
    with open(os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
        file.writelines(line + "\n" for line in password_lines)
    as_root = os.geteuid() == 0
    if as_root:
        www = pwd.getpwnam("www-data")
        for path in [folder, passwords] + [os.path.join(folder, sub) for sub in subfolders]:
            os.chown(path, www.pw_uid, www.pw_gid)
    return passwords, as_root


def serve(server, port, error_log, ready):
    """Waits (20 s at most) until `server` (a Popen) answers on `port`, prints `ready`, then
    serves until standard input closes; prints "failed" and the error log if it never answers."""
    def stop(*_):
        server.terminate()
        try:
            server.wait(timeout=10)
        except Exception:
            server.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    deadline = time.time() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                sys.stderr.write(open(error_log).read() if os.path.exists(error_log) else "")
                print("failed", flush=True)
                sys.exit(1)
            time.sleep(0.05)
    print(ready, flush=True)
    sys.stdin.read()
    stop()
