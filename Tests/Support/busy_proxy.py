#!/usr/bin/env python3
"""A busy server for the sync tests: a proxy on 127.0.0.1 in front of a real WebDAV server
(UPSTREAM, "http://127.0.0.1:PORT") that answers some requests itself with a busy status, as
Nextcloud does (423 Locked, 429 Too Many Requests, 503 Service Unavailable), and passes every
other request on unchanged. Prints "ready http://127.0.0.1:PORT" once it listens, then serves
until its standard input closes.

    busy_proxy.py UPSTREAM FOLDER

FOLDER/busy holds the answers to give, one a line, the first for the next request: a status,
then a Retry-After value or "-" for none ("423 1", "503 -"). Each is used once and removed.
FOLDER/proxy.log gets a line for each request, written before it is answered: the time
(seconds, from the epoch), the method, the path and the status it is answered with.
"""
import http.client
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

upstream = urlsplit(sys.argv[1])
folder = os.path.abspath(sys.argv[2])
os.makedirs(folder, exist_ok=True)
answers = os.path.join(folder, "busy")
log = os.path.join(folder, "proxy.log")
lock = threading.Lock()

# Hop-by-hop headers are the proxy's own, never passed on.
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization",
       "proxy-authenticate"}


def next_busy_answer():
    """The next busy answer (status, Retry-After or None), removed from the file; None when none
    is left."""
    with lock:
        if not os.path.exists(answers):
            return None
        with open(answers) as file:
            lines = [line.split() for line in file if line.strip()]
        if not lines:
            return None
        with open(answers, "w") as file:
            file.writelines(" ".join(line) + "\n" for line in lines[1:])
        status, retry_after = lines[0]
        return int(status), None if retry_after == "-" else retry_after


def note(method, path, status):
    with lock, open(log, "a") as file:
        file.write(f"{time.time():.3f} {method} {path} {status}\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        busy = next_busy_answer()
        # Each request is noted before it is answered: the client's next request comes only after
        # the answer, so the log keeps their order.
        if busy:
            status, retry_after = busy
            note(self.command, self.path, status)
            self.send_response(status)
            if retry_after is not None:
                self.send_header("Retry-After", retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP}
        connection.request(self.command, self.path, body=body, headers=headers)
        answer = connection.getresponse()
        content = answer.read()
        note(self.command, self.path, answer.status)
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in HOP and name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)
        connection.close()

    def __getattr__(self, name):
        # Every method (GET, PUT, PROPFIND, MKCOL, DELETE…) is handled the same way.
        if name.startswith("do_"):
            return self.handle_any
        raise AttributeError(name)

    def log_message(self, *_):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"ready http://127.0.0.1:{server.server_address[1]}", flush=True)
sys.stdin.read()
server.shutdown()
