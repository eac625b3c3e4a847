"""The bad-input matrix: every entry point of NDCG Lab fed broken, extreme and odd input.

One table of cases (:data:`CASES`) and one parametrized test per entry-point family:

* ``table``    the playground's ranking table: grades, labels, add, remove (its events,
  checked and folded as on the server: tests/app/playground_events.py),
* ``pool``     the playground's "Judged but not retrieved" text box,
* ``link``     the shareable link's query parameters (l, g, k, gain, scale, pool),
* ``practice`` typed answers of the Exercises page,
* ``upload``   judgments/run files on "Evaluate your runs" (upload widget or session state).

The command line and the engine's functions have their own matrix beside the engine's tests
(tests/engine/test_bad_input_cli_and_engine.py); the files and the case record are shared
(tests/bad_input_data.py).

Each case names what the user should read (``expect``: substrings of the message that say
what is wrong and how to fix it; ``None`` for odd but valid input, which must be scored with
the engine's numbers). For the app families every case also checks that no exception
reached the page, that what the user entered is still there (``keep``), and that a valid
follow-up interaction works and shows a metric. A case with ``bug`` set documents a defect
reported to the lead: its assertions state the correct behaviour.
"""

from __future__ import annotations

import io
import math
import re
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from ui import state as app_state
from ui import your_data as D
from lab import exercises as E
from lab import playground as P
from lab import rules as R
from playground_events import fire, table_data

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
DEFAULT_GRADES = tuple(P.DEFAULT_GRADES)
DEFAULT_LABELS = list(P.DEFAULT_LABELS)

from bad_input_data import FILES, OVERFLOW_BUG, Case, expected  # noqa: E402


# ------------------------------------------------------------------ AppTest helpers

def unescape(text: str) -> str:
    """Markdown escapes removed: the text as the user reads it."""
    return re.sub(r"\\(.)", r"\1", text)


def alerts(at) -> str:
    return unescape("\n".join(e.value for kind in (at.error, at.warning, at.info)
                              for e in kind))


def no_exception(at, case, step):
    assert not at.exception, (f"{case.id}: a traceback reached the page ({step}): "
                              f"{at.exception[0].value}. {case.bug}")


def metric_values(at) -> dict:
    """{"NDCG@6": "0.961", ...}: on the playground its ranking table's figures as it writes
    them (3 decimals; with both gains each name ends in " (linear)" / " (exponential)";
    empty when they cannot be computed); on other pages their metrics."""
    if not at.get("bidi_component") or "figures" not in table_data(at):
        return {m.label: m.value for m in at.metric}
    d = table_data(at)
    if not d["figures"]:
        return {}
    suffix = (lambda g: f" ({g})") if len(d["gains"]) > 1 else (lambda g: "")
    return {f"{name.upper()}@{d['k']}{suffix(g)}": _three(d['figures'][g][name])
            for g in d["gains"] for name in ("dcg", "idcg", "ndcg")}


def _three(x) -> str:
    """A figure as the table writes it: 3 decimals, "—" when undefined (None, NaN)."""
    return "—" if x is None or math.isnan(x) else f"{x:.3f}"


def check_message(at, case):
    shown = "\n".join([alerts(at)] + list(getattr(at, "refused", [])))
    for text in expected(case):
        assert text in shown, f"{case.id}: expected {text!r} in the page's messages, got " \
                              f"{shown!r}. {case.bug}"
    if case.forbid:
        assert case.forbid not in shown, f"{case.id}: the message wrongly says " \
                                         f"{case.forbid!r}: {shown!r}. {case.bug}"


def open_playground(query=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    at.run()
    return at


def typed(value):
    """What the table sends for a typed grade: the number when the text is one; any other
    text is refused in the browser, so it is sent as it is (a forged report) for the
    server's own check. A cleared cell is empty text."""
    if value is None:
        return ""
    try:
        return float(value) if isinstance(value, str) else value
    except ValueError:
        return value


def edit(at, edited=None, added=(), deleted=()):
    """The table events a user's edits send: row i is the i-th item made; ``edited`` renames
    and grades, then ``deleted`` rows are removed, then ``added`` rows are added (+ Add item,
    then a rename and a grade). Each refusal, as its row shows it ("label: message"), is
    kept in ``at.refused``; then one rerun."""
    made = sorted(pg(at).items, key=lambda it: int(it.id[1:]))
    at.refused = []

    def send(event, label):
        message = fire(at, event)
        if message:
            at.refused.append(f"{label}: {message}")

    for row, change in (edited or {}).items():
        item = made[row]
        if "label" in change:
            send({"action": "rename", "id": item.id, "label": change["label"]}, item.label)
        if "grade" in change:
            send({"action": "grade", "id": item.id, "grade": typed(change["grade"])},
                 item.label)
    for row in deleted:
        send({"action": "remove", "id": made[row].id}, made[row].label)
    # "+ Add item" pressed for every row, then each new row named and graded, as two
    # batches: the reports a browser resends after a slow answer, each event taken in turn
    # on one run (hundreds of rows in two reruns, not three each).
    before = {it.id for it in pg(at).items}
    send_batch(at, [({"action": "add"}, "+ Add item") for _ in added], send)
    new = [it for it in pg(at).items if it.id not in before]
    names = []
    for it, row in zip(new, added):  # an add refused makes no row, and none is named
        if "label" in row:
            names.append(({"action": "rename", "id": it.id, "label": row["label"]}, it.label))
        if "grade" in row:
            names.append(({"action": "grade", "id": it.id, "grade": typed(row["grade"])},
                          row.get("label", it.label)))
    send_batch(at, names, send)
    return at.run()


def send_batch(at, events, send):
    """Send ``events`` ([(event, its row's label)]) as one batch with ``send``, then keep
    the message of each refused event named by its row's id (``send`` keeps the last)."""
    if not events:
        return
    for event, _ in events[:-1]:
        fire(at, event, run=False)
    send(*events[-1])
    shown = table_data(at)["messages"]
    at.refused += [f"{label}: {shown[event['id']]}" for event, label in events[:-1]
                   if event.get("id") in shown]


def pg(at) -> P.Playground:
    return at.session_state["pg"]


def assert_playground_scored(at, case):
    """Metrics shown, each the engine's value for the state the page holds."""
    state, m = pg(at), metric_values(at)
    gains = ("linear", "exponential") if state.gain == "both" else (state.gain,)
    k = state.cutoff
    for gain in gains:
        label = f"NDCG@{k}" + (f" ({gain})" if len(gains) > 1 else "")
        # with the state's own settings (lab.rules: negatives counted 0 by default)
        value = nc.ndcg(state.grades, k=k, ideal=state.judged, **R.engine_options(
            state.rules, gain, state.grades + state.unretrieved))
        assert m.get(label) == _three(value), f"{case.id}: {label} shows {m.get(label)}, " \
                                              f"the engine says {value:.3f}. {case.bug}"


def follow_up_playground(at, case):
    """The page still answers: the case's fix (if any), then 'Ideal order' gives NDCG 1."""
    if case.fix:
        case.fix(at)
        no_exception(at, case, "follow-up fix")
    at.button(key="pg_btn_ideal").click().run()
    no_exception(at, case, "follow-up 'Ideal order'")
    assert not at.error, f"{case.id}: after the follow-up: {alerts(at)}. {case.bug}"
    ndcg = [v for label, v in metric_values(at).items() if label.startswith("NDCG@")]
    assert ndcg and all(v == "1.000" for v in ndcg), f"{case.id}: {metric_values(at)}"
    # the address bar holds a valid link to what is shown
    linked, problem = P.from_query_params(lambda name: url_values(at, name))
    assert problem is None and linked.grades == pg(at).grades, (
        f"{case.id}: the address bar's link does not reopen what is shown: {problem}. "
        f"{case.bug}")


def url_values(at, name) -> list:
    value = at.query_params.get(name, [])
    return value if isinstance(value, list) else [value]


def set_widget(kind, key, value):
    return lambda at: getattr(at, kind)(key=key).set_value(value).run()


def steps(*actions):
    def run(at):
        for action in actions:
            action(at)
    return run


def grades_are(*grades, labels=DEFAULT_LABELS):
    """keep: the rows hold these grades (None: a cleared cell) and the default labels."""
    def check(at):
        state = pg(at)
        return list(state.labels) == list(labels) and [
            None if g is None else float(g) for g in state.grades] == [
            None if g is None else float(g) for g in grades]
    return check


FREE = set_widget("selectbox", "pg_scale", "free")
EXP = set_widget("radio", "pg_gain", "exponential")
LINEAR = set_widget("radio", "pg_gain", "linear")


def back_to_default_grades(at):
    edit(at, {i: {"grade": g} for i, g in enumerate(DEFAULT_GRADES)})


def in_dcg_table(*labels):
    def check(at):
        return all(lab in {r["label"] for r in table_data(at)["rows"]} for lab in labels)
    return check


# ------------------------------------------------------------------ the cases

CHART_BUG = (
    "BUG (ui/playground.py:174, curve_chart): the NDCG@k chart always computes the "
    "exponential curve, so any grade > 1023 under LINEAR gain raises ValueError out of "
    "P.charts (pages/playground.py:46) as a traceback. Fix: catch ValueError per gain in "
    "curve_chart and draw only the curves that can be computed (or skip the chart with a "
    "caption).")

K_LINK_BUG = (
    "BUG (ui/state.py:181 to_query_params -> ranking_query_params:175; ui/controls.py "
    "publish): deleting rows below k keeps pg.k (6) while the page shows k = n, and the "
    "address bar gets k=6 with fewer grades, a link from_query_params refuses "
    "('k = '6' is not a whole number from 1 to 4'): "
    "the shared link opens the default example instead of the user's ranking. Fix: write "
    "k=state.cutoff in to_query_params (and clamp pg.k to n in controls._set / apply_edits), "
    "or accept k > n as n in from_query_params, as the engine does.")


def reopened(at):
    """Open the address bar's link in a fresh session: (grades shown, warnings)."""
    fresh = open_playground(dict(at.query_params))
    return [float(g) for g in pg(fresh).grades], alerts(fresh)


STAYS = "The grade stays"
TABLE = [
    # A typed grade the app cannot take is refused at its row; the old grade stays.
    Case("table-grade-nan", "table", lambda at: edit(at, {2: {"grade": "nan"}}),
         ("Doc C: 'nan' is not a number", f"{STAYS} 3."), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-inf", "table", lambda at: edit(at, {2: {"grade": "inf"}}),
         ("Doc C: 'inf' is not a number", f"{STAYS} 3."), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-minus-inf", "table", lambda at: edit(at, {0: {"grade": "-inf"}}),
         ("Doc A: '-inf' is not a number",), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-not-a-number", "table", lambda at: edit(at, {1: {"grade": "abc"}}),
         ("Doc B: 'abc' is not a number", "type a whole number from 0 to 3", f"{STAYS} 2."),
         keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-cleared", "table", lambda at: edit(at, {1: {"grade": None}}),
         ("Doc B: '' is not a number", f"{STAYS} 2."), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-off-the-scale", "table", lambda at: edit(at, {1: {"grade": "9"}}),
         ("Doc B: 9 is outside the scale: type a whole number from 0 to 3", f"{STAYS} 2."),
         keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-negative-on-the-scale", "table",
         lambda at: edit(at, {1: {"grade": "-1"}}),
         ("Doc B: -1 is outside the scale", f"{STAYS} 2."), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-fractional-on-the-scale", "table",
         lambda at: edit(at, {1: {"grade": "2.5"}}),
         ("Doc B: 2.5 is not a whole number", f"{STAYS} 2."), keep=grades_are(*DEFAULT_GRADES)),
    Case("table-grade-negative", "table",
         steps(FREE, lambda at: edit(at, {0: {"grade": -1}})), None,
         keep=grades_are(-1, 2, 3, 0, 1, 2)),
    Case("table-grade-fractional", "table",
         steps(FREE, lambda at: edit(at, {0: {"grade": 2.5}})), None,
         keep=grades_are(2.5, 2, 3, 0, 1, 2)),
    Case("table-grade-1000-exponential", "table",
         steps(FREE, EXP, lambda at: edit(at, {3: {"grade": 1000}})), None,
         keep=grades_are(3, 2, 3, 1000, 1, 2)),
    Case("table-grade-2000-exponential", "table",
         steps(FREE, EXP, lambda at: edit(at, {0: {"grade": 2000}})),
         ("position 1 is 2000", "overflows", "Use linear gain"),
         keep=grades_are(2000, 2, 3, 0, 1, 2), fix=lambda at: edit(at, {0: {"grade": 3}})),
    Case("table-grade-2000-linear", "table",
         steps(FREE, lambda at: edit(at, {0: {"grade": 2000}})), None,
         keep=grades_are(2000, 2, 3, 0, 1, 2), bug=CHART_BUG),
    Case("table-grades-1023x3-exponential-overflow", "table",
         steps(FREE, EXP, lambda at: edit(at, {i: {"grade": 1023} for i in range(3)})),
         "overflow", keep=grades_are(1023, 1023, 1023, 0, 1, 2),
         fix=back_to_default_grades, bug=OVERFLOW_BUG),
    # Delete on every row in turn: the last one stays, and its row says why.
    Case("table-remove-every-row", "table", lambda at: edit(at, deleted=range(6)),
         "Doc F: The list needs at least one item",
         keep=grades_are(2, labels=["Doc F"])),
    Case("table-one-item", "table", lambda at: edit(at, deleted=range(1, 6)), None,
         keep=grades_are(3, labels=["Doc A"]), bug=K_LINK_BUG),
    Case("table-remove-rows-below-k-then-reopen-link", "table",
         lambda at: edit(at, deleted=[4, 5]), None,
         keep=lambda at: reopened(at) == ([3, 2, 3, 0], ""), bug=K_LINK_BUG),
    Case("table-200-items", "table",
         lambda at: edit(at, added=[{"label": f"x{i}", "grade": i % 4} for i in range(194)]),
         None, keep=lambda at: len(pg(at).items) == 200 and pg(at).labels[-1] == "x193"),
    Case("table-over-200-items", "table",
         lambda at: edit(at, added=[{"label": f"x{i}", "grade": 1} for i in range(300)]),
         "The list holds at most 200 items",
         keep=lambda at: len(pg(at).items) == 200 and pg(at).labels[6] == "x0"),
    Case("table-duplicate-labels", "table", lambda at: edit(at, {1: {"label": "Doc A"}}),
         None, keep=lambda at: pg(at).labels[:2] == ("Doc A", "Doc A",)
         and [r["label"] for r in table_data(at)["rows"]][:2] == ["Doc A", "Doc A"]),
    Case("table-rtl-and-emoji-labels", "table",
         lambda at: edit(at, {0: {"label": "مستند"}, 1: {"label": "שלום"},
                              2: {"label": "📄🔥"}}), None,
         keep=lambda at: pg(at).labels[:3] == ("مستند", "שלום", "📄🔥",)
         and in_dcg_table("مستند", "שלום", "📄🔥")(at)),
    Case("table-blank-label", "table", lambda at: edit(at, {0: {"label": "   "}}),
         "Doc A: A label cannot be empty",
         keep=lambda at: pg(at).labels[0] == "Doc A" and pg(at).grades == DEFAULT_GRADES),
]

POOL = [
    Case("pool-word", "pool", "3, two", ("two', which is not a number",
                                         "separated by commas")),
    Case("pool-inf", "pool", "3, inf", "not a finite number"),
    Case("pool-semicolons", "pool", "3;2", ("'3;2', which is not a number",
                                            "separated by commas")),
    Case("pool-nan", "pool", "nan", "not a finite number"),
]

FALLBACK = "so the default example is shown instead"
is_default = grades_are(*DEFAULT_GRADES)


def link_state(grades, labels=None):
    def check(at):
        state = pg(at)
        return [float(g) for g in state.grades] == [float(g) for g in grades] and (
            labels is None or list(state.labels) == list(labels))
    return check


def edited_then_tampered(at):
    edit(at, {0: {"label": "Mine", "grade": 1}})
    at.query_params["g"] = "3,x"
    at.run()


LINK = [
    Case("link-trailing-comma", "link", {"g": "3,2,"}, None, keep=link_state([3, 2])),
    Case("link-cut-inside-grades", "link", {"l": ["a", "b", "c"], "g": "3,2,"},
         ("3 labels but 2 grades", FALLBACK), keep=is_default),
    Case("link-cut-before-grades", "link", {"l": ["Doc A", "Do"]}, "could not be read",
         keep=is_default,
         bug="BUG (ui/state.py:216, from_query_params): a link cut before its grades "
             "(?l=Doc+A&l=Do) is ignored without a word. Fix: when l/k/gain/scale/pool are "
             "present but g is not, return (None, 'it has labels or settings but no grades "
             "(g)') so load() shows the notice."),
    Case("link-k-not-a-number", "link", {"g": "3,2", "k": "abc"},
         "k = 'abc' is not a whole number from 1 to 2", keep=is_default),
    Case("link-k-zero", "link", {"g": "3,2", "k": "0"},
         "k = '0' is not a whole number from 1 to 2", keep=is_default),
    Case("link-k-fraction", "link", {"g": "3,2", "k": "1.5"},
         "k = '1.5' is not a whole number", keep=is_default),
    Case("link-k-above-n", "link", {"g": "3,2", "k": "9"}, "from 1 to 2", keep=is_default),
    Case("link-k-empty", "link", {"g": "3,2", "k": ""}, "is not a whole number",
         keep=is_default),
    Case("link-scale-weird", "link", {"g": "3,2", "scale": "weird"},
         "scale 'weird' is not one of 0-3, 0-4, binary, free", keep=is_default),
    Case("link-gain-weird", "link", {"g": "3,2", "gain": "cubic"},
         "gain 'cubic' is not one of linear, exponential, both", keep=is_default),
    Case("link-pool-not-a-number", "link", {"g": "3,2", "pool": "x"},
         "'x', which is not a number", keep=is_default),
    Case("link-grade-nan", "link", {"g": "3,nan"}, "'nan', which is not a finite number",
         keep=is_default),
    Case("link-grade-1e400", "link", {"g": "1e400,1"}, "not a finite number",
         keep=is_default),
    Case("link-grade-word", "link", {"g": "3,abc,1"}, "'abc', which is not a number",
         keep=is_default),
    Case("link-grades-empty", "link", {"g": ""}, "empty", keep=is_default),
    Case("link-201-items", "link", {"g": ",".join(["1"] * 201)},
         "it has 201 items; the playground holds 200", keep=is_default),
    Case("link-200-items", "link", {"g": ",".join(str(i % 4) for i in range(200))}, None,
         keep=link_state([i % 4 for i in range(200)])),
    Case("link-one-item", "link", {"g": "3", "l": ["only"]}, None,
         keep=link_state([3], ["only"])),
    Case("link-grade-outside-scale", "link", {"g": "3,9", "scale": "0-3"},
         "outside the 0–3 scale", keep=is_default),
    Case("link-rtl-and-emoji-labels", "link", {"g": "3,2,1", "l": ["مستند", "שלום", "📄"]},
         None, keep=lambda at: link_state([3, 2, 1], ["مستند", "שלום", "📄"])(at)
         and in_dcg_table("مستند", "שלום", "📄")(at)),
    Case("link-duplicate-labels", "link", {"g": "1,2", "l": ["same", "same"]}, None,
         keep=link_state([1, 2], ["same", "same"])),
    Case("link-negative-grade", "link", {"g": "-1,2"}, None, keep=link_state([-1, 2])),
    Case("link-grade-2000-exponential", "link", {"g": "2000,1", "gain": "exponential"},
         ("2^2000", "Use linear gain", "nothing you entered is lost"),
         keep=link_state([2000, 1]), fix=LINEAR, bug=CHART_BUG),
    Case("link-grades-1023x3-exponential-overflow", "link",
         {"g": "1023,1023,1023", "gain": "exponential"}, "overflow",
         keep=link_state([1023] * 3), fix=lambda at: edit(at, {0: {"grade": 3}, 1: {
             "grade": 2}, 2: {"grade": 1}}), bug=OVERFLOW_BUG),
    Case("link-tampered-after-edits", "link", edited_then_tampered,
         "'x', which is not a number", forbid="default example is shown",
         keep=lambda at: pg(at).labels[0] == "Mine" and pg(at).grades[0] == 1,
         bug="BUG (ui/controls.py:44, load): when a bad link arrives while the user has a ranking, "
             "the user's ranking is kept (right) but the notice says 'the default example is "
             "shown instead' (wrong). Fix: word the notice by what happened, e.g. '..., so "
             "your current ranking is kept.' when 'pg' was already in session state."),
]

PRACTICE = [
    Case("practice-word", "practice", ("abc", "", ""),
         ("“abc” is not a number", "e.g. 0.972", "nothing typed yet", "Nothing was graded")),
    Case("practice-decimal-comma", "practice", ("0,972", "1", "1"),
         ("“0,972” uses a comma", "write decimals with a point, e.g. 0.972")),
    Case("practice-all-empty", "practice", ("", "", ""), "nothing typed yet"),
    Case("practice-huge", "practice", ("1e999", "1", "1"),
         ("“1e999” is too large", "rounded to 3 decimals")),
    Case("practice-nan-inf", "practice", ("nan", "inf", "-inf"),
         ("“nan” is not a number", "“inf” is not a number", "“-inf” is not a number")),
    Case("practice-markdown-is-shown-as-text", "practice", ("**x**", "$1$", "<b>"),
         ("“**x**” is not a number", "“$1$” is not a number", "“<b>” is not a number"),
         keep=lambda at: "\\*\\*x\\*\\*" in "".join(e.value for e in at.error)),
    Case("practice-emoji", "practice", ("📈", "1", "1"), "“📈” is not a number"),
    Case("practice-fraction", "practice", ("1/2", "1", "1"), "“1/2” is not a number"),
    Case("practice-compare-without-a-pick", "practice", None, "pick ranking A or ranking B"),
]

LIMIT_MB = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"][
    "maxUploadSize"]


def files(via="state", gain=None, **slots):
    return {"via": via, "gain": gain, "files": {s: (name, FILES[name])
                                                for s, name in slots.items()}}


UPLOAD = [
    Case("upload-0-byte", "upload", files("widget", qrels="empty.txt", run_a="run.run"),
         ("empty.txt is empty", "no lines to read")),
    Case("upload-blank-lines", "upload", files(qrels="blank.txt", run_a="run.run"),
         "blank.txt is empty"),
    Case("upload-binary", "upload", files("widget", qrels="binary.dat", run_a="run.run"),
         ("not a text file", "upload a TREC or CSV text file")),
    Case("upload-truncated-line", "upload", files(qrels="truncated.txt", run_a="run.run"),
         ("line 5: expected 4 fields (qid iteration docid relevance), found 3", "'2 0 d5'")),
    Case("upload-wrong-columns", "upload",
         files("widget", qrels="columns.csv", run_a="run.run"),
         ("needs ['qid', 'docid', 'relevance']", "write a header line such as")),
    Case("upload-wrong-separator", "upload", files(qrels="semicolons.csv", run_a="run.run"),
         ("line 1: expected 4 fields", "found 1", "'qid;docid;relevance'")),
    Case("upload-run-as-judgments", "upload", files(qrels="run.run", run_a="run.run"),
         ("expected 4 fields (qid iteration docid relevance), found 6")),
    Case("upload-judgments-as-run", "upload", files(qrels="qrels.txt", run_a="qrels.txt"),
         ("expected 6 fields (qid Q0 docid rank score tag), found 4", "Now upload a run")),
    Case("upload-grade-nan", "upload", files(qrels="nan.txt", run_a="run.run"),
         "line 1: relevance is 'nan', expected a finite number"),
    Case("upload-not-utf8", "upload", files(qrels="latin1.txt", run_a="run.run"),
         ("is not UTF-8 text (line 1", "save it as UTF-8")),
    Case("upload-header-only", "upload", files(qrels="header.csv", run_a="run.run"),
         "has a header but no data lines"),
    Case("upload-duplicate-doc-in-judgments", "upload", files(qrels="dup.txt", run_a="run.run"),
         ("lists docid 'd1' twice for qid '1'", "once per query")),
    Case("upload-duplicate-doc-in-run", "upload", files(qrels="qrels.txt", run_a="dup.run"),
         ("run lists docid 'd1' twice for qid '1'", "once per query")),
    Case("upload-grade-2000-exponential", "upload",
         files(gain="exponential", qrels="huge.txt", run_a="run.run"),
         ("2^2000 − 1 overflows a float", "Use linear gain")),
    Case("upload-grades-1023x3-exponential-overflow", "upload",
         files(gain="exponential", qrels="huge3.txt", run_a="run.run"), "overflow",
         bug=OVERFLOW_BUG),
    Case("upload-infinite-score", "upload", files(qrels="qrels.txt", run_a="inf.run"),
         "score is 'inf', expected a finite number"),
    Case("upload-no-shared-query", "upload", files(qrels="other.txt", run_a="run.run"),
         "check that both files use the same query ids"),
    Case("upload-rtl-and-emoji-ids", "upload",
         files("widget", qrels="rtl.txt", run_a="rtl.run"), None),
    Case("upload-negative-and-fractional-grades", "upload",
         files(qrels="odd.txt", run_a="run.run"), None),
]


CASES = TABLE + POOL + LINK + PRACTICE + UPLOAD
assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"


def family(name):
    return [c for c in CASES if c.entry == name]


# ------------------------------------------------------------------ playground table

@pytest.mark.parametrize("case", family("table"), ids=str)
def test_playground_table(case):
    at = open_playground()
    case.action(at)
    no_exception(at, case, "after the edit")
    if case.expect is None:
        assert not at.error, f"{case.id}: {alerts(at)}"
        assert_playground_scored(at, case)
    else:
        check_message(at, case)
    assert case.keep(at), f"{case.id}: the 'keep' check failed; rows: {pg(at).labels[:8]} " \
                          f"{pg(at).grades[:8]} ({len(pg(at).items)} items). {case.bug}"
    at.run()  # a plain rerun changes nothing
    no_exception(at, case, "rerun")
    assert case.keep(at), case.id
    follow_up_playground(at, case)


# ------------------------------------------------------------------ judged pool text

@pytest.mark.parametrize("case", family("pool"), ids=str)
def test_playground_pool_text(case):
    at = open_playground()
    at.text_input(key="pg_unretrieved_text").input(case.action).run()
    no_exception(at, case, "after typing")
    check_message(at, case)
    assert at.text_input(key="pg_unretrieved_text").value == case.action, "the typed text was lost"
    assert pg(at).unretrieved == () and pg(at).grades == DEFAULT_GRADES
    assert_playground_scored(at, case)  # the figures stay up meanwhile
    at.text_input(key="pg_unretrieved_text").input("3, 2").run()  # fixed
    no_exception(at, case, "after the fix")
    assert not at.error and pg(at).unretrieved == (3.0, 2.0)
    assert metric_values(at)["IDCG@6"] == f"{nc.idcg(list(DEFAULT_GRADES) + [3, 2], k=6):.3f}"


# ------------------------------------------------------------------ shareable link

@pytest.mark.parametrize("case", family("link"), ids=str)
def test_shareable_link(case):
    if callable(case.action):
        at = open_playground()
        case.action(at)
    else:
        at = open_playground(case.action)
    no_exception(at, case, "opening the link")
    if case.expect is None:
        assert not at.error and not at.warning, f"{case.id}: {alerts(at)}"
        assert_playground_scored(at, case)
    else:
        check_message(at, case)
    assert case.keep(at), f"{case.id}: the 'keep' check failed; rows: {pg(at).labels[:8]} " \
                          f"{pg(at).grades[:8]}. {case.bug}"
    at.run()
    no_exception(at, case, "rerun")
    assert case.keep(at), case.id
    follow_up_playground(at, case)


# ------------------------------------------------------------------ practice answers

def open_practice(kind) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/practice.py").run()
    if kind == "compare":
        at.radio(key="px_kind").set_value("compare").run()
    return at


def current_exercise(at) -> E.Exercise:
    ss = at.session_state
    return E.generate(int(ss["px_number"]), ss["px_level"], ss["px_kind"])


@pytest.mark.parametrize("case", family("practice"), ids=str)
def test_practice_answers(case):
    kind = "compare" if case.action is None else "compute"
    at = open_practice(kind)
    if kind == "compute":
        for step, text in zip(E.STEPS, case.action):
            at.text_input(key=f"px_{step}").input(text)
    at.button(key="px_check").click().run()
    no_exception(at, case, "checking")
    check_message(at, case)
    assert metric_values(at)["Score"] == "0 / 0", "an unreadable answer must not be graded"
    if kind == "compute":
        typed = [at.text_input(key=f"px_{s}").value for s in E.STEPS]
        assert typed == list(case.action), f"{case.id}: the typed answers were lost: {typed}"
    if case.keep:
        assert case.keep(at), case.id
    # follow-up: the right answer is accepted and counted
    solution = E.solution(current_exercise(at))
    if kind == "compute":
        for step in E.STEPS:
            at.text_input(key=f"px_{step}").input(f"{solution[step]:.4f}")
    else:
        at.radio(key="px_choice").set_value(solution["winner"])
    at.button(key="px_check").click().run()
    no_exception(at, case, "follow-up")
    assert not at.error and at.success, f"{case.id}: {alerts(at)}"
    assert metric_values(at)["Score"] == "1 / 1"


# ------------------------------------------------------------------ uploads

def open_your_data() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/your_data.py").run()
    return at


def shown_mean(at, run: str, k=5) -> str:
    """Mean NDCG@k of one run (named by its file) in the page's headline table."""
    table = next((d.value for d in at.dataframe if "queries" in d.value.columns), None)
    if table is None or run not in set(table["run"]):
        return "(no mean shown)"
    return f"{table.set_index('run').loc[run, f'NDCG@{k}']:.4f}"


def shown_means(at) -> list:
    table = next((d.value for d in at.dataframe if "queries" in d.value.columns), None)
    return [] if table is None else table.filter(regex=r"^NDCG@\d+$").stack().tolist()


def expected_mean(qrels: bytes, run: bytes, k=5, **options) -> str:
    table = nc.evaluate(nc.read_qrels(io.BytesIO(qrels)), nc.read_run(io.BytesIO(run)), k=k,
                        **options)
    return f"{table[f'ndcg@{k}'].mean():.4f}"


@pytest.mark.parametrize("case", family("upload"), ids=str)
def test_upload(case):
    at = open_your_data()
    spec = case.action
    (qname, qdata), (rname, rdata) = spec["files"]["qrels"], spec["files"]["run_a"]
    if spec["via"] == "widget":
        at.file_uploader(key="yd_upload_qrels_0").set_value((qname, qdata, "text/plain"))
        at.file_uploader(key="yd_upload_runs_0").set_value([(rname, rdata, "text/plain")])
    else:
        at.session_state[app_state.YD_FILES] = {"qrels": {"name": qname, "data": qdata},
                                                "runs": [{"name": rname, "data": rdata}]}
    at.run()
    if spec["gain"]:
        at.selectbox(key="yd_gain").set_value(spec["gain"]).run()
    no_exception(at, case, "reading the files")
    if case.expect is None:
        assert not at.error, f"{case.id}: {alerts(at)}"
        assert shown_mean(at, rname) == expected_mean(qdata, rdata)
    else:
        check_message(at, case)
        assert all(math.isfinite(v) for v in shown_means(at)), \
            f"{case.id}: a mean is shown as {shown_means(at)}. {case.bug}"
    # nothing is lost: a rerun reads the same files and says the same
    before = alerts(at)
    at.run()
    no_exception(at, case, "rerun")
    assert alerts(at) == before
    if spec["via"] == "widget":
        held = at.file_uploader(key="yd_upload_qrels_0").value
        runs = at.file_uploader(key="yd_upload_runs_0").value
        assert held is not None and held.name == qname
        assert [f.name for f in runs] == [rname]
    # follow-up: the sample still loads and is evaluated
    at.button(key="yd_sample").click().run()
    no_exception(at, case, "loading the sample")
    first = D.SAMPLE_RUNS[0]
    opts = {"gain": spec["gain"]} if spec["gain"] else {}
    assert shown_mean(at, first) == expected_mean(
        (D.SAMPLE_DIR / D.SAMPLE_QRELS).read_bytes(), (D.SAMPLE_DIR / first).read_bytes(),
        **opts)


@pytest.mark.parametrize("slot", list(D.SLOTS))
def test_upload_over_the_limit_is_stopped_at_the_stated_size(slot):
    """The app has no size check of its own: Streamlit's uploader refuses a file above
    server.maxUploadSize. Each uploader carries the configured limit and the page states it."""
    at = open_your_data()
    assert not at.exception
    widget = at.file_uploader(key=f"yd_upload_{slot}_0")
    assert widget.proto.max_upload_size_mb == LIMIT_MB
    assert any(f"up to {LIMIT_MB} MB each" in c.value for c in at.caption), \
        [c.value for c in at.caption]
