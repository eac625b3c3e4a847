"""Handouts: printable PDFs of an exercise set, a worked example and a playground state.

Pure Python (no Streamlit): the pages offer the bytes for download, the tests read them back.
Drawn with fpdf2, chosen because it is pure Python (no Pango or Cairo to install beside it,
as WeasyPrint needs), embeds TrueType fonts subset, including a CJK face from a TrueType
collection, and needs no network. Every figure comes from ``ndcg_core`` (the tables are
``dcg_table`` / ``ideal_table``, the sums their ``contribution`` column), written with
:func:`lab.text.fmt` (3 decimals, as on every learner page).

Fonts: DejaVu Sans for the Latin text and the formula signs (the system's, else the subset
shipped in ``assets/fonts/`` with its licence: an English handout needs nothing installed);
for Chinese a CJK face of the system (WenQuanYi on Linux, Microsoft YaHei or SimHei on
Windows, Arial Unicode or STHeiti on macOS). A Chinese handout on a machine without one gets
a :class:`ValueError` that names what to install on each system.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

import ndcg_core as nc
from lab import exercises as X
from lab import mistakes as M
from lab import spot
from lab.documents import DOCUMENTS, Ranking, claim_headers, claims_frame, say
from lab.formula import ratio_line, sum_line
from lab.i18n import FONTS, t
from lab.text import fmt, fmt_grade

PAPERS = ("A4", "Letter")
MAX_EXERCISES = 40  # a worksheet, not a book: 40 exercises fill about 14 pages
SHIPPED_FONTS = Path(__file__).resolve().parents[1] / "assets" / "fonts"
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"),
             Path.home() / ".local/share/fonts", Path.home() / ".fonts",  # Linux
             Path("/Library/Fonts"), Path("/System/Library/Fonts"),
             Path("/System/Library/Fonts/Supplemental"), Path.home() / "Library/Fonts",  # macOS
             Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",  # Windows
             Path(os.environ.get("LOCALAPPDATA", "~")).expanduser() / "Microsoft/Windows/Fonts")
# Each role's file names, best first: TrueType outlines (fpdf2 embeds them; a collection's
# first face is used). The last Latin choice is the subset this repository ships.
FONT_FILES = {
    "latin": ("DejaVuSans.ttf", "DejaVuSans-Latin.ttf"),
    "latin-bold": ("DejaVuSans-Bold.ttf", "DejaVuSans-Bold-Latin.ttf"),
    "cjk": ("wqy-microhei.ttc", "wqy-zenhei.ttc", "msyh.ttc", "simhei.ttf",
            "Arial Unicode.ttf", "STHeiti Light.ttc", "Hiragino Sans GB.ttc"),
}
MARGIN = 15  # mm on every side; tests/lab/test_handouts.py checks nothing is drawn past it


def _find(names: tuple[str, ...], dirs=FONT_DIRS) -> Path | None:
    for name in names:
        for folder in (*dirs, SHIPPED_FONTS):
            if folder.is_dir():
                found = next(folder.rglob(name), None)
                if found:
                    return found
    return None


def needs_chinese_font(lang: str) -> str:
    """What to install for a Chinese handout, on each system."""
    return t("A Chinese handout needs a Chinese font: on Debian or Ubuntu `sudo apt-get "
             "install fonts-wqy-microhei`, on Fedora `sudo dnf install wqy-microhei-fonts`; "
             "Windows (Microsoft YaHei) and macOS (Arial Unicode, STHeiti) have one. The "
             "English handout needs none.", lang)


@lru_cache(maxsize=4)
def font_paths(lang: str = "en", dirs=FONT_DIRS) -> dict[str, Path]:
    """The font files a handout in ``lang`` embeds (``cjk`` when this machine has one), or
    ValueError naming what to install (Chinese without a Chinese font)."""
    found = {role: _find(names, dirs) for role, names in FONT_FILES.items()}
    if found["cjk"] is None:
        if lang in FONTS:  # a script with faces of its own (lab.i18n): the CJK face draws it
            raise ValueError(needs_chinese_font(lang))
        del found["cjk"]  # an English handout draws Latin text only (a Chinese label: boxes)
    return found


def _check(lang: str, paper: str):
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}; got {paper!r}.")
    t("Handout", lang)  # raises for an unknown language, with the languages it knows


class _Sheet(FPDF):
    """A page with NDCG Lab's footer; fonts registered once per document."""

    def __init__(self, lang: str, paper: str, title: str):
        super().__init__(format=paper, unit="mm")
        self.lang, self.title_text = lang, title
        fonts = font_paths(lang)
        self.add_font("body", fname=str(fonts["latin"]))
        self.add_font("body", style="B", fname=str(fonts["latin-bold"]))
        if "cjk" in fonts:
            self.add_font("cjk", fname=str(fonts["cjk"]))
            self.add_font("cjk", style="B", fname=str(fonts["cjk"]))
            # Chinese text falls back to the CJK face glyph by glyph; Latin stays DejaVu.
            self.set_fallback_fonts(["cjk"], exact_match=False)
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=MARGIN + 6)
        self.set_title(title)
        self.set_creator("NDCG Lab")
        self.alias_nb_pages()

    def footer(self):
        self.set_y(-MARGIN - 4)
        self.set_font("body", size=8)
        self.set_text_color(110)
        self.cell(0, 4, f"NDCG Lab · {self.title_text} · {self.page_no()}/{{nb}}", align="C")
        self.set_text_color(0)

    # -- building blocks ------------------------------------------------------------
    def heading(self, text: str, size: int = 16):
        self.set_font("body", "B", size)
        self.multi_cell(0, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(2)

    def para(self, text: str, size: int = 10):
        self.set_font("body", size=size)
        self.multi_cell(0, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(1)

    def link(self, url: str, size: int = 7):
        """A link over as many lines as it needs, broken only before a ``&`` or after the
        ``?``, never inside a parameter (one longer than a line has a line of its own, and
        only it is broken)."""
        self.set_font("body", size=size)
        width = self.w - self.l_margin - self.r_margin - 2 * self.c_margin
        head, _, query = url.partition("?")
        pieces = [head + ("?" if query else "")] + [
            ("&" if i else "") + p for i, p in enumerate(query.split("&")) if query]
        lines = [""]
        for piece in pieces:
            if lines[-1] and self.get_string_width(lines[-1] + piece) > width:
                lines.append("")
            lines[-1] += piece
        for line in lines:
            self.multi_cell(0, size * 0.5, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(1)

    def table(self, header: list[str], rows: list[list[str]], *, size: int = 9,
              dim: list[bool] | None = None):
        self.set_font("body", size=size)
        with super().table(headings_style=_bold(), text_align="CENTER", line_height=size * 0.55,
                           first_row_as_headings=True) as table:
            table.row(header)
            for i, cells in enumerate(rows):
                if dim and dim[i]:
                    self.set_text_color(120)
                table.row(cells)
                self.set_text_color(0)
        self.ln(3)

    def keep(self, height: float):
        """Start a new page unless ``height`` mm still fit on this one."""
        if self.get_y() + height > self.h - MARGIN - 6:
            self.add_page()


def _bold():
    from fpdf.fonts import FontFace
    return FontFace(emphasis="BOLD", fill_color=(235, 238, 244))


def _gain_words(gain: str, lang: str) -> str:
    return {"linear": t("linear gain (gain = grade)", lang),
            "exponential": t("exponential gain (gain = 2^grade − 1)", lang)}[gain]


def _dcg_rows(frame) -> list[list[str]]:
    return [[str(int(r.position)), str(r.label), fmt_grade(r.relevance), fmt(r.gain),
             fmt(r.discount), fmt(r.contribution), fmt(r.cumulative_dcg)]
            for r in frame.itertuples()]


def _dcg_header(lang: str) -> list[str]:
    return [t("pos.", lang), t("item", lang), t("grade", lang), t("gain", lang),
            "log₂(i+1)", t("contrib.", lang), t("cum. DCG", lang)]


@dataclass(frozen=True)
class _Case:
    """What a handout draws for one ranking."""

    title: str
    labels: tuple
    grades: tuple
    k: int
    gain: str
    unretrieved: tuple = ()


def _draw_case(pdf: _Sheet, case: _Case, *, curve: bool):
    lang = pdf.lang
    grades, labels, k = list(case.grades), list(case.labels), case.k
    judged = (list(case.grades) + list(case.unretrieved)) if case.unretrieved else None
    pdf.para(t("Cutoff k = {k}, {gain}.", lang, k=k, gain=_gain_words(case.gain, lang)))
    if judged:
        pdf.para(t("Judged but not retrieved: {grades} (the ideal draws on them too).", lang,
                   grades=", ".join(fmt_grade(g) for g in case.unretrieved)))
    ranking = nc.dcg_table(grades, k=k, gain=case.gain, labels=labels)
    extra = len(judged) - len(grades) if judged else 0
    ideal = nc.ideal_table(grades, k=k, gain=case.gain, labels=labels, ideal=judged,
                           ideal_labels=(labels + [t("not retrieved {i}", lang, i=i + 1)
                                                   for i in range(extra)]) if judged else None)
    for heading, frame in ((t("Your ranking", lang), ranking),
                           (t("Ideal ordering", lang), ideal)):
        pdf.keep(12 + 6 * min(len(frame), 8))
        pdf.set_font("body", "B", 11)
        pdf.cell(0, 6, heading, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.table(_dcg_header(lang), _dcg_rows(frame), dim=list(~frame["in_cutoff"]))
    parts = nc.ndcg_parts(grades, k=k, gain=case.gain, ideal=judged)
    pdf.keep(30)
    pdf.set_font("body", "B", 11)
    pdf.cell(0, 6, t("The formula with the numbers", lang), new_x=XPos.LMARGIN,
             new_y=YPos.NEXT)
    pdf.para(sum_line(ranking, "DCG", k, case.gain))
    pdf.para(sum_line(ideal, "IDCG", k, case.gain))
    pdf.para(ratio_line(parts, k), size=11)
    if curve:
        _draw_curve(pdf, nc.ndcg_curve(grades, gain=case.gain, ideal=judged), k)


def _draw_curve(pdf: _Sheet, curve, k: int):
    """NDCG@k for every cutoff, as a line chart drawn with the PDF's own strokes."""
    width, height = 120.0, 55.0
    pdf.keep(height + 22)
    pdf.set_font("body", "B", 11)
    pdf.cell(0, 6, t("NDCG@k at every cutoff", pdf.lang), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    x0, y0 = pdf.l_margin + 10, pdf.get_y() + 3
    n = len(curve)
    pdf.set_draw_color(150)
    pdf.rect(x0, y0, width, height)
    pdf.set_font("body", size=7)
    for v in (0.0, 0.5, 1.0):
        y = y0 + height * (1 - v)
        pdf.line(x0 - 1, y, x0, y)
        pdf.text(x0 - 8, y + 1, f"{v:.1f}")

    def at(i, v):
        return x0 + (width * (i / (n - 1)) if n > 1 else width / 2), y0 + height * (1 - v)

    points = [at(i, float(v)) for i, v in enumerate(curve["ndcg"])]
    pdf.set_draw_color(37, 99, 235)
    pdf.set_line_width(0.6)
    for a, b in zip(points, points[1:]):
        pdf.line(*a, *b)
    for i, (x, y) in enumerate(points):
        pdf.set_fill_color(37, 99, 235) if i + 1 == k else pdf.set_fill_color(255)
        pdf.ellipse(x - 1, y - 1, 2, 2, style="DF")
        pdf.text(x - 1, y0 + height + 4, str(i + 1))
    pdf.set_line_width(0.2)
    pdf.set_draw_color(0)
    pdf.set_y(y0 + height + 8)
    pdf.para(t("The filled dot is k = {k}.", pdf.lang, k=k), size=8)


def _bytes(pdf: FPDF) -> bytes:
    out = io.BytesIO()
    pdf.output(out)
    return out.getvalue()


# ------------------------------------------------------------------ the three handouts

def exercise_set(level: str = "medium", count: int = 6, *, first: int = 1,
                 kind: str = "compute", lang: str = "en", paper: str = "A4") -> bytes:
    """A worksheet of ``count`` exercises (numbers ``first``, ``first + 1``, …, seeded as on
    the Exercises page), each with room to write, and the answer key on its own last page."""
    _check(lang, paper)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EXERCISES:
        raise ValueError(f"count must be a whole number from 1 to {MAX_EXERCISES}; "
                         f"got {count!r}.")
    exercises = [X.generate(first + i, level, kind) for i in range(count)]
    title = t("Exercises · {level}", lang, level=X.level_name(level, lang=lang))
    pdf = _Sheet(lang, paper, title)
    pdf.add_page()
    pdf.heading(title)
    pdf.para(X.level_label(level, lang=lang))
    pdf.para(t("Give each answer to 3 decimals; answers within ±0.001 are right.", lang))
    for ex in exercises:
        pdf.keep({"compute": 60, "compare": 80}.get(kind, 90))
        pdf.set_font("body", "B", 12)
        pdf.cell(0, 7, t("Exercise {number}", lang, number=ex.number), new_x=XPos.LMARGIN,
                 new_y=YPos.NEXT)
        pdf.para(t("Cutoff k = {k}, {gain}.", lang, k=ex.k, gain=_gain_words(ex.gain, lang)))
        rankings = [("", ex.grades, ex.labels)] if kind != "compare" else [
            ("A", ex.grades, ex.labels), ("B", ex.other, ex.other_labels)]
        for name, grades, labels in rankings:
            if name:
                pdf.para(t("Ranking {name}", lang, name=name))
            pdf.table([t("position", lang), t("item", lang), t("grade", lang)],
                      [[str(i), str(lab), fmt_grade(g)]
                       for i, (lab, g) in enumerate(zip(labels, grades), start=1)])
        if kind == "compute":
            for step in X.STEPS:
                pdf.para(f"{X.STEP_NAMES[step]}@{ex.k} = ______________", size=11)
        elif kind == "compare":
            pdf.para(t("Which ranking has the higher NDCG@{k} under {gain}?", lang, k=ex.k,
                       gain=X.gain_name(ex.gain, lang=lang)) + "   A  /  B", size=11)
        else:
            pdf.para(spot.unretrieved_caption(ex, lang))
            pdf.para(spot.question(ex, lang).replace("**", ""), size=11)
            for letter, key in zip("ABCD", ex.options):
                pdf.para(f"☐ {letter}. {M.name(key, lang)}", size=11)
        pdf.ln(3)
    pdf.add_page()
    pdf.heading(t("Answer key", lang))
    if kind == "spot":
        pdf.table([t("Exercise", lang), t("mistake", lang), "NDCG@k"],
                  [[str(ex.number), "ABCD"[ex.options.index(ex.mistake)] + ". "
                    + M.name(ex.mistake, lang), fmt(spot.figures(ex)["right"])]
                   for ex in exercises], size=10)
        return _bytes(pdf)
    rows = []
    for ex in exercises:
        sol = X.solution(ex)
        rows.append([str(ex.number), fmt(sol["dcg"]), fmt(sol["idcg"]), fmt(sol["ndcg"])]
                    + ([fmt(sol["B"]), sol["winner"]] if kind == "compare" else []))
    header = [t("Exercise", lang), "DCG@k", "IDCG@k"] + (
        ["NDCG@k (A)", "NDCG@k (B)", t("higher", lang)] if kind == "compare" else ["NDCG@k"])
    pdf.table(header, rows, size=10)
    return _bytes(pdf)


def worked_examples(lang: str = "en") -> list[tuple[str, str]]:
    """``(key, title)`` of every worked example a handout can print."""
    return [(r.key, f"{d.number} · {say(r.title, lang)}")
            for d in DOCUMENTS for r in d.rankings]


def _ranking(key: str) -> Ranking:
    for d in DOCUMENTS:
        for r in d.rankings:
            if r.key == key:
                return r
    raise ValueError(f"no worked example {key!r}; choose one of "
                     f"{', '.join(k for k, _ in worked_examples())}.")


def worked_example(key: str, *, lang: str = "en", paper: str = "A4") -> bytes:
    """One worked example: its ranking's two tables, the sums written out, and what the
    source claims beside the engine's exact figure."""
    _check(lang, paper)
    r = _ranking(key)
    title = say(r.title, lang)
    pdf = _Sheet(lang, paper, title)
    pdf.add_page()
    pdf.heading(title)
    _draw_case(pdf, _Case(title, r.labels, r.grades, r.cutoff, r.gain, r.unretrieved),
               curve=False)
    if r.claims:
        pdf.keep(30)
        pdf.set_font("body", "B", 11)
        pdf.cell(0, 6, t("What the source says", lang), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        frame = claims_frame(r.claims, lang=lang)
        headers = claim_headers(lang)
        pdf.table([headers.get(c, str(c)) for c in frame.columns],
                  [[fmt(v) if isinstance(v, float) else str(v) for v in row]
                   for row in frame.itertuples(index=False)])
    return _bytes(pdf)


def playground(labels, grades, *, k: int, gain: str, unretrieved=(), lang: str = "en",
               paper: str = "A4", link: str | None = None) -> bytes:
    """A playground state: both tables, the formula with DCG's and IDCG's sums written out,
    and the NDCG@k curve; ``link`` (the state's share link) printed under the title."""
    _check(lang, paper)
    if any(g is None for g in grades):
        raise ValueError("every item needs a grade before the ranking can be printed.")
    gains = ("linear", "exponential") if gain == "both" else (gain,)
    title = t("Playground", lang)
    pdf = _Sheet(lang, paper, title)
    for g in gains:
        pdf.add_page()
        pdf.heading(title)
        if link:
            pdf.link(link)
        _draw_case(pdf, _Case(title, tuple(labels), tuple(grades), k, g, tuple(unretrieved)),
                   curve=True)
    return _bytes(pdf)
