"""Share links and QR codes: a phone that scans the code gets the link, character for
character."""

import io

import pytest
import zxingcpp
from PIL import Image

from lab import exercises as E
from lab import playground as P
from lab import share as S


def scan(png: bytes) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.parametrize("url", [
    S.link("http://localhost:8501", "practice", {"ex": "compare/hard/12", "lang": "zh"}),
    S.link("https://ndcg.example.org", "worked_examples", fragment="doc002"),
    S.link("http://127.0.0.1:8501", "playground",
           P.to_query_params(P.make([f"Doc {c}" for c in "ABCDEFGHIJ"], range(10), k=5))),
])
def test_the_qr_code_scans_back_to_the_link(url):
    assert scan(S.qr_png(url)) == [url]


def test_a_link_too_long_for_a_qr_code_says_so():
    with pytest.raises(ValueError, match="more than a QR code holds"):
        S.qr_png("http://localhost:8501/playground?l=" + "x" * 3000)


def test_the_code_is_big_enough_to_project():
    # at 8 px a module, a 41-module playground code with its quiet zone is 392 px wide
    img = Image.open(io.BytesIO(S.qr_png("http://localhost:8501/playground?g=3,2,3,0,1,2")))
    assert img.size[0] >= 250


@pytest.mark.parametrize("text", ["compute/medium/0", "compute/medium/x", "guess/easy/3",
                                  "compute/medium", "compute/medium/5/6", "", "[a](http://b)"])
def test_a_bad_exercise_in_a_link_is_refused_with_a_message(text):
    with pytest.raises(ValueError, match="exercise 1 is shown instead"):
        S.exercise_from_link(text)


def test_every_exercise_id_reads_back():
    for kind in E.KINDS:
        for level in E.LEVELS:
            ex = E.generate(3, level, kind)
            assert S.exercise_from_link(ex.id) == (kind, level, 3)
