"""Handouts read back: the PDF's text holds the engine's figures (and Chinese in Chinese),
its pages have the paper's size, and nothing is drawn past the margins."""

import io
import math
import subprocess

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

import ndcg_core as nc
from lab import exercises as E
from lab import handouts as H
from lab.text import fmt

POINTS = {"A4": (595, 842), "Letter": (612, 792)}  # page sizes in PDF points (1/72 inch)


def pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_an_exercise_set_has_its_answer_key_on_its_own_last_page():
    pdf = H.exercise_set("medium", 4, first=7)
    text = pages(pdf)
    assert "Answer key" in text[-1] and all("Answer key" not in p for p in text[:-1])
    for number in range(7, 11):
        sol = E.solution(E.generate(number, "medium"))
        assert f"Exercise {number}" in "".join(text[:-1])
        # the key, not the worksheet, gives the answers
        assert fmt(sol["ndcg"]) in text[-1]
        assert f"IDCG@{E.generate(number, 'medium').k} = ____" in flat("".join(text[:-1]))


def test_a_compare_set_names_the_winner_in_the_key():
    pdf = H.exercise_set("hard", 3, kind="compare")
    key = flat(pages(pdf)[-1])
    for number in (1, 2, 3):
        sol = E.solution(E.generate(number, "hard", "compare"))
        assert f"{fmt(sol['A'])} {fmt(sol['B'])} {sol['winner']}" in key


def test_the_running_example_prints_both_sums_written_out():
    pdf = H.worked_example("doc000")
    text = flat(pages(pdf)[0])
    # [3, 2, 3, 0, 1, 2], linear gain, k = 6; the ideal is [3, 3, 2, 2, 1, 0]
    dcg = 3 / math.log2(2) + 2 / math.log2(3) + 3 / math.log2(4) + 0 + 1 / math.log2(6) \
        + 2 / math.log2(7)
    idcg = 3 / math.log2(2) + 3 / math.log2(3) + 2 / math.log2(4) + 2 / math.log2(5) \
        + 1 / math.log2(6)
    assert "DCG@6 = 3/log₂2 + 2/log₂3 + 3/log₂4 + 0/log₂5 + 1/log₂6 + 2/log₂7" in text
    assert "IDCG@6 = 3/log₂2 + 3/log₂3 + 2/log₂4 + 2/log₂5 + 1/log₂6 + 0/log₂7" in text
    assert f"= {fmt(dcg)} / {fmt(idcg)} = {fmt(dcg / idcg)}" in text
    assert fmt(dcg / idcg) == fmt(nc.ndcg([3, 2, 3, 0, 1, 2]))


def test_a_playground_with_both_gains_prints_a_page_for_each():
    grades = [3, 2, 3, 0, 1, 2]
    pdf = H.playground([f"Doc {c}" for c in "ABCDEF"], grades, k=4, gain="both",
                       link="http://localhost:8501/playground?g=3,2,3,0,1,2")
    text = [flat(p) for p in pages(pdf)]
    assert len(text) == 2
    for page, gain in zip(text, ("linear", "exponential")):
        assert f"NDCG@4 = DCG@4 / IDCG@4 = {fmt(nc.dcg(grades, k=4, gain=gain))} / " \
               f"{fmt(nc.idcg(grades, k=4, gain=gain))} = {fmt(nc.ndcg(grades, k=4, gain=gain))}" \
               in page
        assert "NDCG@k at every cutoff" in page
    assert "(2^3−1)/log₂2" in text[1]


def test_judged_items_that_were_not_retrieved_enter_the_ideal():
    pdf = H.playground(["a", "b"], [0, 1], k=2, gain="linear", unretrieved=(3,))
    text = flat(pages(pdf)[0])
    # the ideal is [3, 1]: IDCG@2 = 3/log2 2 + 1/log2 3
    assert f"IDCG@2 = 3/log₂2 + 1/log₂3 = 3.000 + 0.631 = {fmt(3 + 1 / math.log2(3))}" in text


@pytest.mark.parametrize("paper", H.PAPERS)
def test_chinese_handouts_carry_chinese_text_on_the_chosen_paper(paper):
    pdf = H.exercise_set("easy", 2, lang="zh", paper=paper)
    reader = PdfReader(io.BytesIO(pdf))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == POINTS[paper]
    text = "".join(p.extract_text() for p in reader.pages)
    assert "答案" in text and "习题 1" in text and "截断 k" in text


def _ink_outside_margins(pdf: bytes, tmp_path) -> list[str]:
    """Pages with dark pixels in the outer 10 mm strip (the margin is 15 mm), rendered by
    poppler's pdftoppm (Debian's poppler-utils, which .ci/run installs)."""
    src = tmp_path / "h.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(src), str(tmp_path / "p")], check=True)
    bad = []
    for png in sorted(tmp_path.glob("p-*.png")):
        px = np.asarray(Image.open(png).convert("L"))
        strip = round(10 / 25.4 * 50)
        outer = np.ones(px.shape, bool)
        outer[strip:-strip, strip:-strip] = False
        dark = np.argwhere(outer & (px < 200))
        if len(dark):
            bad.append(f"{png.name}: {len(dark)} dark pixels, first (row, col) {dark[0]}")
    return bad


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_is_drawn_past_the_margins(lang, tmp_path):
    labels = ["A very long item label that a teacher typed to make a point"] + \
        [f"Doc {c}" for c in "BCDEFGHIJKL"]
    pdfs = [H.exercise_set("hard", 5, lang=lang),
            H.worked_example("doc000", lang=lang),
            H.playground(labels, [3, 2, 3, 0, 1, 2, 4, 0, 1, 1, 2, 3], k=10, gain="both",
                         lang=lang, paper="Letter", link="http://localhost:8501/?" + "g=1," * 60)]
    for i, pdf in enumerate(pdfs):
        folder = tmp_path / str(i)
        folder.mkdir()
        assert not _ink_outside_margins(pdf, folder)


@pytest.mark.parametrize("call, message", [
    (lambda: H.exercise_set("medium", 0), "count must be a whole number from 1 to 40"),
    (lambda: H.exercise_set("medium", 3, paper="A5"), "paper must be one of A4, Letter"),
    (lambda: H.exercise_set("tricky", 3), "level must be one of"),
    (lambda: H.worked_example("nope"), "no worked example 'nope'"),
    (lambda: H.playground(["a"], [None], k=1, gain="linear"), "every item needs a grade"),
])
def test_bad_requests_say_what_to_fix(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_spot_the_mistake_set_keys_each_mistake():
    from lab import mistakes as M
    pdf = H.exercise_set("medium", 3, kind="spot")
    text = pages(pdf)
    key = flat(text[-1])
    for number in (1, 2, 3):
        ex = E.generate(number, "medium", "spot")
        assert f"{'ABCD'[ex.options.index(ex.mistake)]}. {M.name(ex.mistake, 'en')}" in key
        assert all(M.name(k, "en")[:20] in flat("".join(text[:-1])) for k in ex.options)


def test_an_english_handout_needs_no_installed_font_and_a_chinese_one_says_what_to_install(
        monkeypatch):
    """A machine with no fonts at all (no folder searched): the English handout embeds the
    DejaVu subset this repository ships and reads back; the Chinese one is refused with the
    command for Debian/Ubuntu and Fedora and the fonts Windows and macOS have."""
    bare = H.font_paths("en", dirs=())
    assert {p.parent for p in bare.values()} == {H.SHIPPED_FONTS} and "cjk" not in bare
    assert (H.SHIPPED_FONTS / "LICENSE-DejaVu.txt").is_file()
    real = H.font_paths
    monkeypatch.setattr(H, "font_paths", lambda lang="en", dirs=(): real(lang, ()))
    link = "http://192.168.1.5:8501/?g=3%2C2%2C3%2C0%2C1%2C2&k=6&gain=linear&lang=en"
    text = flat(" ".join(pages(H.playground(["Doc A", "Doc B"], [3, 1], k=2, gain="linear",
                                             link=link))))
    assert fmt(nc.ndcg([3, 1], k=2)) in text
    with pytest.raises(ValueError) as e:
        H.playground(["Doc A", "Doc B"], [3, 1], k=2, gain="linear", lang="zh")
    for named in ("apt-get install fonts-wqy-microhei", "dnf install", "Windows", "macOS"):
        assert named in str(e.value) or named in H.needs_chinese_font("en")
    assert "fonts-wqy-microhei" in str(e.value)


def test_a_handouts_link_breaks_between_parameters_only():
    """A link longer than a line is cut before an "&": every line holds whole parameters."""
    labels = "&".join(f"l=label{i:02d}" for i in range(20))
    link = f"http://192.168.1.5:8501/?g={','.join(['3'] * 20)}&{labels}&k=10&lang=en"
    lines = [ln for p in pages(H.playground([f"label{i:02d}" for i in range(20)], [3] * 20,
                                            k=10, gain="linear", link=link))[:1]
             for ln in p.splitlines() if "l=" in ln or "g=" in ln or "k=10" in ln]
    assert len(lines) > 1 and "".join(lines).replace(" ", "") == link
    assert all(ln.startswith(("http", "&")) for ln in lines), lines
