"""Security checks: user text stays text, the app talks only to itself, XSRF is on.

- Labels from a shared link and ids from uploaded files that hold HTML/JS are shown verbatim
  and never run (no dialog, no injected element).
- Links, images, HTML and autolinks (bare https://, http://, www., e-mail addresses) in link
  parameters, file names, ids and CSV headers never become an <a> or an <img> (issue 21).
- No page renders raw HTML (static check of the sources).
- A whole browser session requests only the app's own origin: no CDN, no telemetry.
- The config turns usage stats off, XSRF protection on and caps uploads; the running server
  sets the XSRF cookie and refuses an upload without its token.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

import ndcg_core as nc
from lab.playground import ranking_query_params
from conftest import choose_on, upload_on

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 15_000  # a rerun or a lazy element on two busy cores: up to the reruns' timeout
XSS_IMG = "<img src=x onerror=alert(1)>"
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_SCRIPT_2 = "<script>alert(2)</script>"
XSS_IMG_3 = "<img src=x onerror=alert(3)>"
# Anything the payloads could have injected, searched in the page and in every shadow root.
INJECTED_JS = """() => {
  const roots = [document];
  let found = 0;
  while (roots.length) {
    const root = roots.pop();
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    found += root.querySelectorAll('img[src="x"], img[onerror], svg[onload]').length;
    found += [...root.querySelectorAll('script')]
      .filter((s) => s.textContent.includes('alert(')).length;
  }
  return found;
}"""
# Lazy elements have drawn: no loading skeleton left, and every shown table, chart and list
# has its content (a table in a closed expander never draws, so only shown ones count).
RENDERED_JS = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  return !document.querySelector("[data-testid='stSkeleton']")
    && shown("[data-testid='stDataFrame']").every((f) => f.querySelector("table[role='grid']"))
    && shown("[data-testid='stPlotlyChart']").every((c) => c.querySelector('.main-svg'))
    && shown("[data-testid='stBidiComponentIsolated']")
         .every((h) => h.shadowRoot && h.shadowRoot.querySelector('.ndcg-row, .rt-row, .fx-line, .cm-editor'));
}"""


# ------------------------------------------------------------------ helpers

def watch_dialogs(page: Page) -> list[str]:
    """Record (and dismiss) every alert/confirm/prompt the page opens."""
    seen: list[str] = []

    def on_dialog(dialog) -> None:
        seen.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return seen


def wait_rendered(page: Page) -> None:
    """Wait until lazy elements (tables, charts, the ranked list) have drawn."""
    page.wait_for_function(RENDERED_JS, timeout=30_000)


def grid_texts(frame: Locator) -> list[str]:
    """Texts of the cells of a st.dataframe / st.data_editor (its accessible table)."""
    return frame.locator("table[role='grid'] td").evaluate_all(
        "tds => tds.map(td => td.textContent)")


def dataframe_under(page: Page, text: str) -> Locator:
    """The st.dataframe in the column whose heading or caption contains ``text``."""
    column = page.get_by_test_id("stColumn").filter(has=page.get_by_text(text)).filter(
        has=page.get_by_test_id("stDataFrame"))
    return column.get_by_test_id("stDataFrame")


ROWS = ".rt-list-rank .rt-row"  # the playground's ranking table (ui/ranking_table)


def labels_in_list(page: Page) -> list[str]:
    return page.locator(f"{ROWS} .rt-label-text").all_text_contents()


def labels_in_ideal(page: Page) -> list[str]:
    return page.locator(".rt-list-ideal .rt-row .rt-label-text").all_text_contents()


def expect_nothing_ran(page: Page, dialogs: list[str]) -> None:
    page.wait_for_timeout(300)  # an onerror handler fires right after the image fails
    assert dialogs == []
    assert page.evaluate(INJECTED_JS) == 0


def english_title(node: ast.AST) -> str:
    """A page's title in app.py: a literal, or ``t("Title", lang)`` (lab.i18n's lookup,
    whose first argument is the English text the sidebar shows in English)."""
    if isinstance(node, ast.Call):
        node = node.args[0]
    return node.value


def app_pages() -> list[tuple[str, str]]:
    """(file, title) of every st.Page registered in app.py."""
    tree = ast.parse((ROOT / "app.py").read_text())
    pages = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page":
            kw = {k.arg: k.value for k in node.keywords}
            if "visibility" in kw and kw["visibility"].value == "hidden":
                continue  # /playground: the default page again under its own name
            pages.append((node.args[0].value, english_title(kw["title"])))
    return pages


# ------------------------------------------------------------------ user text stays text

def test_a_shared_link_with_html_labels_shows_them_as_text(page: Page, app_url,
                                                          open_app) -> None:
    """A link whose labels are HTML/JS shows them verbatim in the table and its ideal
    ordering; nothing runs."""
    dialogs = watch_dialogs(page)
    labels = [XSS_IMG, XSS_SCRIPT, "Doc C"]
    grades = [1, 3, 2]
    query = urlencode(ranking_query_params(labels, grades, k=2), doseq=True)
    open_app(page, f"{app_url}/?{query}")
    expect(page.locator(ROWS)).to_have_count(3, timeout=WAIT_MS)
    wait_rendered(page)

    assert labels_in_list(page) == labels
    for label in labels:
        expect(page.locator(ROWS).locator(".rt-label-text").get_by_text(
            label, exact=True)).to_be_visible()
    assert set(labels_in_ideal(page)) == set(labels)
    expect(page.locator("[data-figure='ndcg-linear']")).to_have_text(
        f"{nc.ndcg(grades, k=2):.3f}")
    expect_nothing_ran(page, dialogs)


QRELS_CSV = "\n".join([
    "qid,docid,relevance",
    f"{XSS_SCRIPT},{XSS_IMG},3",
    f"{XSS_SCRIPT},{XSS_SCRIPT_2},1",
    f"{XSS_SCRIPT},d3,0",
    f"{XSS_IMG_3},d9,2",  # judged, absent from the run: named in a caption
    "",
]).encode()
RUN_CSV = "\n".join([
    "qid,docid,score",
    f"{XSS_SCRIPT},d3,3.0",
    f"{XSS_SCRIPT},{XSS_IMG},2.0",
    f"{XSS_SCRIPT},{XSS_SCRIPT_2},1.0",
    "",
]).encode()
QRELS_NAME = "<img src=x onerror=alert(4)>.csv"


def test_uploaded_ids_with_html_show_as_text(page: Page, app_url, open_app,
                                             wait_idle) -> None:
    """Uploaded query/doc ids and a file name holding HTML/JS show verbatim; nothing runs."""
    dialogs = watch_dialogs(page)
    open_app(page, app_url)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Evaluate your runs").click()
    wait_idle(page)
    upload_on(page, "Judgments",
              [{"name": QRELS_NAME, "mimeType": "text/csv", "buffer": QRELS_CSV}])
    upload_on(page, "Runs", [{"name": "run.csv", "mimeType": "text/csv", "buffer": RUN_CSV}])
    expect(page.get_by_role("heading", name="Mean over queries")).to_be_visible(timeout=WAIT_MS)
    wait_rendered(page)

    captions = page.get_by_test_id("stCaptionContainer")
    expect(captions.filter(has_text=f"Judgments: {QRELS_NAME} — 2 queries")).to_be_visible()
    expect(captions.filter(has_text="not in the run").filter(has_text=XSS_IMG_3)
           ).to_be_visible()
    per_query = page.get_by_test_id("stTabs").get_by_test_id("stDataFrame")  # the open tab's
    assert XSS_SCRIPT in grid_texts(per_query)
    query = page.get_by_test_id("stSelectbox").filter(has_text="Query")
    expect(query.get_by_role("combobox")).to_have_value(XSS_SCRIPT)
    expect_nothing_ran(page, dialogs)

    # The query's ranking, with the doc ids as labels, opens in the playground.
    page.get_by_role("button", name="Open in playground").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Playground")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator(ROWS)).to_have_count(3, timeout=WAIT_MS)
    wait_rendered(page)
    assert labels_in_list(page) == ["d3", XSS_IMG, XSS_SCRIPT_2]
    assert {XSS_IMG, XSS_SCRIPT_2} <= set(labels_in_ideal(page))
    expect_nothing_ran(page, dialogs)


# ------------------------------------------------------------------ no link from user text

# Every form Markdown (GitHub-flavoured, as Streamlit renders it) could turn into a link or an
# image; each points at evil.example, so any <a>/<img> aiming there came from user text.
LINK_FORMS = ["[Sign in again](https://evil.example/login)", "![p](http://evil.example/p.png)",
              "Sign in at https://evil.example/login", "see http://evil.example/x",
              "www.evil.example/login", "help@evil.example", "<https://evil.example/login>",
              '<a href="https://evil.example/a">a</a><img src="https://evil.example/i.png">']
# <a>/<img> (and any href/src) anywhere in the page or its components' shadow roots whose
# target names evil.example or is a piece of the user's text (a form cut short, as a notice
# quotes it, links a shorter address), or an <a> whose text is such a piece.
EVIL_TARGETS_JS = """(forms) => {
  const fromUser = (v) => /evil/i.test(v)
    || (v.trim().length >= 4 && forms.some((f) => f.includes(v.trim())));
  const roots = [document];
  const found = [];
  while (roots.length) {
    const root = roots.pop();
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      for (const name of ['href', 'src', 'srcset', 'xlink:href', 'action', 'formaction']) {
        const v = el.getAttribute(name);
        if (v && fromUser(v)) found.push(`${el.tagName} ${name}=${v}`);
      }
      if (el.tagName.toLowerCase() === 'a' && fromUser(el.textContent.replaceAll('\\u2060', '')))
        found.push(`A text=${el.textContent}`);
    }
  }
  return found;
}"""


def expect_no_link_from_user_text(page: Page, seen_text: str) -> None:
    """The page quotes the user's text (``seen_text``, invisible joiners aside) and holds no
    <a>/<img> aiming at it."""
    wait_rendered(page)
    body = page.locator("body").inner_text().replace("\u2060", "")
    assert seen_text in body, f"{seen_text!r} is not quoted on the page: the case tests nothing"
    assert page.evaluate(EVIL_TARGETS_JS, LINK_FORMS) == []


@pytest.mark.parametrize("param", ["gain", "k", "scale", "unretrieved", "pool", "g"])
def test_link_parameters_never_become_links(page: Page, app_url, open_app, param) -> None:
    """/?g=1,2&gain=[Sign in again](https://evil.example/login) and every other form, in each
    link parameter the "could not be read" notice quotes: the notice shows the text, and no
    link or image aims at evil.example."""
    for form in LINK_FORMS:
        params = {"g": "1,2", param: form}
        open_app(page, f"{app_url}/?{urlencode(params)}")
        notice = page.get_by_test_id("stAlertContentWarning").filter(
            has_text="could not be read")
        expect(notice).to_be_visible(timeout=WAIT_MS)
        expect_no_link_from_user_text(page, form[:8])  # k's notice quotes 20 characters


def test_labels_never_become_links(page: Page, app_url, open_app) -> None:
    """Labels from a link in the ranking table, and in the warning a narrower scale gives."""
    grades = [9] * len(LINK_FORMS)
    query = urlencode(ranking_query_params(LINK_FORMS, grades, scale="free"), doseq=True)
    open_app(page, f"{app_url}/?{query}")
    expect(page.locator(ROWS)).to_have_count(len(LINK_FORMS), timeout=WAIT_MS)
    assert labels_in_list(page) == LINK_FORMS
    choose_on(page, "Grade scale", "0–3")
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="Outside")
           ).to_be_visible(timeout=WAIT_MS)
    expect_no_link_from_user_text(page, "Sign in again")


def test_file_names_ids_and_csv_headers_never_become_links(page: Page, app_url, open_app,
                                                           wait_idle) -> None:
    """Uploaded file names, query and document ids, grades and CSV headers holding every
    form: quoted in captions and errors, none a link or an image."""
    rows = [("qid", "docid", "relevance"), ("1", "d1", "2"), ("1", "d2", "0")]
    rows += [(form, form, "1") for form in LINK_FORMS]  # judged queries the run lacks
    qrels = "\n".join(",".join('"' + c.replace('"', '""') + '"' for c in r) for r in rows)
    run = b"qid,docid,score\n1,d1,1.0\n1,d2,2.0\n"
    open_app(page, app_url)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Evaluate your runs").click()
    wait_idle(page)
    upload_on(page, "Judgments", [{"name": "help@evil.example www.evil.example.csv",
                                   "mimeType": "text/csv", "buffer": qrels.encode()}])
    upload_on(page, "Runs", [
        {"name": "https://evil.example/r.csv", "mimeType": "text/csv", "buffer": run},
        {"name": "[x](https://evil.example/b).csv", "mimeType": "text/csv",
         "buffer": b"qid,docid,https://evil.example/h\n1,d1,1.0\n"}])
    expect(page.get_by_role("heading", name="Mean over queries")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("evil.example/h")
    expect_no_link_from_user_text(page, "help@evil.example www.evil.example.csv")
    expect_no_link_from_user_text(page, "Sign in at https://evil.example/login")


# ------------------------------------------------------------------ no raw HTML in the code

SOURCES = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py"),
                  *(ROOT / "lab").glob("*.py")])
# The components (each defined once, in its own package, from its own static files).
# Each component's markup and style, and the file that writes its text (dom.js: `el`, which
# both lists' JavaScript is joined with; ui/ranking_table/__init__.py's module_js).
COMPONENTS = {ROOT / "ui" / pkg / "__init__.py": {
    "html": ROOT / "ui" / pkg / f"{pkg}.html", "css": ROOT / "ui" / pkg / f"{pkg}.css",
    "js": ROOT / "ui" / "ranking_table" / "dom.js"} for pkg in ("sortable", "ranking_table")}
# The code editor: CodeMirror bundled into editor.js (no HTML sink in it, checked below);
# its own words are written by src/editor.js's setText.
COMPONENTS[ROOT / "ui" / "code_editor" / "__init__.py"] = {
    "html": ROOT / "ui" / "code_editor" / "code_editor.html",
    "css": ROOT / "ui" / "code_editor" / "code_editor.css",
    "js": ROOT / "ui" / "code_editor" / "src" / "editor.js"}
# Faceless components that act on the page (scroll to a shared example, fold the sidebar):
# static markup, and JS that writes no text at all.
COMPONENTS[ROOT / "ui" / "page_hooks" / "__init__.py"] = {
    "html": ROOT / "ui" / "page_hooks" / "page_hooks.html",
    "css": ROOT / "ui" / "page_hooks" / "page_hooks.css", "js": None}
# The copy button (class mode's teacher link): static markup, its words written by its own
# setText.
COMPONENTS[ROOT / "ui" / "copy_button" / "__init__.py"] = {
    "html": ROOT / "ui" / "copy_button" / "copy_button.html",
    "css": ROOT / "ui" / "copy_button" / "copy_button.css",
    "js": ROOT / "ui" / "copy_button" / "copy_button.js"}
# DOM sinks that would parse text as HTML or code; the component sets text with textContent.
JS_SINKS = re.compile(r"\.(innerHTML|outerHTML)\s*\+?=|insertAdjacentHTML|document\.write"
                      r"|\beval\s*\(|new\s+Function\s*\(")


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


# st.html is allowed for the app's own static markup only: a module constant built from
# literals (a hint), such a constant's ``.format`` filled with the app's own catalog message
# escaped (``TEMPLATE.format(note=html.escape(t("literal", ...)))``), or a stylesheet file of
# the app (ui/fit.css). Never user text.
STATIC_HTML = {("app.py", "Path(__file__).with_name('ui') / 'fit.css'"),
               ("app.py", "Path(__file__).with_name('ui') / 'present.css'"),
               ("ui/tables.py", "SWIPE_HINT"), ("ui/tables.py", "PAIR_MARKER")}


def _literal_constant(name: str, path: Path) -> bool:
    value = _module_constants(ast.parse(path.read_text()))[name]
    return all(isinstance(n, ast.Constant) for n in ast.walk(value)
               if not isinstance(n, (ast.BinOp, ast.Add, ast.JoinedStr, ast.Load)))


def _catalog_text(node: ast.AST) -> bool:
    """``html.escape(t("literal", ...))``: a catalog message (the app's words), escaped."""
    return (isinstance(node, ast.Call) and _dotted(node.func) == "html.escape"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Call)
            and _dotted(node.args[0].func) == "t" and node.args[0].args
            and isinstance(node.args[0].args[0], ast.Constant)
            and isinstance(node.args[0].args[0].value, str))


def _static_html(call: ast.Call, path: Path) -> bool:
    if _dotted(call.func) != "st.html" or len(call.args) != 1 or call.keywords:
        return False
    arg = call.args[0]
    filled = (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
              and arg.func.attr == "format" and isinstance(arg.func.value, ast.Name)
              and not arg.args and arg.keywords
              and all(_catalog_text(k.value) for k in arg.keywords))
    if filled:
        arg = arg.func.value  # the template: a literal constant, as below
    if (str(path.relative_to(ROOT)), ast.unparse(arg)) not in STATIC_HTML:
        return False
    if isinstance(arg, ast.Name):  # a constant: only literals may build it
        return _literal_constant(arg.id, path)
    return ast.unparse(arg).endswith(".css'")


def _raw_html_uses(path: Path) -> list[str]:
    """Every place in ``path`` that could render HTML: unsafe_allow_html not literally False,
    st.html / components.v1 (html, iframe) / st.iframe, and v2 components."""
    found = []
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.keyword) and node.arg == "unsafe_allow_html":
            if not (isinstance(node.value, ast.Constant) and node.value.value is False):
                found.append(f"{where}: unsafe_allow_html={ast.unparse(node.value)}")
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if re.search(r"(^|\.)(html|iframe)$", name) and not _static_html(node, path):
                found.append(f"{where}: {name}(...)")
            if name.endswith("components.v2.component") and path not in COMPONENTS:
                found.append(f"{where}: {name} (only ui/sortable/, ui/ranking_table/, ui/code_editor/, "
                             "ui/copy_button/ and ui/page_hooks/ may define a component)")
        if isinstance(node, ast.Attribute) and _dotted(node).endswith("components.v1"):
            found.append(f"{where}: {_dotted(node)}")
        if isinstance(node, ast.ImportFrom) and node.module and "components.v1" in node.module:
            found.append(f"{where}: from {node.module} import ...")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_renders_raw_html(path: Path) -> None:
    """No page or shared piece renders HTML: all user text goes through escaping widgets."""
    text = path.read_text()
    assert "unsafe_allow_html=" + "True" not in text  # split so grep-based checks skip it
    assert "components.v1.html" not in text
    assert _raw_html_uses(path) == []


def test_html_from_a_template_takes_only_escaped_catalog_text() -> None:
    """The phone's swipe notes are markup around a catalog sentence: a label, an unescaped
    message or a template of its own would be refused."""
    tables = ROOT / "ui" / "tables.py"

    def allowed(code: str) -> bool:
        return _static_html(ast.parse(code).body[0].value, tables)
    assert allowed('st.html(SWIPE_HINT.format(note=html.escape(t("Swipe.", lang))))')
    assert not allowed('st.html(SWIPE_HINT.format(note=label))')
    assert not allowed('st.html(SWIPE_HINT.format(note=t("Swipe.", lang)))')
    assert not allowed('st.html(SWIPE_HINT.format(note=html.escape(label)))')
    assert not allowed('st.html(OTHER.format(note=html.escape(t("Swipe.", lang))))')


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    return {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name)}


def _is_static(node: ast.AST, constants: dict[str, ast.AST]) -> bool:
    """True if ``node`` is built only from literals and module constants built from literals."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return all(_is_static(v, constants) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return _is_static(node.value, constants)
    if isinstance(node, ast.Name) and node.id in constants:
        return _is_static(constants[node.id], constants)
    return False


@pytest.mark.parametrize("module", sorted(COMPONENTS), ids=lambda p: p.parent.name)
def test_the_component_markup_is_static_and_its_js_never_parses_html(module: Path) -> None:
    """Each component's html/css/js are its own files, read once; its JS writes user text
    with textContent, never as HTML (no innerHTML, outerHTML, insertAdjacentHTML, eval)."""
    source = module.read_text()
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
             and _dotted(n.func).endswith("components.v2.component")]
    assert calls and {k.arg for k in calls[0].keywords} >= {"html", "css", "js"}
    # every component's JS is a file of the folder, never a string in the Python source
    assert all(not isinstance(k.value, ast.Constant) for c in calls for k in c.keywords
               if k.arg == "js")
    files = COMPONENTS[module]
    for name, path in files.items():
        assert path is None or (f'"{path.name}"' in source and path.exists())
    for js in module.parent.glob("*.js"):  # the face's and any listener's
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", js.read_text(), flags=re.S)  # comments
        assert JS_SINKS.findall(code) == [], js                         # may name the sinks
        if files["js"] is None:  # a page hook writes no text into the page: the data it
            # takes (a round's mark, a cookie's checked name and value) never reaches the DOM
            assert not re.search(r"textContent|innerText|createElement|\.append\(|\.title\s*=",
                                 code), js
    if files["js"] is not None:
        assert re.search(r"textContent = text\b", files["js"].read_text())
    assert JS_SINKS.findall(files["html"].read_text()) == []


# ------------------------------------------------------------------ only our own origin

def test_a_whole_session_requests_only_the_apps_own_origin(page: Page, app_url, open_app,
                                                           wait_idle, request) -> None:
    """Visiting every page, dragging and moving by keyboard fetches nothing from elsewhere."""
    requests: list[str] = []
    sockets: list[str] = []
    record = lambda r: requests.append(r.url)  # noqa: E731
    page.context.on("request", record)  # this page and any page it opens
    # the context is the session's (conftest.page_context): this test's listener goes with it
    request.addfinalizer(lambda: page.context.remove_listener("request", record))
    page.on("websocket", lambda ws: sockets.append(ws.url))
    origin = urlsplit(app_url)

    open_app(page, app_url)
    expect(page.locator(ROWS)).to_have_count(6, timeout=WAIT_MS)
    wait_rendered(page)
    # A mouse drag (Doc D onto Doc A) and a keyboard move (Alt+ArrowUp on Doc B).
    source = page.locator(ROWS).filter(has_text="Doc D").bounding_box()
    target = page.locator(ROWS).filter(has_text="Doc A").bounding_box()
    x, y = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 15, steps=5)
    page.mouse.move(x, target["y"] + 3, steps=20)
    page.wait_for_timeout(150)
    page.mouse.up()
    expect(page.locator(ROWS).first).to_contain_text("Doc D", timeout=WAIT_MS)
    wait_idle(page)
    page.locator(ROWS).filter(has_text="Doc B").focus()
    page.keyboard.press("Alt+ArrowUp")
    expect(page.locator(".rt-live")).to_contain_text("Doc B moved to position 2")
    wait_idle(page)

    nav = page.get_by_test_id("stSidebarNav")
    titles = [title for _, title in app_pages()]
    expect(nav.get_by_test_id("stSidebarNavLink")).to_have_count(len(titles))
    for title in titles:
        nav.get_by_role("link", name=title).click()
        wait_idle(page)
        wait_rendered(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        if title == "Evaluate your runs":
            page.get_by_role("button", name="Load the sample").click()
            wait_idle(page)
            for tab in ("Wins and losses", "Charts", "What changed?"):
                page.get_by_role("tab", name=tab).click()
                wait_idle(page)
                wait_rendered(page)
    page.wait_for_timeout(500)

    assert len(requests) > 20 and sockets, "the session was not recorded"
    foreign = [url for url in requests
               if urlsplit(url).scheme not in ("data", "blob")
               and (urlsplit(url).scheme, urlsplit(url).netloc) != (origin.scheme,
                                                                    origin.netloc)]
    assert foreign == []
    assert all(urlsplit(url).netloc == origin.netloc for url in sockets), sockets


# ------------------------------------------------------------------ configuration and XSRF

def test_config_turns_off_usage_stats_and_turns_on_xsrf_with_an_upload_cap() -> None:
    """.streamlit/config.toml: no usage stats, XSRF protection on, an explicit upload cap."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["browser"]["gatherUsageStats"] is False
    assert config["server"]["enableXsrfProtection"] is True
    cap = config["server"]["maxUploadSize"]
    assert isinstance(cap, int) and 0 < cap <= 200


def test_config_sends_every_message_whole() -> None:
    """Browser-side message caching is off: a cache miss under quick fragment reruns shows
    a "Connection error" dialog (found by the 2,000-action monkey), and Streamlit reads
    this hidden option from the same file."""
    from streamlit import config as st_config

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["global"]["minCachedMessageSize"] >= 1e9
    # the option exists in this Streamlit (a misspelt key would be ignored silently)
    assert "global.minCachedMessageSize" in st_config._config_options_template


def test_streamlit_reads_the_config_and_skips_its_full_collection_after_each_rerun() -> None:
    """runner.postScriptGC = false: Streamlit's default gc.collect(2) after every rerun cost
    about 57 ms of server CPU per move (GIL held), three times the rerun itself. Checked the
    way `streamlit run` reads it: from .streamlit/config.toml in the app's folder."""
    code = ("from streamlit import config; config.get_config_options(force_reparse=True); "
            "print(config.get_option('runner.postScriptGC'), "
            "config.get_option('global.minCachedMessageSize'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout.split()
    assert out == ["False", "1000000000000.0"]


def test_the_running_server_sets_the_xsrf_cookie_and_refuses_uploads_without_it(
        app_url) -> None:
    """The server under test sets _streamlit_xsrf and answers 403 to a token-less upload."""
    with urllib.request.urlopen(f"{app_url}/_stcore/health", timeout=10) as resp:
        cookies = resp.headers.get_all("Set-Cookie") or []
    assert any(c.startswith("_streamlit_xsrf=") for c in cookies), cookies

    # With XSRF off Streamlit checks the session next (400); with it on, the token first (403).
    upload = urllib.request.Request(f"{app_url}/_stcore/upload_file/no-session/no-file",
                                    data=b"x", method="PUT")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(upload, timeout=10)
    assert refused.value.code == 403


def test_a_refused_class_answer_quotes_the_typed_text_and_never_links(browser, app_url):
    """A student types a Markdown link, an image, a bare address and HTML as a Predict
    answer: the refusal quotes each as typed (40 characters, the box's limit), and no link or
    image aims at evil.example."""
    from test_class_mode_browser import WORDS, answer, join, phone, press, start, teacher_page
    w = WORDS["en"]
    teacher, student = teacher_page(browser), phone(browser)
    try:
        code, _link = start(teacher, app_url, w, "en")
        press(teacher, w["next"])
        join(student, app_url, code, w, "en")
        for form in [LINK_FORMS[i] for i in (0, 1, 3, 7)]:
            answer(student, form[:40], w)  # the box takes 40 characters
            alert = student.get_by_test_id("stAlertContentError")
            expect(alert).to_contain_text("“", timeout=WAIT_MS)
            expect_no_link_from_user_text(student, form[:40].strip())
    finally:
        teacher.context.close()
        student.context.close()
