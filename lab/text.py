"""How NDCG Lab writes things: numbers, grades, and user text inside Markdown.

Declared once here so every page writes a quantity the same way and every piece of
user-controlled text (labels, ids, link parameters, file names, typed answers) is escaped by
the same helper before it reaches Markdown, a toast, a notice or an error.
"""

from __future__ import annotations

import math
import re

from lab.gains import long_names, names
from lab.i18n import t

# Learner pages show 3 decimals (the exercises accept ±0.001); the data page shows 4, as
# trec_eval prints. The exact value goes in a tooltip.
LEARN_DECIMALS = 3
DATA_DECIMALS = 4
# A cell with no figure (the baseline's own p-value, a query a run left out): in every table.
MISSING = "—"

# Every character Markdown or Streamlit's Markdown extensions give a meaning to: links and
# images ([]()!), emphasis, code, HTML (<>&), headings, lists, tables, :color[] / :material/
# directives and $LaTeX$.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:&])")


# Where GitHub-flavoured Markdown would make a link of plain text (an "autolink literal"):
# "http://", "https://" (any "scheme:" then "//"), "www." and an e-mail address's "@".
# Backslashes do not stop these: Streamlit's renderer (remark-gfm) finds them in the text
# *after* the escapes are resolved, so "https\\://evil\\.example" still became a live link.
_AUTOLINK_SPOTS = re.compile(r"(?<=:)(?=/)|(?i:(?<=www))(?=\.)|(?<=@)")
# U+2060 WORD JOINER: invisible, zero width, no line break, and not a character an autolink
# may hold at that spot (its scheme needs "://" together, "www" a "." right after, an
# address a letter or digit after "@"), so the text reads the same and links nowhere.
WORD_JOINER = "\u2060"


def gain_name(gain: str, *, lang: str, long: bool = False) -> str:
    """A gain's name as every page writes it, in ``lang``: "linear", "exponential" or
    "both" (the settings' choices); ``long``: "linear gain", "exponential gain".

    >>> gain_name("exponential", lang="en", long=True)
    'exponential gain'
    """
    return (long_names if long else names)(lang)[gain]


def escape_markdown(text) -> str:
    """``text`` as literal characters inside Markdown: no link, image, HTML, LaTeX,
    directive or autolink survives.

    The one escape for user text (labels, ids, file names, CSV headers, typed grades, link
    parameters) that a Markdown element shows. Two layers: a backslash before every character
    Markdown or Streamlit gives a meaning to, and a word joiner (U+2060) inside every
    ``scheme://``, ``www.`` and ``@``, because GitHub-flavoured Markdown makes links of those
    after the backslashes are gone. The reader sees the same characters; copied, the text
    carries the invisible joiners.

    >>> print(escape_markdown("[Sign in](https://evil.example)").replace(WORD_JOINER, "⁀"))
    \\[Sign in\\]\\(https\\:⁀//evil\\.example\\)
    >>> print(escape_markdown("www.evil.example me@evil.example").replace(WORD_JOINER, "⁀"))
    www⁀\\.evil\\.example me@⁀evil\\.example
    """
    # newlines would start a new Markdown block (a heading, a list); keep the text one line
    one_line = " ".join(str(text).split())
    unlinked = _AUTOLINK_SPOTS.sub(WORD_JOINER, one_line)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", unlinked)


def listing(ids, limit: int = 20, *, lang: str = "en") -> str:
    """Escaped ids separated by commas, at most ``limit`` of them, then how many more."""
    ids = list(ids)
    shown = ", ".join(escape_markdown(i) for i in ids[:limit])
    return shown + (t(" … and {n} more", lang, n=len(ids) - limit) if len(ids) > limit else "")


def sentences(parts, *, lang: str = "en") -> str:
    """Whole sentences one after the other: a space between them in English, none after
    Chinese full-width punctuation (the catalog's "{first} {second}" says how)."""
    parts = [p for p in parts if p]
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out = t("{first} {second}", lang, first=out, second=part)
    return out


def unbroken(text) -> str:
    """``text`` whose hyphenated words ("scikit-learn", "all-zero") never break at the hyphen
    when a table cell wraps: the hyphen between two letters becomes U+2011, a non-breaking
    hyphen (it looks the same).

    >>> unbroken("the all-zero rule (scikit-learn), 2 - 1")
    'the all\u2011zero rule (scikit\u2011learn), 2 - 1'
    """
    return _WORD_HYPHEN.sub("\u2011", str(text))


_WORD_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


def fmt(x, digits: int = LEARN_DECIMALS) -> str:
    """A figure as shown: fixed decimals, or "—" where it is undefined."""
    if x is None:
        return "—"
    x = float(x)
    return "—" if not math.isfinite(x) else f"{x:.{digits}f}"


def fmt_grade(g) -> str:
    """A grade as people write it: ``3`` not ``3.0``, ``2.5`` as is, ``?`` when missing."""
    if g is None or (isinstance(g, float) and math.isnan(g)):
        return "?"
    return str(int(g)) if float(g).is_integer() else f"{g:g}"


def show_grades(grades) -> str:
    """A grade list as the lessons write it: [3, 2, 3, 0]."""
    return "[" + ", ".join(fmt_grade(g) for g in grades) + "]"


def number_format(digits: int = LEARN_DECIMALS) -> str:
    """The printf format of a number column (``st.column_config.NumberColumn(format=...)``)."""
    return f"%.{digits}f"


def escape_html(text) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped, for places that read a few HTML tags
    (Plotly's hover labels)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
