# SPDX-License-Identifier: GPL-3.0-or-later
"""sl_cdp.py: a minimal Chrome DevTools Protocol client (python3 standard
library only) for headless Chromium: open a page, evaluate script, collect
console errors, exceptions and network requests, take screenshots."""
import base64, json, os, re, shutil, socket, struct, subprocess, tempfile, time, urllib.request


class Chromium:
    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="sl-chromium-")
        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-port=0", "--user-data-dir=" + self.profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            m = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
            port = m and m.group(1)
        assert port, "chromium did not start"
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = [t for t in targets if t["type"] == "page"][0]
        self.sock = self._connect(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events = []

    def _connect(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        s = socket.create_connection((m.group(1), int(m.group(2))))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        return s

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            assert chunk, "devtools connection closed"
            buf += chunk
        return buf

    def _recv(self):
        data = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            data += self._recv_exact(n)
            if b0 & 0x80:
                return json.loads(data)

    def _send(self, obj):
        payload = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(payload)))

    def call(self, method, **params):
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self._recv()
            if msg.get("id") == self.next_id:
                assert "error" not in msg, (method, msg["error"])
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in r, r["exceptionDetails"]
        return r["result"].get("value")

    def open(self, path, width=1400, height=900, dark=False):
        """Loads @path with the events of interest recorded from the start."""
        self.events = []
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.call("Emulation.setEmulatedMedia", features=[
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])
        self.call("Page.navigate", url="file://" + os.path.abspath(path))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.eval("document.readyState === 'complete' && "
                         "!!document.body && document.body.hasAttribute('data-ready')"):
                return
            time.sleep(0.05)
        raise AssertionError("the report never became ready: " + json.dumps(self.problems()))

    def problems(self):
        """Console errors, uncaught exceptions, CSP violations and network requests."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(("exception", p["exceptionDetails"].get("text"),
                            json.dumps(p["exceptionDetails"].get("exception", {}))[:300]))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append(("console", p["type"], json.dumps(p.get("args"))[:300]))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append(("log", p["entry"].get("source"), p["entry"].get("text")))
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if not url.startswith("file://") or p.get("type") != "Document":
                    out.append(("request", p.get("type"), url))
            elif m == "Page.javascriptDialogOpening":
                out.append(("dialog", p.get("type"), p.get("message")))
        return out

    def screenshot(self, path):
        r = self.call("Page.captureScreenshot", format="png")
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
