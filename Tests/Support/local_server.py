"""What the test servers share: a free port on 127.0.0.1, and serving a started server until the
test closes standard input (or terminates this script), then stopping it."""
import os
import signal
import socket
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
