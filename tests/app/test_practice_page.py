"""AppTest checks of the Exercises page: answers checked step by step, solutions, compare
exercises."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import exercises as E
from page_tests import APP, metrics, page

# ------------------------------------------------------------------ practice

def practice() -> tuple[AppTest, E.Exercise]:
    at = page("pages/practice.py")
    number = int(at.number_input(key="px_number").value)
    level, kind = at.radio(key="px_level").value, at.radio(key="px_kind").value
    return at, E.generate(number, level, kind)


def type_answers(at, values: dict):
    for step, text in values.items():
        at.text_input(key=f"px_{step}").input(text)
    at.button(key="px_check").click().run()
    assert not at.exception


def test_practice_accepts_a_correct_answer():
    at, ex = practice()
    g = list(ex.grades)
    right = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    type_answers(at, {s: f"{v:.3f}" for s, v in right.items()})
    assert "within ±0.001" in at.success[0].value
    assert metrics(at)["Score"] == "1 / 1"


@pytest.mark.parametrize("wrong, named", [("idcg", "IDCG"), ("dcg", "DCG"),
                                          ("ndcg", "NDCG")])
def test_practice_names_the_first_wrong_step(wrong, named):
    """Correct DCG but a wrong IDCG is reported as "IDCG@k is off", and so on."""
    at, ex = practice()
    g = list(ex.grades)
    typed = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    typed[wrong] += 0.5
    type_answers(at, {s: f"{v:.3f}" for s, v in typed.items()})
    assert at.error[0].value.startswith(f"**{named}@{ex.k} is off**")
    assert metrics(at)["Score"] == "0 / 1"


@pytest.mark.parametrize("text", ["", "abc", "1,5"])
def test_practice_bad_input_gets_a_message_and_stays(text):
    at, _ = practice()
    type_answers(at, {"dcg": text, "idcg": "1", "ndcg": "0.5"})
    assert at.error and "Nothing was graded" in at.error[0].value
    assert at.text_input(key="px_dcg").value == text
    assert metrics(at)["Score"] == "0 / 0"


def test_practice_new_exercise_and_solution():
    at, ex = practice()
    at.button(key="px_reveal").click().run()
    assert not at.exception and metrics(at)["Score"] == "0 / 1"
    at.button(key="px_new").click().run()
    assert at.number_input(key="px_number").value == ex.number + 1


def test_practice_compare_exercise():
    at = page("pages/practice.py")
    at.radio(key="px_kind").set_value("compare").run()
    ex = E.generate(1, "medium", "compare")
    at.radio(key="px_choice").set_value(E.solution(ex)["winner"])
    at.button(key="px_check").click().run()
    assert not at.exception and at.success and metrics(at)["Score"] == "1 / 1"


# ------------------------------------------------------------------ in Chinese

def practice_in(lang: str) -> tuple[AppTest, E.Exercise]:
    """The Exercises page opened with ?lang=<lang> (a new session)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/practice.py").run()
    assert not at.exception
    ss = at.session_state
    return at, E.generate(int(ss["px_number"]), ss["px_level"], ss["px_kind"])


def numbers(text: str) -> list:
    return re.findall(r"\d+(?:\.\d+)?", text)


def test_the_exercises_page_speaks_chinese_with_lang_zh():
    at, ex = practice_in("zh")
    assert at.radio(key="px_kind").label == "习题"
    assert at.radio(key="px_kind").options == ["计算 DCG、IDCG 和 NDCG", "哪个排序胜出？", "找出错误"]
    assert at.radio(key="px_level").label == "难度"
    assert at.radio(key="px_level").options == ["简单", "中等", "困难"]
    assert at.number_input(key="px_number").label == "习题编号"
    assert at.button(key="px_check").label == "核对"
    assert at.button(key="px_new").label == "新习题"
    assert at.button(key="px_reveal").label == "显示答案"
    assert metrics(at) == {"得分": "0 / 0"}
    assert at.subheader[0].value == f"习题 {ex.number} · 中等"
    assert any(m.value.startswith(f"截断位置 **k = {ex.k}**") for m in at.markdown)


def test_a_correct_answer_is_praised_in_chinese_with_the_english_figures():
    """DCG@k, IDCG@k, NDCG@k: the same numbers in both languages, only the words differ."""
    said = {}
    for lang in ("en", "zh"):
        at, ex = practice_in(lang)
        g = list(ex.grades)
        type_answers(at, {"dcg": f"{nc.dcg(g, k=ex.k, gain=ex.gain):.3f}",
                          "idcg": f"{nc.idcg(g, k=ex.k, gain=ex.gain):.3f}",
                          "ndcg": f"{nc.ndcg(g, k=ex.k, gain=ex.gain):.3f}"})
        said[lang] = at.success[0].value
    assert said["zh"].startswith("三个答案都在 ±0.001 以内：")
    assert numbers(said["zh"]) == numbers(said["en"])


def test_the_first_wrong_step_and_its_hint_in_chinese():
    at, _ = practice_in("zh")
    at.radio(key="px_level").set_value("hard").run()  # k cuts into the list
    ex = E.generate(int(at.session_state["px_number"]), "hard", "compute")
    g = list(ex.grades)
    # the IDCG of the whole list, not cut at k: a slip the checker recognises
    typed = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    answers = {s: f"{v:.3f}" for s, v in typed.items()}
    type_answers(at, answers)
    shown_as = f"{float(answers['idcg']):g}"  # the typed value, as the English says it too
    assert at.error[0].value.startswith(f"**IDCG@{ex.k} 不对：** 你输入的是 {shown_as}。")
    assert f"DCG@{ex.k} 是对的" in at.error[0].value
    assert at.info[0].value == f"这是整个列表的理想值：理想排序也要在 k = {ex.k} 处截断。"


def test_an_unreadable_answer_is_explained_in_chinese_and_not_graded():
    at, _ = practice_in("zh")
    type_answers(at, {"dcg": "abc", "idcg": "1,5", "ndcg": ""})
    shown = [e.value for e in at.error]
    assert "“abc”不是数字" in shown[0] and "本次未评分" in shown[0]
    assert "“1,5”用了逗号" in shown[1] and "例如 1\\.5" in shown[1]  # escaped Markdown
    assert "还没有输入" in shown[2]
    assert metrics(at)["得分"] == "0 / 0"


def test_the_feedback_follows_a_language_switch():
    """Checked in English, then the language switched: the same verdict, re-worded."""
    at, ex = practice_in("en")
    type_answers(at, {"dcg": "abc", "idcg": "1", "ndcg": "1"})
    assert "“abc” is not a number" in at.error[0].value
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception
    assert "“abc”不是数字" in at.error[0].value


def test_a_compare_exercise_in_chinese():
    at, _ = practice_in("zh")
    at.radio(key="px_kind").set_value("compare").run()
    ex = E.generate(1, "medium", "compare")
    assert at.radio(key="px_choice").options == ["排序 A", "排序 B"]
    assert at.radio(key="px_choice").label.startswith("按")
    at.radio(key="px_choice").set_value(E.solution(ex)["winner"])
    at.button(key="px_check").click().run()
    assert not at.exception and metrics(at)["得分"] == "1 / 1"
    assert at.success[0].value.startswith("答对了：")
    sol = E.solution(ex)
    assert f"{sol['A']:.3f}" in at.success[0].value and f"{sol['B']:.3f}" in at.success[0].value


# ------------------------------------------------------------------ the mistakes catalogue

def test_a_typed_ndcg_that_is_a_known_mistake_is_named_before_the_wrong_step():
    """DCG and IDCG right, NDCG the figure of a catalogued mistake: a warning names it, then
    the usual "NDCG@k is off"."""
    from lab import mistakes as M
    from lab.text import escape_markdown
    at, ex = practice()
    key, value = next(iter(M.distinct_mistakes(list(ex.grades), k=ex.k, gain=ex.gain)
                           .items()))
    sol = E.solution(ex)
    type_answers(at, {"dcg": f"{sol['dcg']:.3f}", "idcg": f"{sol['idcg']:.3f}",
                      "ndcg": f"{value:.3f}"})
    assert escape_markdown(M.name(key)) in at.warning[0].value
    assert at.error[0].value.startswith(f"**NDCG@{ex.k} is off**")
    assert metrics(at)["Score"] == "0 / 1"


def test_spot_the_mistake_exercise():
    """The wrong figure is given; the right pick scores, a wrong one names the real mistake."""
    from lab import mistakes as M
    at = page("pages/practice.py")
    at.radio(key="px_kind").set_value("spot").run()
    ex = E.generate(1, "medium", "spot")
    radio = at.radio(key="px_choice")
    assert radio.options == [M.name(k) for k in ex.options]
    figure = M.mistaken_values(list(ex.grades), k=ex.k, gain=ex.gain,
                               unretrieved=ex.unretrieved)[ex.mistake]
    assert f"**{figure:.3f}**" in radio.label
    radio.set_value(next(k for k in ex.options if k != ex.mistake))
    at.button(key="px_check").click().run()
    assert not at.exception and at.error[0].value.startswith("Not this one")
    assert metrics(at)["Score"] == "0 / 1"
    at.radio(key="px_choice").set_value(ex.mistake)
    at.button(key="px_check").click().run()
    assert at.success and metrics(at)["Score"] == "1 / 1"   # right before the solution
    at.button(key="px_new").click().run()
    ex2 = E.generate(2, "medium", "spot")
    at.radio(key="px_choice").set_value(ex2.mistake)
    at.button(key="px_check").click().run()
    assert at.success and metrics(at)["Score"] == "2 / 2"
    at.button(key="px_reveal").click().run()
    assert not at.exception
    assert any(M.name(ex2.mistake) in md.value for md in at.markdown)


def test_spot_the_mistake_in_chinese():
    from lab import mistakes as M
    at, _ = practice_in("zh")
    at.radio(key="px_kind").set_value("spot").run()
    ex = E.generate(int(at.session_state["px_number"]), "medium", "spot")
    assert at.radio(key="px_choice").options == [M.name(k, "zh") for k in ex.options]
    assert "哪个错误" in at.radio(key="px_choice").label
