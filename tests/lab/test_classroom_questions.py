"""Class-mode questions: the bank, reading and scoring answers, the other sources."""

from __future__ import annotations

import csv
import io
import math

import pytest

import ndcg_core as nc
from lab import mistakes as M
from lab.classroom import kinds, questions as Q
from lab.classroom.kinds.choose import choose
from lab.classroom.bank import BANK, from_exercise, from_link
from lab.classroom.store import Answer
from lab.i18n import LANGUAGES

PREDICT = Q.Question("predict", (3, 2, 3, 0, 1, 2), 6, "linear")


def test_the_bank_is_a_lecture_of_at_least_12_that_starts_with_predict():
    assert len(BANK) >= 12 and BANK[0].kind == "predict"
    assert set(kinds.KINDS) <= {q.kind for q in BANK}
    assert [q.source for q in BANK] == [f"bank {i}" for i in range(1, len(BANK) + 1)]


@pytest.mark.parametrize("q", BANK, ids=lambda q: q.source)
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_bank_question_reads_in_both_languages_and_its_right_answer_scores_right(q, lang):
    assert Q.prompt(q, lang) and Q.title(q, 1, lang)
    assert Q.grade(q, Q.right_answer(q), lang=lang).correct
    assert Q.from_json(Q.to_json(q)) == q


def test_predict_is_right_within_a_thousandth():
    # 3 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7) over the ideal 3 3 2 2 1 0
    exact = nc.ndcg([3, 2, 3, 0, 1, 2], k=6)
    assert Q.grade(PREDICT, f"{exact + 0.001:.4f}").correct
    assert not Q.grade(PREDICT, f"{exact + 0.0015:.4f}").correct
    assert Q.grade(PREDICT, "0.961").answer == "0.961"


@pytest.mark.parametrize("typed", ["", "  ", "1,5", "abc", "1e400", "-0.2", "7"])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_bad_answers_give_a_message_and_no_grade(typed, lang):
    with pytest.raises(ValueError) as e:
        Q.grade(PREDICT, typed, lang=lang)
    assert str(e.value) and "Traceback" not in str(e.value)


def test_a_wrong_predict_value_is_named_by_the_mistake_that_gives_it():
    wrong = M.mistaken_values([3, 2, 3, 0, 1, 2], k=6, gain="linear")["rank_from_zero"]
    graded = Q.grade(PREDICT, f"{wrong:.3f}")
    assert not graded.correct and graded.mistake == "rank_from_zero"
    assert Q.grade(PREDICT, "0.5").mistake is None


def test_choose_options_are_the_right_value_and_named_mistakes_computed_by_the_engine():
    q = choose((3, 2, 3, 0, 1, 2), k=4, gain="linear", unretrieved=(3, 2),
                 keys=("retrieved_ideal", "cutoff_ignored"))
    values = dict((key, v) for v, key in q.options)
    # 5.7619 / IDCG@4 of [3, 3, 3, 2]: the ideal drawn with D7 = 3 and D8 = 2
    assert values[""] == round(nc.ndcg([3, 2, 3, 0, 1, 2], k=4, ideal=[3, 2, 3, 0, 1, 2, 3, 2]),
                               3)
    mistaken = M.mistaken_values([3, 2, 3, 0, 1, 2], k=4, unretrieved=(3, 2))
    assert values["retrieved_ideal"] == round(mistaken["retrieved_ideal"], 3)
    letters = {key: Q.LETTERS[i] for i, (_, key) in enumerate(q.options)}
    graded = Q.grade(q, letters["cutoff_ignored"].lower())
    assert not graded.correct and graded.mistake == "cutoff_ignored"
    assert Q.mistake_name(graded.mistake, "zh") == M.name("cutoff_ignored", "zh")
    assert Q.grade(q, letters[""]).correct
    with pytest.raises(ValueError, match="Pick one of A, B, C"):
        Q.grade(q, "D")


def test_choose_options_are_apart_within_0_and_1_and_not_always_first():
    firsts = set()
    for q in (x for x in BANK if x.kind == "choose"):
        values = [v for v, _ in q.options]
        assert all(0 <= v <= 1 for v in values)
        assert all(abs(a - b) >= 0.002 for i, a in enumerate(values) for b in values[i + 1:])
        firsts.add(Q.right_answer(q))
    assert len(firsts) > 1


def test_which_is_higher_names_the_gain_mistake():
    q = Q.Question("higher", (3, 0, 0, 2, 2), 5, "linear", other=(2, 2, 3, 0, 0))
    a, b = nc.ndcg([3, 0, 0, 2, 2], k=5), nc.ndcg([2, 2, 3, 0, 0], k=5)
    assert Q.right_answer(q) == ("A" if a > b else "B")
    wrong = "B" if a > b else "A"
    assert not Q.grade(q, wrong).correct
    if (nc.ndcg([3, 0, 0, 2, 2], k=5, gain="exponential") >
            nc.ndcg([2, 2, 3, 0, 0], k=5, gain="exponential")) == (wrong == "A"):
        assert Q.grade(q, wrong).mistake == "exponential_for_linear"


def test_arrange_scores_the_submitted_order_against_its_goal():
    best = Q.Question("arrange", (0, 3, 1, 2, 0), 3, "exponential", goal="highest")
    assert Q.grade(best, "i1,i3,i2,i0,i4").correct
    as_given = Q.grade(best, "i0,i1,i2,i3,i4")
    assert not as_given.correct and Q.kind_of(best).group(best, as_given.answer, False, None) == \
        f"{nc.ndcg([0, 3, 1, 2, 0], k=3, gain='exponential'):.3f}"
    low = Q.Question("arrange", (2, 0, 3, 1, 0, 2), 5, "linear", goal="below", target=0.5)
    assert Q.grade(low, "i1,i4,i3,i0,i5,i2").correct
    assert not Q.grade(low, "i2,i0,i5,i3,i1,i4").correct
    for bad in ("", "i0,i1", "i0,i0,i1,i2,i3,i4", "x,y,z"):
        with pytest.raises(ValueError, match="Drag the items"):
            Q.grade(low, bad)
    assert "Doc B, Doc E" in Q.explain(low, "i1,i4,i3,i0,i5,i2", "en")


def test_an_exercise_number_becomes_a_question():
    q = from_exercise(17)
    assert q.kind == "predict" and q.source == "exercise compute/medium/17"
    assert Q.grade(q, Q.right_answer(q)).correct
    assert from_exercise(17, kind="compare").kind == "higher"
    # asked as another kind: the exercise's ranking as that kind, or (two rankings asked of
    # one) as a predict question
    assert from_exercise(17, ask="choose").kind == "choose"
    assert from_exercise(17, ask="choose").grades == q.grades
    assert from_exercise(17, ask="higher").kind == "predict"


def test_a_share_link_becomes_a_question():
    q = from_link("http://localhost:8501/?g=3,2,3,0,1,2&k=4&pool=3,2")
    assert (q.grades, q.k, q.unretrieved) == ((3, 2, 3, 0, 1, 2), 4, (3, 2))
    assert Q.right_answer(q) == f"{nc.ndcg([3, 2, 3, 0, 1, 2], k=4, ideal=[3, 2, 3, 0, 1, 2, 3, 2]):.3f}"
    assert from_link("?g=3,1,2", "arrange").kind == "arrange"
    assert from_link("?g=3,1,2", "higher").kind == "predict"  # a link holds one ranking
    assert from_link("g=3,2,3,0,1,2&k=4", "choose").kind == "choose"
    for bad in ("", "hello", "?g=abc"):
        with pytest.raises(ValueError) as e:
            from_link(bad)
        assert "link" in str(e.value)


def test_questions_refuse_what_they_cannot_ask():
    for kw in (dict(kind="nope"), dict(k=9), dict(gain="both"),
               dict(kind="arrange"), dict(kind="higher"), dict(kind="choose")):
        with pytest.raises(ValueError):
            Q.Question(**{"kind": "predict", "grades": (1, 0), "k": 2, **kw})
    assert math.isfinite(Q.right_value(PREDICT))


@pytest.mark.parametrize("q", BANK, ids=lambda q: q.source)
@pytest.mark.parametrize("typed", [None, "", "  ", "AB", "E", "Z", "i0", "0.5,0.4"])
def test_every_kind_refuses_nothing_picked_and_an_unknown_answer(q, typed):
    """An empty Choose answer was stored (and scored right when A was): "" is in "ABCD"."""
    if q.kind == "predict" and typed == "E":
        typed = "e"  # not a number either
    with pytest.raises(ValueError) as e:
        Q.grade(q, typed, lang="zh")
    assert str(e.value)
    if q.kind == "higher":  # in the words of its options, "Ranking A" and "Ranking B"
        assert str(e.value) == "请选择排序 A 或排序 B。"


def _answer(text, correct=False, mistake=None, student=1):
    return Answer(1, student, None, text, correct, mistake, 0.0)


def test_the_reveal_counts_values_within_the_tolerance_together_and_keeps_the_options_order():
    """0.960, 0.961 and 0.962 are one right bar; two roundings of a mistake's value one
    mistake bar; values read low to high; a choose question's bars in letter order."""
    from lab.classroom import report

    right = nc.ndcg([3, 2, 3, 0, 1, 2], k=6)
    wrong = M.mistaken_values([3, 2, 3, 0, 1, 2], k=6, gain="linear")["rank_from_zero"]
    # within the ±0.001 tolerance, stored as 0.960, 0.961 and 0.962
    typed = [f"{right - 0.0009:.4f}", f"{right:.4f}", f"{right + 0.0009:.4f}",
             f"{wrong - 0.0009:.4f}", f"{wrong + 0.0009:.4f}", "0.100"]
    given = [_answer(g.answer, g.correct, g.mistake, i)
             for i, g in enumerate((Q.grade(PREDICT, x) for x in typed), 1)]
    rows = report.distribution(PREDICT, given)
    assert len({a.answer for a in given[:3]}) == 3  # three different stored values
    assert [(g, n, ok) for g, n, ok, _m in rows] == sorted([
        ("0.100", 1, False), (f"{wrong:.3f}", 2, False), (f"{right:.3f}", 3, True)])
    assert dict((g, m) for g, _n, _ok, m in rows)[f"{wrong:.3f}"] == "rank_from_zero"
    choose = BANK[1]
    d = report.distribution(choose, [_answer("C"), _answer("C", student=2), _answer("A", student=3)])
    assert [g for g, *_ in d] == list("ABCD")[:len(choose.options)]
    higher = BANK[2]
    assert [g for g, *_ in report.distribution(higher, [_answer("B")])] == ["A", "B"]


def test_the_summary_leaves_out_a_round_not_yet_revealed_and_the_csv_says_answers_in_words():
    from lab.classroom import report
    from lab.classroom.store import Room, Round

    arrange = Q.Question("arrange", (0, 3, 1), 1, labels=("a", "b", "c"), goal="highest")
    rounds = [Round(1, 1, 1, Q.to_json(arrange), "revealed", 100.0, None),
              Round(2, 1, 2, Q.to_json(arrange), "open", 200.0, None)]
    answers = [Answer(1, 1, None, "i1,i0,i2", True, None, 112.5),
               Answer(2, 1, None, "i0,i1,i2", False, None, 203.0)]
    rows = report.summary(rounds, answers, "en")
    assert [r["Round"] for r in rows] == [1]
    room = Room(1, "ABC234", "en", False, 200, 0.0, 1.0, 2, 1)
    got = list(csv.DictReader(io.StringIO(report.export_csv(room, rounds, answers))))
    assert got[0]["answer"] == "b, a, c (NDCG@1 = 1.000)"
    assert got[0]["ranking"] == "a (0), b (3), c (1)"
    assert got[0]["seconds_after_open"] == "12.5"
    choose = BANK[1]
    letter = Q.right_answer(choose)
    value = dict(zip(Q.LETTERS, (v for v, _ in choose.options)))[letter]
    assert Q.explain(choose, letter, "en") == f"{letter}: {value:.3f}"


@pytest.mark.parametrize("q", [q for q in BANK if q.kind == "higher"] +
                         [from_exercise(n, kind="compare") for n in (1, 17, 30)],
                         ids=lambda q: q.source)
def test_which_is_higher_never_gives_one_label_two_grades(q):
    """A label in ranking A and ranking B names one document: one grade."""
    seen = {}
    for label, g in [*zip(q.labels, q.grades), *zip(Q.other_labels(q), q.other)]:
        assert seen.setdefault(label, g) == g, (label, seen[label], g)
