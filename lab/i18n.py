"""The app's words in English and 中文: one lookup function, :func:`t`.

How a developer marks a string
------------------------------
Write the English sentence in the code, wrapped in ``t`` with the page's language::

    from lab.i18n import t
    st.button(t("Show solution", lang))
    st.caption(t("Cut at k = {k}: {n} items below the cutoff.", lang, k=k, n=fmt(n)))

- The first argument is a **string literal**, the English text itself (the msgid): a test
  (``tests/lab/test_i18n.py``) reads every ``t("...")`` of the sources with :mod:`ast` and
  checks each has a Chinese translation in one of ``locales/zh/LC_MESSAGES/*.po``, and that
  the catalogs hold no message the code no longer uses. ``messages.po`` holds the app's
  words; a feature with many words of its own (class mode, the mistakes lesson) keeps them
  in a file of its own beside it (``class.po``), read as one catalog with the others. ``pybabel extract -k t`` finds the
  same calls.
- Values go in through **named placeholders** (``{k}``, ``{name}``), already formatted
  (``lab.text.fmt``): numbers are never translated. One whole sentence per message: never
  assemble a sentence from translated pieces (Chinese word order differs).
- English is the source language: English needs no catalog, the msgid is the text. A missing
  translation falls back to the English text (as gettext does); the test forbids that.

The catalogs are gettext ``.po`` files (what translators' tools open), read with Babel and
cached per language. No Streamlit here: the ui side decides the language
(``ui.state.language``) and passes it in.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parents[1] / "locales"
SOURCE = "en"
# The app's languages, each named in its own words: the one list (lessons, catalogs, the
# sidebar's switch). A language is added here, with its catalog (locales/<code>/) and its
# lessons (assets/lessons/<code>/), and in FONTS when its script needs faces of its own.
LANGUAGES = {"en": "English", "zh": "中文"}
# Font families a language's script needs in the charts (Streamlit's chart theme sets its own
# Latin face): faces with its glyphs that browsers have (Linux: WenQuanYi, Noto CJK; macOS:
# PingFang; Windows: Microsoft YaHei) after the app's Latin face, so Latin text looks as in
# English. ui/fit.css names the same faces for every chart's text in the browser; the PDF
# handouts embed WenQuanYi Micro Hei as the fallback face of every language (lab/handouts.py).
FONTS = {"zh": ('"Source Sans", "Source Sans Pro", "WenQuanYi Micro Hei", '
                '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif')}
DOMAIN = "messages"


def catalog_path(lang: str) -> Path:
    """The main catalog of ``lang``; :func:`catalog_paths` lists it with the feature files."""
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_paths(lang: str) -> list[Path]:
    """Every ``.po`` file of ``lang``: ``messages.po`` first, then the features' own files."""
    main = catalog_path(lang)
    return [main] + sorted(p for p in main.parent.glob("*.po") if p != main)


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """``{English msgid: translation}`` of ``lang`` (empty for English, the source).

    Untranslated and fuzzy entries are left out, so they fall back to English.

    >>> catalog("en")
    {}
    >>> catalog("zh")["Playground"]
    '演练场'
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
    if lang == SOURCE:
        return {}
    found: dict[str, str] = {}
    for path in catalog_paths(lang):
        with open(path, "rb") as f:
            po = read_po(f, locale=lang, domain=DOMAIN)
        found.update({m.id: m.string for m in po
                      if m.id and isinstance(m.id, str) and m.string and not m.fuzzy})
    return found


def t(message: str, lang: str, /, **params) -> str:
    """``message`` (English) in ``lang``, its ``{name}`` placeholders filled from ``params``.

    >>> t("Playground", "zh")
    '演练场'
    >>> t("Playground", "en")
    'Playground'
    """
    text = catalog(lang).get(message, message)
    return text.format(**params) if params else text


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: ``{k}`` → ``{"k"}``.

    >>> sorted(placeholders("NDCG@{k} = {value}"))
    ['k', 'value']
    """
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def language_of(tag: str | None) -> str | None:
    """The app's language for a language tag (``?lang=``, the browser's locale), or None.

    Any Chinese tag (``zh``, ``zh-CN``, ``zh-Hant-TW``) reads Chinese; any English one
    English; others (``de-DE``) None, so the caller falls back.

    >>> [language_of(x) for x in ("zh-CN", "zh", "en-GB", "EN", "de-DE", "", None)]
    ['zh', 'zh', 'en', 'en', None, None, None]
    """
    if not tag:
        return None
    primary = str(tag).strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None
