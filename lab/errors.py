"""The engine's error messages in the reader's language: :func:`explain`.

``ndcg_core`` stays English (it is a library and a CLI: its ``ValueError`` messages are part
of its interface, and the CLI prints them). Where the app shows one, it passes the message
through :func:`explain`: each message the app can meet is recognised by a pattern whose named
groups are the message's values (a file name, a line number, the bad value as the engine
quoted it) and re-worded by a catalog message with the same named placeholders, so the bad
value is kept character for character. A message no pattern knows is shown in English under a
translated lead-in, never lost.

The patterns follow the raise sites of ``ndcg_core/io.py``, ``ndcg_core/_decode.py`` and
``ndcg_core/_trec.py`` and ``ndcg_core/_shape.py`` (reading files), ``ndcg_core/_checks.py`` (grades, gains),
``ndcg_core/_ids.py`` and ``ndcg_core/_ranking.py`` (qrels and runs as tables) and
``ndcg_core/compare.py`` (the significance tests) and ``ndcg_core/choices.py`` (choices of
gain and cutoff);
``tests/lab/test_explain_engine_errors.py`` feeds them every bad input of
``tests/bad_input_data.py``, so a re-worded engine message that no longer matches fails a
test instead of falling back silently.

English is returned unchanged: the engine's text is already the English message.
"""

from __future__ import annotations

import re
from typing import Callable

from lab.i18n import SOURCE, t

# Values as the engine writes them: ``.+?`` (they may hold spaces: file names, quoted
# lines), anchored by the words after them; a message must match as a whole. A list's
# grades are "relevance at position i" (ndcg_core.metrics names them so): other names
# (scores, a gain mapping) never reach the app and fall back, as do the checks of tables
# the readers always give whole (an empty id cell, a NaN score, a row wider than its header).
_NAME = r"(?P<name>.+?)"
_ROW = r"(?P<name>.+?) row (?P<row>\d+) \(qid (?P<qid>.+?), docid (?P<docid>.+?)\)"

_PATTERNS: list[tuple[re.Pattern, Callable[..., str]]] = [(re.compile(p, re.S), f) for p, f in [
    # ---- ndcg_core/io.py, _decode.py and _trec.py: reading a file
    (_NAME + r" is empty: it holds no lines to read\.",
     lambda lang, **v: t("{name} is empty: it holds no lines to read.", lang, **v)),
    (_NAME + r" is not a text file \(it holds binary data\): upload a TREC or CSV text file\.",
     lambda lang, **v: t("{name} is not a text file (it holds binary data): upload a TREC or "
                         "CSV text file.", lang, **v)),
    (_NAME + r" is not UTF-8 text \(line (?P<line>\d+), byte (?P<byte>\d+) cannot be "
             r"decoded\): save it as UTF-8 and upload it again\.",
     lambda lang, **v: t("{name} is not UTF-8 text (line {line}, byte {byte} cannot be "
                         "decoded): save it as UTF-8 and upload it again.", lang, **v)),
    (_NAME + r" is (?P<encoding>UTF-\d+) text but line (?P<line>\d+) cannot be decoded "
             r"\(byte (?P<byte>\d+)\): save it as UTF-8 and upload it again\.",
     lambda lang, **v: t("{name} is {encoding} text but line {line} cannot be decoded (byte "
                         "{byte}): save it as UTF-8 and upload it again.", lang, **v)),
    (_NAME + r" ends its lines with CR only \(old Mac line ends\): save it with LF or CRLF "
             r"line ends and upload it again\.",
     lambda lang, **v: t("{name} ends its lines with CR only (old Mac line ends): save it "
                         "with LF or CRLF line ends and upload it again.", lang, **v)),
    (_NAME + r" looks like CSV but its first line is not a header: start it with "
             r"(?P<header>'.*')\.",
     lambda lang, **v: t("{name} looks like CSV but its first line is not a header: start "
                         "it with {header}.", lang, **v)),
    (_NAME + r" has columns (?P<columns>\[.*?\]) but needs (?P<required>\[.*?\]) \(missing "
             r"(?P<missing>\[.*?\])\); write a header line such as (?P<header>'.*')\.",
     lambda lang, **v: t("{name} has columns {columns} but needs {required} (missing "
                         "{missing}); write a header line such as {header}.", lang, **v)),
    (_NAME + r" is not a well-formed CSV file: (?P<detail>.*)",
     lambda lang, **v: t("{name} is not a well-formed CSV file (the CSV reader says, in "
                         "English: {detail})", lang, **v)),
    (_NAME + r" has (?P<columns>[\d,]+) columns in its header line; judgments and runs need "
             r"at most (?P<limit>\d+) \(qid, docid, relevance or score, and a few more\): keep "
             r"those columns and upload it again\.",
     lambda lang, **v: t("{name} has {columns} columns in its header line; judgments and runs "
                         "need at most {limit} (qid, docid, relevance or score, and a few "
                         "more): keep those columns and upload it again.", lang, **v)),
    (_NAME + r" line (?P<line>\d+): a double quote out of place \(a quoted field starts after "
             r"a comma, doubles every quote inside it and closes on its own line\): "
             r"(?P<text>.*)\.",
     lambda lang, **v: t("{name} line {line}: a double quote out of place (a quoted field "
                         "starts after a comma, doubles every quote inside it and closes on "
                         "its own line): {text}.", lang, **v)),
    (_NAME + r" line (?P<line>\d+): expected (?P<fields>\d+) fields as in the header, found "
             r"(?P<found>\d+): (?P<text>.*)\.",
     lambda lang, **v: t("{name} line {line}: expected {fields} fields as in the header, "
                         "found {found}: {text}.", lang, **v)),
    (_NAME + r" line (?P<line>\d+): expected (?P<fields>\d+) fields \((?P<columns>[^)]*)\), "
             r"found (?P<found>\d+): (?P<text>.*)\.",
     lambda lang, **v: t("{name} line {line}: expected {fields} fields ({columns}), found "
                         "{found}: {text}.", lang, **v)),
    (_NAME + r" line (?P<line>\d+): (?P<column>\w+) is (?P<value>.*), expected a finite "
             r"number\.",
     lambda lang, **v: t("{name} line {line}: {column} is {value}, expected a finite number.",
                         lang, **v)),
    (_NAME + r" line (?P<line>\d+): (?P<column>\w+) is empty\.",
     lambda lang, **v: t("{name} line {line}: {column} is empty.", lang, **v)),
    # ---- ndcg_core/_ids.py and _ranking.py: judgments and runs as tables
    (_NAME + r" lists docid (?P<docid>.+?) twice for qid (?P<qid>.+?) \(row (?P<row>\d+)\): "
             r"each document may appear once per query\.",
     lambda lang, **v: t("{name} lists docid {docid} twice for qid {qid} (row {row}): each "
                         "document may appear once per query.", lang, **v)),
    (_ROW + r" has grade (?P<grade>\S+), not a whole number, refused by fractional='error' "
            r"\(pytrec_eval takes integer grades only\); choose fractional='truncate' "
            r"\(trec_eval\) or 'keep'\.",
     lambda lang, **v: t("{name} row {row} (qid {qid}, docid {docid}) has grade {grade}, not "
                         "a whole number, refused by fractional='error' (pytrec_eval takes "
                         "integer grades only); choose fractional='truncate' (trec_eval) or "
                         "'keep'.", lang, **v)),
    (_ROW + r" has negative grade (?P<grade>\S+), refused by negative='error'; choose "
            r"negative='zero' \(trec_eval\) or 'keep'\.",
     lambda lang, **v: t("{name} row {row} (qid {qid}, docid {docid}) has negative grade "
                         "{grade}, refused by negative='error'; choose negative='zero' "
                         "(trec_eval) or 'keep'.", lang, **v)),
    # ---- ndcg_core/_checks.py: grades and gains (a table row, or a list position)
    (_ROW + r" is (?P<grade>\S+): with exponential gain 2\^\S+ − 1 overflows a float\. Use "
            r"linear gain, or grades of at most (?P<limit>\d+)\.",
     lambda lang, **v: t("{name} row {row} (qid {qid}, docid {docid}) is {grade}: with "
                         "exponential gain 2^{grade} − 1 overflows a float. Use linear gain, "
                         "or grades of at most {limit}.", lang, **v)),
    (r"relevance at position (?P<position>\d+) is (?P<grade>\S+): with exponential gain "
     r"2\^\S+ − 1 overflows a float\. Use linear gain, or grades of at most (?P<limit>\d+)\.",
     lambda lang, **v: t("The grade at position {position} is {grade}: with exponential gain "
                         "2^{grade} − 1 overflows a float. Use linear gain, or grades of at "
                         "most {limit}.", lang, **v)),
    (r"the DCG overflows a float: use linear gain or smaller grades\.",
     lambda lang, **v: t("the DCG overflows a float: use linear gain or smaller grades.",
                         lang)),
    (r"relevance at position (?P<position>\d+) is (?P<grade>\S+), a negative grade, "
     r"refused with negative='error' \(as scikit-learn does\)\. .*",
     lambda lang, **v: t("The grade at position {position} is {grade}, a negative grade, "
                         "refused with negative='error' (as scikit-learn does). Use "
                         "negative='zero' to count it as 0 (trec_eval) or negative='keep' to "
                         "use it as written.", lang, **v)),
    (r"relevance at position (?P<position>\d+) is (?P<value>.*?): every value must be a "
     r"finite number\.",
     lambda lang, **v: t("The grade at position {position} is {value}: every value must be "
                         "a finite number.", lang, **v)),
    (r"relevance at position (?P<position>\d+) is (?P<value>.*?), not a number: use "
     r"numbers such as 0, 1, 2, 3\.",
     lambda lang, **v: t("The grade at position {position} is {value}, not a number: use "
                         "numbers such as 0, 1, 2, 3.", lang, **v)),
    # ---- ndcg_core/_compare_input.py: the per-query scores of the runs compared
    (r"compare needs at least 2 queries scored by every system; per_query has (?P<kept>\d+) "
     r"\((?P<dropped>\d+) of (?P<total>\d+) dropped for a NaN score\)\.",
     lambda lang, **v: t("The comparison needs at least 2 queries scored by every run; "
                         "{kept} are ({dropped} of {total} left out, a run has no score "
                         "there).", lang, **v)),
    # ---- ndcg_core/choices.py: the runs scored under every choice of gain and cutoff
    (r"comparing choices needs at least 2 queries scored by every run under every choice; "
     r"(?P<kept>\d+) are \((?P<dropped>\d+) left out\)\. Check that the runs and the "
     r"judgments share query ids\.",
     lambda lang, **v: t("Comparing choices needs at least 2 queries scored by every run "
                         "under every choice; {kept} are ({dropped} left out). Check that the "
                         "runs and the judgments share query ids.", lang, **v)),
    (r"run (?P<run>'.+?'|\".+?\") under choice (?P<choice>'.+?'|\".+?\"): (?P<inner>.+)",
     lambda lang, run, choice, inner: t("Run {run} under choice {choice}: {message}", lang,
                                        run=run, choice=choice,
                                        message=explain(inner, lang))),
]]


def explain(error, lang: str) -> str:
    """An engine ``ValueError`` (or its message) as the app shows it in ``lang``: the
    catalog's wording with the message's own values, or the English text under a lead-in.

    >>> explain("run.txt is empty: it holds no lines to read.", "en")
    'run.txt is empty: it holds no lines to read.'
    >>> explain("run.txt is empty: it holds no lines to read.", "zh")
    'run.txt 是空文件：其中没有可读的行。'
    >>> explain("something new went wrong.", "zh")
    '计算引擎报告了一个问题（英文原文）：something new went wrong.'
    """
    message = str(error)
    if lang == SOURCE:
        return message
    wording = translated(message, lang)
    return wording if wording is not None else t(
        "The engine reports a problem (in English): {message}", lang, message=message)


def translated(message: str, lang: str) -> str | None:
    """The message re-worded by the first pattern that matches it, or None."""
    for pattern, wording in _PATTERNS:
        found = pattern.fullmatch(message.strip())
        if found:
            return wording(lang, **found.groupdict())
    return None
