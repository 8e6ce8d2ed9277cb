#!/usr/bin/env python3
"""Waymark's test HTTP server: started by the MapNetwork tests on 127.0.0.1 with a random port, stopped by them.

usage: test_server.py ROOT     prints "PORT <n>" on stdout once listening; exits when its standard input closes
                               (the test that started it stopped it, or died) or on SIGTERM.

GET /files/<path>   the file ROOT/<path>, with ETag (sha1 of the content), Last-Modified, If-None-Match -> 304,
                    Range: bytes=a-b -> 206. Query parameters:
                      cc=<value>       a Cache-Control header (for example max-age=60, no-store, no-cache)
                      fault=404        answers 404           fault=500        answers 500 every time
                      fault=500once    500 on the first request of this URL, then the file
                      fault=slow       waits delay ms (default 300) before answering
                      fault=reset      sends half the body, then resets the connection (RST)
                      fault=truncated  announces the whole length, sends half, closes
                      fault=badgzip    answers a gzip header followed by garbage
                      fault=norange    ignores Range (200 with the whole file)
                    Hostile modes (each bounded: it stops by itself after at most 120 s):
                      fault=huge       announces Content-Length 2 GiB and sends zeros until the client leaves
                      fault=endless    a chunked body of zeros that never ends
                      fault=bomb       a gzip bomb as the body (256 MiB of zeros in about 256 KiB), no encoding
                      fault=bombenc    the same bomb sent with Content-Encoding: gzip
                      fault=silent     accepts, reads the request, never answers
                      fault=drip       announces the file's length, sends one byte a second
                      fault=loop       302 to itself, for ever
                      fault=random     200 with random bytes (the file's length)
                      fault=html       200 with a captive-portal HTML page
                      fault=retryafter 503 with Retry-After: <delay ms / 1000> on the first request, then the file
GET /_control?mode=<fault>     applies <fault> to every /files request until mode= (empty) is set
GET /_control?replace=<path>&with=<path2>   copies ROOT/<path2> over ROOT/<path> (a new ETag)
GET /_control?clearlog=1       empties the request log
GET /_log                      the request log as JSON lines: {"path", "if_none_match", "if_modified_since", "range"}
"""
import email.utils
import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
LOCK = threading.Lock()
STATE = {"mode": "", "seen": {}, "log": []}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def send_body(self, status, body, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        if url.path == "/_log":
            with LOCK:
                body = "\n".join(json.dumps(e) for e in STATE["log"]).encode()
            return self.send_body(200, body, [("Content-Type", "text/plain")])
        if url.path == "/_control":
            with LOCK:
                if "mode" in query:
                    STATE["mode"] = query["mode"]
                if "clearlog" in query:
                    STATE["log"] = []
                if "replace" in query:
                    shutil.copyfile(os.path.join(ROOT, query["with"]), os.path.join(ROOT, query["replace"]))
            return self.send_body(200, b"ok")
        if not url.path.startswith("/files/"):
            return self.send_body(404, b"not found")
        rel = urllib.parse.unquote(url.path[len("/files/"):])
        with LOCK:
            STATE["log"].append({
                "path": url.path, "query": url.query,
                "if_none_match": self.headers.get("If-None-Match"),
                "if_modified_since": self.headers.get("If-Modified-Since"),
                "range": self.headers.get("Range"),
            })
            fault = query.get("fault") or STATE["mode"]
            count = STATE["seen"].get(self.path, 0)
            STATE["seen"][self.path] = count + 1
        path = os.path.normpath(os.path.join(ROOT, rel))
        if not path.startswith(ROOT) or not os.path.isfile(path):
            return self.send_body(404, b"no such file")
        if fault == "404":
            return self.send_body(404, b"fault 404")
        if fault == "500" or (fault == "500once" and count == 0):
            return self.send_body(500, b"fault 500")
        if fault == "slow":
            time.sleep(int(query.get("delay", "300")) / 1000)
        if fault == "retryafter" and count == 0:
            return self.send_body(503, b"busy", [("Retry-After", str(int(query.get("delay", "1000")) // 1000))])
        with open(path, "rb") as f:
            data = f.read()
        if hostile(self, fault, query, data):
            return
        etag = '"%s"' % hashlib.sha1(data).hexdigest()
        headers = [("ETag", etag),
                   ("Last-Modified", email.utils.formatdate(os.path.getmtime(path), usegmt=True)),
                   ("Accept-Ranges", "bytes")]
        if "cc" in query:
            headers.append(("Cache-Control", query["cc"]))
        if fault == "badgzip":
            return self.send_body(200, b"\x1f\x8b\x08\x00garbage-not-deflate" * 4, headers)
        if fault in ("reset", "truncated"):
            self.send_response(200)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            if fault == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        inm = self.headers.get("If-None-Match")
        if inm is not None and inm == etag:
            self.send_response(304)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and fault != "norange":
            a, _, b = rng[len("bytes="):].partition("-")
            start = int(a)
            end = min(int(b) if b else len(data) - 1, len(data) - 1)
            if start >= len(data):
                return self.send_body(416, b"", [("Content-Range", "bytes */%d" % len(data))])
            headers.append(("Content-Range", "bytes %d-%d/%d" % (start, end, len(data))))
            return self.send_body(206, data[start:end + 1], headers)
        return self.send_body(200, data, headers)


BOMB = []


def gzip_bomb():
    """256 MiB of zeros, gzip-compressed once per server (about 256 KiB)."""
    with LOCK:
        if not BOMB:
            import zlib
            c = zlib.compressobj(9, zlib.DEFLATED, 31)
            zeros = bytes(1 << 20)
            BOMB.append(b"".join([c.compress(zeros) for _ in range(256)] + [c.flush()]))
        return BOMB[0]


def hostile(handler, fault, query, data):
    """Answers a hostile mode; True when it did."""
    deadline = time.monotonic() + 120
    w = handler.wfile
    try:
        if fault == "huge" or fault == "endless":
            handler.send_response(200)
            if fault == "huge":
                handler.send_header("Content-Length", str(2 << 30))
            else:
                handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            chunk = bytes(64 << 10)
            sent = 0
            while time.monotonic() < deadline and sent < (3 << 30):
                if fault == "endless":
                    w.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                else:
                    w.write(chunk)
                sent += len(chunk)
        elif fault in ("bomb", "bombenc"):
            body = gzip_bomb()
            extra = [("Content-Encoding", "gzip")] if fault == "bombenc" else []
            handler.send_body(200, body, extra)
        elif fault == "silent":
            while time.monotonic() < deadline:
                time.sleep(0.5)
        elif fault == "drip":
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            for b in data:
                if time.monotonic() >= deadline:
                    break
                w.write(bytes([b]))
                w.flush()
                time.sleep(1)
        elif fault == "loop":
            handler.send_response(302)
            handler.send_header("Location", handler.path)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        elif fault == "random":
            handler.send_body(200, os.urandom(max(len(data), 64)))
        elif fault == "html":
            handler.send_body(200, b"<!DOCTYPE html><html><head><title>Sign in to the Wi-Fi</title></head>"
                                   b"<body><form>Accept the terms</form></body></html>",
                              [("Content-Type", "text/html")])
        else:
            return False
    except (BrokenPipeError, ConnectionResetError):
        pass
    handler.close_connection = True
    return True


def exit_when_stdin_closes():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    # A parent's blocked signals are inherited; make SIGTERM work whatever the parent blocked.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
