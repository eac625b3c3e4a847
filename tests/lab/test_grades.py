"""lab.grades is the one place for grade scales, their checks, the list's limits and the
messages that refuse the rest: the playground, the ranking table's check and the link
reader all take them from here, in both languages."""

import pytest

from lab import grades as G
from lab import playground as P
from lab import ranking_table as RT


def rows(n):
    return [{"id": f"r{i}", "label": f"x{i}", "grade": 1.0} for i in range(n)]


@pytest.mark.parametrize("name, inside, outside", [
    ("0-3", [0, 1, 2, 3], [-1, 4, 1.5]),
    ("0-4", [0, 4], [5, 2.5]),
    ("binary", [0, 1], [2, 0.5]),
    ("free", [-3, 0.25, 1e6], []),
])
def test_a_named_scale_takes_what_its_check_takes(name, inside, outside):
    """fits_scale (links, the settings' warning) and check_grade (a typed grade) agree."""
    scale = G.SCALES[name]
    for grade in inside:
        assert G.fits_scale([grade], name) and G.check_grade(grade, scale, 0) is None
    for grade in outside:
        assert not G.fits_scale([grade], name) and G.check_grade(grade, scale, 0)
    assert not G.fits_scale([None], name)  # a grade not typed yet fits no scale


def test_the_scales_names_read_in_both_languages():
    assert [G.scale_label(name) for name in G.SCALES] == [
        "0–3", "0–4", "binary (0/1)", "free (any number)"]
    assert [G.scale_label(name, lang="zh") for name in G.SCALES] == [
        "0–3", "0–4", "二值（0/1）", "自由（任意数字）"]


def test_an_added_item_starts_at_its_scales_lowest_grade():
    assert [G.lowest_grade(name) for name in G.SCALES] == [0, 0, 0, 0]
    pg = P.make(["a"], [2], scale="0-4")
    assert P.apply_event(pg, {"action": "add"}).items[-1].grade == G.lowest_grade("0-4")


@pytest.mark.parametrize("lang, message", [
    ("en", "The list holds at most 200 items: remove one first."),
    ("zh", "列表最多容纳 200 个条目：请先删除一个。"),
])
def test_one_item_limit_one_message_from_the_table_and_the_playground(lang, message):
    """The table's check and the playground's apply refuse the 201st item in the same words."""
    assert G.list_full(lang=lang) == message
    full = rows(G.MAX_ITEMS)
    _, refused, _ = RT.check_event({"action": "add"}, full, scale=None, lang=lang)
    assert refused == message
    pg = P.make([r["label"] for r in full], [1] * G.MAX_ITEMS)
    with pytest.raises(ValueError) as raised:
        P.apply_event(pg, {"action": "add"}, lang=lang)
    assert str(raised.value) == message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_last_item_and_a_long_label_are_refused_in_the_same_words_everywhere(lang):
    one = rows(1)
    _, refused, _ = RT.check_event({"action": "remove", "id": "r0"}, one, scale=None,
                                   lang=lang)
    assert refused == G.last_item(lang=lang)
    with pytest.raises(ValueError) as raised:
        P.apply_event(P.make(["a"], [1]), {"action": "remove", "id": "i0"}, lang=lang)
    assert str(raised.value) == refused
    long = "x" * (G.MAX_LABEL + 1)
    _, refused, _ = RT.check_event({"action": "rename", "id": "r0", "label": long}, one,
                                   scale=None, lang=lang)
    assert refused == G.label_messages(lang=lang)["label_long"].format(
        max=G.MAX_LABEL, n=G.MAX_LABEL + 1, current="x0")
