#!/usr/bin/env python3
"""A stand-in for InfluxDB 2.x's write API, for the integration test: no InfluxDB 2.x server
can be installed here (Debian ships InfluxDB 1.6 only, and no package registry reached from
here serves 2.x or 3.x).

It does what the documented API does with a write (POST /api/v2/write?org=&bucket=&precision=,
"Authorization: Token <token>", an optional "Content-Encoding: gzip" body of line protocol):
204 when the token, org and bucket are right, 401 for another token, 404 for another bucket,
400 for an unknown precision; accepted lines are appended to the file named, one per line.
With `close-first`, it closes the connection in the middle of the first write's body, with no
answer, as a server that goes away mid-batch does.

    scripts/checks/influx2-fake.py PORT TOKEN ORG BUCKET LINES_FILE [close-first]
"""
import gzip
import http.server
import sys
import urllib.parse

port, token, org, bucket, lines_file = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
closes_first = len(sys.argv) > 6 and sys.argv[6] == "close-first"
writes = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self, status, message=None):
        body = b"" if message is None else ('{"code":"invalid","message":"%s"}' % message).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        global writes
        writes += 1
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        length = int(self.headers.get("Content-Length", "0"))
        if closes_first and writes == 1:
            self.rfile.read(length // 2)
            self.close_connection = True
            self.connection.shutdown(2)
            return
        body = self.rfile.read(length)
        if url.path != "/api/v2/write":
            return self.answer(404, "path not found")
        if self.headers.get("Authorization") != "Token " + token:
            return self.answer(401, "unauthorized access")
        if query.get("org") != [org] or query.get("bucket") != [bucket]:
            return self.answer(404, 'bucket "%s" not found' % query.get("bucket", [""])[0])
        if query.get("precision", ["ns"]) not in (["ns"], ["us"], ["ms"], ["s"]):
            return self.answer(400, "invalid precision")
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        with open(lines_file, "ab") as out:
            out.write(b"".join(line + b"\n" for line in body.splitlines() if line.strip()))
        self.answer(204)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
