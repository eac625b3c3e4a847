"""The cells, header and footnote of :func:`~ndcg_core.to_markdown` and
:func:`~ndcg_core.to_latex`: numbers rounded, p-values below the last digit written as such,
the significance dagger, and system names escaped for Markdown or LaTeX.

Apart from :mod:`ndcg_core.compare` (the public writers and their examples): this is the
formatting and escaping the two writers share, no statistics.
"""

from __future__ import annotations

import string

import pandas as pd

from ._compare_input import COLUMNS, _whole

_TEST_WORDS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test",
               "randomization": "paired randomization test", "bootstrap": "paired bootstrap test"}
_CORRECTION_WORDS = {"holm": "Holm-corrected", "bh": "Benjamini-Hochberg-corrected",
                     None: "uncorrected"}

# Every ASCII punctuation character may be backslash-escaped in CommonMark and GFM, and
# escaping all of them leaves no |, <, *, _, [, $ or & to start a cell, a tag, emphasis,
# a link, LaTeX math or an entity.
_MARKDOWN_ESCAPES = str.maketrans({c: "\\" + c for c in string.punctuation}
                                  | {"\n": " ", "\r": " ", "\t": " "})
# LaTeX's ten special characters, plus < > (they print as ¡ ¿ in the OT1 encoding).
_LATEX_ESCAPES = str.maketrans({
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "%": r"\%", "&": r"\&",
    "#": r"\#", "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "\n": " ", "\r": " ", "\t": " "})


def _escape_markdown(text) -> str:
    return str(text).translate(_MARKDOWN_ESCAPES)


def _escape_latex(text) -> str:
    return str(text).translate(_LATEX_ESCAPES)


def _export_rows(table, digits: int, *, latex: bool) -> tuple[list[str], list[list[str]], str]:
    """Header, cells and footnote shared by the Markdown and LaTeX writers (unescaped marks)."""
    if not isinstance(table, pd.DataFrame) or not set(COLUMNS) <= set(table.columns):
        missing = (sorted(set(COLUMNS) - set(table.columns))
                   if isinstance(table, pd.DataFrame) else list(COLUMNS))
        raise ValueError("expected the table compare() returns; missing columns: "
                         + ", ".join(missing) + ".")
    digits = _whole("digits", digits, 0)
    if digits > 15:
        raise ValueError(f"digits must be at most 15 (a float holds ~16); got {digits}.")
    escape = _escape_latex if latex else _escape_markdown
    dash = "--" if latex else "–"
    tiny = 10.0 ** -digits

    def number(v) -> str:
        if pd.isna(v):
            return dash
        text = f"{v:.{digits}f}"
        return text.replace("-", "$-$", 1) if latex and text.startswith("-") else text

    def pvalue(v) -> str:
        if not pd.isna(v) and v < tiny:
            return (r"$<$" if latex else r"\< ") + f"{tiny:.{digits}f}"
        return number(v)

    attrs = table.attrs
    baseline = attrs.get("baseline", table.index[0])
    mark = r"$^{\dagger}$" if latex else "†"
    level = attrs.get("confidence")
    ci = f"{100 * level:g}% CI" if level is not None else "CI"
    header = ["System", "Mean", r"$\Delta$" if latex else "Δ",
              ci.replace("%", r"\%") if latex else ci,
              r"$p$" if latex else "p", r"$p_{\mathrm{adj}}$" if latex else "p (adj.)",
              r"$d_z$" if latex else escape("d_z")]
    cells = []
    for system, row in table.iterrows():
        name = escape(system) + (" (baseline)" if system == baseline else "")
        delta = number(row["delta"]) + (mark if bool(row["significant"]) else "")
        interval = (dash if pd.isna(row["ci_low"])
                    else f"[{number(row['ci_low'])}, {number(row['ci_high'])}]")
        cells.append([name, number(row["mean"]), delta, interval, pvalue(row["p"]),
                      pvalue(row["p_adj"]), number(row["effect_size"])])
    alpha = attrs.get("alpha")
    words = [_TEST_WORDS.get(attrs.get("test"), ""),
             _CORRECTION_WORDS.get(attrs.get("correction"), "") if "correction" in attrs
             else ""]
    how = ", ".join(w for w in words if w)
    less = "$<$" if latex else "\\<"  # a bare < is safe before a space; escaped, always
    rule = f"adjusted p {less} {alpha:g}" if alpha is not None else "significant"
    # Only the baseline's name comes from the user; the rest of the note is ours.
    note = (f"{mark} {rule} against {escape(baseline)}" + (f" ({how})" if how else "")
            + (f", {attrs['n_queries']} queries" if "n_queries" in attrs else "") + ".")
    return header, cells, note
