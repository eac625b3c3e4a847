"""Share links and their QR codes, drawn here (segno; no request to any other service).

A link is what the address bar would hold: the app's address, a page's path and the
parameters that rebuild what the page shows. The QR code is a PNG drawn large enough to
scan from the back of a room when a projector shows it at 300 px or more.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno

from lab import exercises as X
from lab.i18n import t
from lab.text import escape_markdown

QR_MODULE_PX = 8  # pixels per QR module: a 41-module code (a playground link) is 392 px


def app_base(url: str) -> str:
    """The app's address from a page's full address (``st.context.url``): scheme and host,
    without the page's path, query or fragment.

    >>> app_base("http://localhost:8501/playground?g=1,2#top")
    'http://localhost:8501'
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an http(s) address: {url!r}; share links need the app's "
                         "address as the browser sees it.")
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def link(base: str, path: str, params: dict | None = None, fragment: str = "") -> str:
    """A page's share link.

    >>> link("http://localhost:8501", "practice", {"ex": "compute/medium/5"})
    'http://localhost:8501/practice?ex=compute%2Fmedium%2F5'
    >>> link("http://localhost:8501", "worked_examples", fragment="doc000")
    'http://localhost:8501/worked_examples#doc000'
    """
    query = urlencode(params or {}, doseq=True)
    return (base.rstrip("/") + "/" + path.lstrip("/") + (f"?{query}" if query else "")
            + (f"#{fragment}" if fragment else ""))


@lru_cache(maxsize=256)
def qr_png(text: str, *, module_px: int = QR_MODULE_PX) -> bytes:
    """The QR code of ``text`` as PNG bytes (error correction M: a projected code still scans
    with a smudge or a glare on it), with the standard 4-module quiet zone.

    A QR code holds at most 2,331 characters of a link at level M; a longer link (a
    playground of many long labels) gets a ValueError that says so.
    """
    try:
        code = segno.make(text, error="m", boost_error=False)
    except segno.DataOverflowError:
        raise ValueError(f"the link has {len(text):,} characters, more than a QR code holds "
                         f"(2,331); copy the link instead.") from None
    out = io.BytesIO()
    code.save(out, kind="png", scale=module_px, border=4)
    return out.getvalue()


def exercise_from_link(text, *, lang: str = "en") -> tuple[str, str, int]:
    """``(kind, level, number)`` of an exercise id as links carry it (``compute/medium/5``,
    :attr:`Exercise.id`), or ValueError with a message for the visitor (in ``lang``).

    >>> exercise_from_link("compare/hard/12")
    ('compare', 'hard', 12)
    """
    parts = str(text).split("/")
    if (len(parts) != 3 or parts[0] not in X.KINDS or parts[1] not in X.LEVELS
            or not re.fullmatch(r"[1-9][0-9]{0,6}", parts[2])):
        raise ValueError(t("The link's exercise “{typed}” is not one this page knows (it looks "
                           "like compute/medium/5); exercise 1 is shown instead.", lang,
                           typed=escape_markdown(str(text)[:40])))
    return parts[0], parts[1], int(parts[2])
