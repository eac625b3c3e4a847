"""The server a class uses: its limits are in force, other sites cannot open a session, and a
shared link of up to 8 KB opens however the network splits it.

What Streamlit cannot switch off (the metrics endpoint, the external-address lookup on a
refused cross-site websocket, h11's 16 KiB request-head limit) is measured by
tests/bench/bench_server_exposure.py, which also checks the nginx front in docs/deploy.md.
"""

from __future__ import annotations

import base64
import os
import socket
import time
import tomllib
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
PACKET = 1460  # bytes of TCP payload in a 1,500-byte Ethernet frame
LINK_CAP = 8 * 1024  # the app writes links of at most 8 KB
# What Chromium sends with a page request besides the request line (about 700 bytes).
BROWSER_HEADERS = (
    "Connection: keep-alive\r\n"
    'sec-ch-ua: "Chromium";v="156", "Not)A;Brand";v="24"\r\n'
    "sec-ch-ua-mobile: ?0\r\nsec-ch-ua-platform: \"Linux\"\r\nUpgrade-Insecure-Requests: 1\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36\r\n"
    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
    "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7\r\n"
    "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-User: ?1\r\n"
    "Sec-Fetch-Dest: document\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"
    "Accept-Language: en-GB,en;q=0.9\r\n"
    "Cookie: _streamlit_xsrf=2|3e0d5c1a|0f2a6e0c4d6b8a1e3c5f7d9b1a3c5e7f|1764640000\r\n"
)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def websocket_handshake(port: int, origin: str) -> str:
    """The status line Streamlit answers to a websocket handshake from ``origin``."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /_stcore/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: {origin}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096).split(b"\r\n", 1)[0].decode()


def get_in_packets(port: int, target: str) -> tuple[int, str]:
    """GET ``target`` with a browser's headers, sent in 1,460-byte TCP segments 20 ms apart
    (as a long link arrives over a network, not in one piece as on loopback).

    Returns the request line's length in bytes and the status line of the answer.
    """
    line = f"GET {target} HTTP/1.1\r\n"
    request = (line + f"Host: 127.0.0.1:{port}\r\n" + BROWSER_HEADERS + "\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for start in range(0, len(request), PACKET):
            sock.sendall(request[start:start + PACKET])
            time.sleep(0.02)
        return len(line.encode()), sock.recv(4096).split(b"\r\n", 1)[0].decode()


# ------------------------------------------------------------------ the config is in force

def test_the_running_server_takes_the_classroom_limits_from_the_config(
        page: Page, start_app, open_app) -> None:
    """A server started from the repository root runs with config.toml's server limits."""
    url = start_app("tests/apps/config_probe.py")
    open_app(page, url)
    shown = page.get_by_test_id("stText").inner_text()
    server = CONFIG["server"]
    for name in ("maxUploadSize", "disconnectedSessionTTL", "enableExpensiveMemoryStats",
                 "enableXsrfProtection"):
        assert f"server.{name} = {server[name]!r}" in shown, (name, shown)
    assert f"server.maxCacheDataSize = {server['maxCacheDataSize']!r}" in shown, shown
    assert "server.enableCORS = True" in shown  # cross-site websockets refused


def test_the_upload_cap_and_session_lifetime_fit_a_classroom_machine() -> None:
    """Uploads up to 160 MB (a 150 MB run fits); a closed tab's session, with its uploads,
    is let go within a minute; cached results are bounded as a whole."""
    server = CONFIG["server"]
    assert 150 <= server["maxUploadSize"] <= 200
    assert 0 < server["disconnectedSessionTTL"] <= 60
    assert server["enableExpensiveMemoryStats"] is False
    assert server["maxCacheDataSize"].lower().endswith(("mb", "gb"))


def test_the_evaluate_page_states_the_upload_cap_the_server_enforces(
        page: Page, app_url, open_app) -> None:
    """The caption under the uploaders names the cap the running server has."""
    open_app(page, f"{app_url}/your_data")
    cap = CONFIG["server"]["maxUploadSize"]
    expect(page.get_by_text(f"up to {cap} MB each", exact=False)).to_be_visible()


# ------------------------------------------------------------------ other sites

def test_a_cross_site_websocket_is_refused_and_a_same_origin_one_accepted(app_url) -> None:
    """A page on another site cannot open a session (403); the app's own page can (101)."""
    port = port_of(app_url)
    assert websocket_handshake(port, "http://evil.example") == "HTTP/1.1 403 Forbidden"
    assert websocket_handshake(port, f"http://127.0.0.1:{port}") == \
        "HTTP/1.1 101 Switching Protocols"


# ------------------------------------------------------------------ long links

def test_a_link_just_under_8_kb_opens_when_it_arrives_in_network_sized_packets(
        app_url) -> None:
    """A share link of 8 KB less a little (the app's cap) answers 200, split into 1,460-byte
    packets: the request head (line + ~700 bytes of headers) stays under h11's 16 KiB."""
    port = port_of(app_url)
    head = "/playground?g=3,2,3,0,1,2&l="
    target = head + "x" * (LINK_CAP - 100 - len(head))
    line_bytes, status = get_in_packets(port, target)
    assert LINK_CAP - 150 < line_bytes < LINK_CAP
    assert status == "HTTP/1.1 200 OK"
