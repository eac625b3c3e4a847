"""Check by hand: what the server exposes, with and without the nginx front of docs/deploy.md.

1. Starts ``streamlit run app.py`` on 127.0.0.1 and attaches ``strace -f`` to it (every
   thread), recording connect() and sendto()/sendmmsg() calls.
2. Sends --attempts cross-site websocket handshakes (``Origin: http://evil.example``) and one
   same-origin handshake, straight to Streamlit, and prints each answer, its time and the
   connect() calls to addresses other than this machine's loopback that followed. (Streamlit
   1.67 refuses the cross-site ones with 403, but first runs ``net_util.get_internal_ip``
   (a UDP connect to 8.8.8.8, once per process) and ``net_util.get_external_ip`` (an HTTP GET
   of checkip.amazonaws.com, repeated while it fails), on its event loop.)
3. Asks ``/_stcore/metrics`` what it tells anyone who asks.
4. Sends GET request lines of several sizes in 1,460-byte TCP segments (a typical network
   packet), 20 ms apart, and prints the status of each.
5. If nginx is installed: runs the nginx snippet of docs/deploy.md ("Behind a reverse proxy")
   on a free 127.0.0.1 port in front of the same server and repeats 2-4 through it.

    python tests/bench/bench_server_exposure.py
    python tests/bench/bench_server_exposure.py --attempts 5

Needs strace (apt-get install strace); nginx is optional (apt-get install nginx-light).
Run by hand; not part of the test suite. Exit status 1 if a cross-site websocket is
accepted, or if through nginx one still makes Streamlit connect off the machine.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402

DEPLOY_DOC = M.REPO_ROOT / "docs" / "deploy.md"
PACKET = 1460  # bytes of TCP payload in a 1,500-byte Ethernet frame
LOOPBACK = re.compile(r'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"|AF_UNIX|AF_NETLINK')
CONNECT = re.compile(r"\bconnect\(\d+, \{sa_family=AF_INET6?")
# Headers a browser sends with a page request (Chromium, about 600 bytes with the cookie).
BROWSER_HEADERS = (
    "Connection: keep-alive\r\n"
    'sec-ch-ua: "Chromium";v="156", "Not)A;Brand";v="24"\r\n'
    "sec-ch-ua-mobile: ?0\r\n"
    'sec-ch-ua-platform: "Linux"\r\n'
    "Upgrade-Insecure-Requests: 1\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36\r\n"
    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
    "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7\r\n"
    "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\n"
    "Sec-Fetch-Dest: document\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"
    "Accept-Language: en-GB,en;q=0.9\r\n"
    "Cookie: _streamlit_xsrf=2|3e0d5c1a|0f2a6e0c4d6b8a1e3c5f7d9b1a3c5e7f|1764640000\r\n"
)


# ------------------------------------------------------------------ raw HTTP

def websocket_handshake(port: int, origin: str | None, host: str | None = None) -> str:
    """Status line of a websocket handshake on /_stcore/stream."""
    host = host or f"127.0.0.1:{port}"
    key = base64.b64encode(os.urandom(16)).decode()
    req = (f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
           + (f"Origin: {origin}\r\n" if origin else "") + "\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(req.encode())
        return s.recv(4096).split(b"\r\n", 1)[0].decode()


def get_in_packets(port: int, line_bytes: int, packet: int = PACKET,
                   pause_s: float = 0.02) -> tuple[int, str]:
    """GET a request line of ``line_bytes`` bytes (with a browser's headers), sent in
    ``packet``-byte segments; returns (bytes of the request head, the status line)."""
    head, tail = "GET /?l=", " HTTP/1.1\r\n"
    req = (head + "x" * (line_bytes - len(head) - len(tail)) + tail
           + f"Host: 127.0.0.1:{port}\r\n" + BROWSER_HEADERS + "\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for i in range(0, len(req), packet):
                s.sendall(req[i:i + packet])
                time.sleep(pause_s)
        except OSError:
            pass  # the server answered and closed before the end of the request
        try:
            status = s.recv(4096).split(b"\r\n", 1)[0].decode()
        except OSError as exc:
            status = f"({exc})"
    return len(req), status


def http_get(port: int, path: str) -> tuple[str, str]:
    req = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(req.encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n", 1)[0].decode(), body.decode(errors="replace")


# ------------------------------------------------------------------ strace

class Strace:
    """``strace -f -p PID`` writing connect/sendto/sendmmsg calls to a file."""

    def __init__(self, pid: int, out: Path):
        self.out = out
        self.proc = subprocess.Popen(
            ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmmsg", "-o", str(out),
             "-p", str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.0)  # attached to every thread
        self.mark = 0

    def off_machine_since_mark(self) -> list[str]:
        time.sleep(0.5)
        lines = self.out.read_text(errors="replace").splitlines()
        new, self.mark = lines[self.mark:], len(lines)
        return [ln for ln in new if CONNECT.search(ln) and not LOOPBACK.search(ln)]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=10)


# ------------------------------------------------------------------ nginx

def readme_nginx_snippet() -> str:
    m = re.search(r"```nginx\n(.*?)```", DEPLOY_DOC.read_text(), re.S)
    if not m:
        raise RuntimeError("docs/deploy.md has no ```nginx block")
    return m.group(1)


def start_nginx(folder: Path, listen_port: int, upstream_port: int) -> subprocess.Popen:
    snippet = readme_nginx_snippet()
    snippet = re.sub(r"listen 80;", f"listen 127.0.0.1:{listen_port};", snippet)
    snippet = snippet.replace("127.0.0.1:8501", f"127.0.0.1:{upstream_port}")
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/logs/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n access_log off;\n client_body_temp_path {folder}/body;\n"
        f" proxy_temp_path {folder}/proxy;\n{snippet}\n}}\n")
    check = subprocess.run(["nginx", "-t", "-p", str(folder), "-c", str(conf)],
                           capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError(f"nginx -t refused the snippet of docs/deploy.md:\n{check.stderr}")
    proc = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(conf), "-g",
                             "daemon off; master_process off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", listen_port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("nginx did not start")


# ------------------------------------------------------------------ the checks

def probe(name: str, port: int, tracer: Strace, attempts: int) -> bool:
    """Print what ``port`` answers; False if a cross-site websocket was accepted or made
    Streamlit connect off the machine (the latter is only a failure through nginx)."""
    ok = True
    print(f"\n== {name} (127.0.0.1:{port})")
    tracer.off_machine_since_mark()
    for i in range(attempts):
        t = time.monotonic()
        status = websocket_handshake(port, "http://evil.example")
        ms = (time.monotonic() - t) * 1000
        off = tracer.off_machine_since_mark()
        print(f"  cross-site websocket {i + 1}: {status} in {ms:.0f} ms; "
              f"off-machine connect() calls: {len(off)}")
        for line in off:
            print(f"      {line[:150]}")
        ok &= " 101 " not in status
        if name.startswith("through"):
            ok &= not off
    host = f"127.0.0.1:{port}"
    print(f"  same-origin websocket: {websocket_handshake(port, f'http://{host}')}")
    status, body = http_get(port, "/_stcore/metrics")
    families = sorted(set(re.findall(r"^# TYPE (\S+)", body, re.M)))
    print(f"  /_stcore/metrics: {status}; families: {', '.join(families) or '-'}")
    for size in (8_000, 16_000, 17_600, 36_000):
        n, status = get_in_packets(port, size)
        print(f"  request line {size:,} B (head {n:,} B) in {PACKET}-byte packets: {status}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attempts", type=int, default=3)
    args = ap.parse_args()
    if not shutil.which("strace"):
        print("strace is not installed (apt-get install strace)")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="ndcg-exposure-"))
    ok = True
    with M.AppServer(folder) as server:
        tracer = Strace(server.pid, folder / "strace.log")
        nginx = None
        try:
            ok &= probe("straight to Streamlit", server.port, tracer, args.attempts)
            if shutil.which("nginx"):
                port = M.free_port()
                nginx = start_nginx(folder / "nginx", port, server.port)
                ok &= probe("through docs/deploy.md's nginx", port, tracer, args.attempts)
            else:
                print("\n(nginx is not installed: the front of docs/deploy.md was not checked)")
        finally:
            if nginx is not None:
                nginx.terminate()
                nginx.wait(timeout=10)
            tracer.stop()
    print(f"\nlogs: {folder}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
