"""The address phones open: a join link, a share link's QR code, a handout's printed link.

A teacher opens the app at ``http://localhost:8501`` on the laptop that runs it; a link built
from that names the phone itself. In order:

1. a public address the deployment states (``NDCG_LAB_PUBLIC_URL``, or ``public_url`` under
   ``[class]`` in Streamlit's ``secrets.toml``: a server behind a proxy or a name);
2. the teacher's own address when it is not a loopback one (the class reaches it too);
3. this machine's network address, found here: the interfaces' addresses (Linux), else what
   the machine's name resolves to, else the source address the kernel would pick for a
   private destination (a UDP ``connect()`` chooses a route and sends nothing). No request
   goes to any other host.

No Streamlit here.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

PUBLIC_ENV = "NDCG_LAB_PUBLIC_URL"
# Interfaces of containers and virtual machines: their addresses are not the room's network.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "zt", "lxc")


@dataclass(frozen=True)
class Reach:
    """Where phones are sent: ``base`` (scheme, host, port) and ``how`` it was chosen:
    ``public`` (configured), ``same`` (the teacher's address), ``network`` (this machine's
    address found here), ``local_only`` (this server listens on a loopback address: nothing
    else can reach it), ``none`` (no network address found) or ``bad_public``."""
    base: str
    how: str
    problem: str = ""  # how="bad_public": what is wrong with the configured address


def public_url(env: Mapping[str, str] | None = None, *,
               secrets_file: Path | None = None) -> str | None:
    """The configured public address, without a trailing slash, or None.

    >>> public_url({"NDCG_LAB_PUBLIC_URL": "https://ndcg.example.org/"})
    'https://ndcg.example.org'
    """
    from lab.classroom import config  # the [class] section of secrets.toml, read once there

    env = os.environ if env is None else env
    url = env.get(PUBLIC_ENV) or config.section(secrets_file).get("public_url")
    if not url:
        return None
    url = str(url).strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{PUBLIC_ENV} / [class] public_url must be an http(s) address such "
                         f"as https://ndcg.example.org; got {url!r}")
    return url


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` names this machine only (``localhost``, 127.0.0.0/8, ``::1``)."""
    host = (host or "").strip("[]").lower()
    if host in ("localhost", "") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _interfaces() -> list[tuple[str, str]]:
    """``(interface, IPv4 address)`` of each interface (Linux: the SIOCGIFADDR ioctl)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                  struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on it
                continue
            found.append((name, socket.inet_ntoa(raw[20:24])))
    return found


def _by_name() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [info[4][0] for info in infos]


def _routed() -> list[str]:
    """The source address for a private destination: connect() on UDP sends no packet."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.254", 9))
            return [s.getsockname()[0]]
    except OSError:
        return []


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the same network may reach, best first:
    private addresses (RFC 1918) of real interfaces before others."""
    named = [(name, a) for name, a in _interfaces()
             if not name.startswith(VIRTUAL) and name != "lo"]
    found = [a for _n, a in named] or _by_name() or _routed()
    found = list(dict.fromkeys(a for a in found if _usable(a)))
    return sorted(found, key=lambda a: not ipaddress.ip_address(a).is_private)


def reach(teacher_base: str, *, public: str | None, listening: str | None,
          addresses: list[str]) -> Reach:
    """Where phones are sent, from the teacher's address (``http://localhost:8501``), the
    configured public address, the address this server listens on (``server.address``:
    empty for every interface) and this machine's network addresses.

    >>> reach("http://localhost:8501", public=None, listening="", addresses=["192.168.1.5"])
    Reach(base='http://192.168.1.5:8501', how='network', problem='')
    >>> reach("http://localhost:8501", public="https://ndcg.example.org", listening="",
    ...       addresses=[]).base
    'https://ndcg.example.org'
    >>> reach("http://10.0.0.2:8501", public=None, listening="", addresses=[]).how
    'same'
    >>> reach("http://127.0.0.1:8501", public=None, listening="127.0.0.1",
    ...       addresses=["192.168.1.5"]).how
    'local_only'
    """
    if public:
        return Reach(public, "public")
    parts = urlsplit(teacher_base)
    if not is_loopback(parts.hostname):
        return Reach(teacher_base, "same")
    if listening and is_loopback(listening):
        return Reach(teacher_base, "local_only")
    if not addresses:
        return Reach(teacher_base, "none")
    port = f":{parts.port}" if parts.port else ""
    return Reach(urlunsplit((parts.scheme, f"{addresses[0]}{port}", "", "", "")), "network")
