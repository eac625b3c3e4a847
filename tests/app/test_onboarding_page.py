"""The onboarding page under AppTest: a lead's and a member's sessions sharing one SQLite
database (each AppTest is its own session, as each browser tab is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab.onboarding import checks as C, steps as S
from lab.text import escape_markdown
from ui import onboarding

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/onboarding.py"
M = len(S.available())  # the steps this server offers (the code step once its page exists)


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """A fresh database folder per test; the page's one engine per process opened anew."""
    monkeypatch.setenv("NDCG_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DB_URL", raising=False)
    onboarding.store.clear()
    yield
    onboarding.store().engine.dispose()
    onboarding.store.clear()


def open_page(lang="en", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if lang != "en":
        at.query_params["lang"] = lang
    at.run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(PAGE).run()


def start_team(lang="en") -> tuple[AppTest, str]:
    lead = open_page(lang)
    lead.button(key="ob_start").click().run()
    assert not lead.exception
    return lead, lead.query_params["team"]


def join(code: str, name: str, lang="en") -> AppTest:
    member = open_page(lang, team=code)
    member.text_input(key="ob_name").input(name)
    member.button[0].click().run()
    assert not member.exception and member.query_params["me"]
    return member


def test_the_lead_link_leaves_the_address_bar_and_stays_on_the_page():
    """The lead sees the team link to send; the secret is in a folded link, not the URL."""
    lead, code = start_team()
    assert dict(lead.query_params) == {"team": code}
    links = [c.value for c in lead.code]
    assert links[0].endswith(f"/onboarding?team={code}")
    secret = links[1].split("lead=")[1]
    again = open_page(team=code, lead=secret)  # another tab, after a restart: the same view
    assert dict(again.query_params) == {"team": code}
    assert any(f"code {code}" in s.value for s in again.subheader)


def test_a_member_joins_does_step_one_and_the_lead_sees_it_done():
    lead, code = start_team()
    member = join(code, "**Ana** <img src=x>")
    assert any(f"0 of {M} steps done" == p.proto.text for p in member.get("progress"))
    assert any(escape_markdown("**Ana** <img src=x>") in c.value for c in member.caption)
    ex = C.ndcg_question(8)  # the first member's first question (ui/onboard_steps.py)
    member.text_input(key=f"ob_a_ndcg_{ex.number}").input(
        f"{C.X.solution(ex)['ndcg']:.3f}")
    member.button(key=f"FormSubmitter:ob_f_ndcg_{ex.number}-Check").click().run()
    assert not member.exception
    assert any("Right" in s.value for s in member.success)
    assert any(f"1 of {M} steps done" == p.proto.text for p in member.get("progress"))
    lead.run()
    table = lead.dataframe[0].value
    assert table.iloc[0]["name"] == "**Ana** <img src=x>"  # data, in a table cell
    assert table.iloc[0]["1"] == "done"


def test_bad_link_values_are_refused_before_any_query():
    """A team code with look-alikes, a mangled token: a sentence, never a traceback."""
    page = open_page(team="O0I1L!")
    assert not page.exception and "No team has this code" in page.error[0].value
    lead, code = start_team()
    page = open_page(team=code, me="'; DROP TABLE x; --")
    assert not page.exception and "personal link is not valid" in page.error[0].value
    assert page.button[0].label == "Join the team"


def test_the_page_in_chinese():
    lead, code = start_team("zh")
    member = join(code, "李雷", "zh")
    assert any(f"已完成 0 / {M} 步" == p.proto.text for p in member.get("progress"))


def test_a_database_that_does_not_answer_is_a_sentence(monkeypatch):
    """PostgreSQL down (nothing listens on the port): the team link reads a message that the
    database did not answer, never a traceback."""
    onboarding.store.clear()
    monkeypatch.setenv("NDCG_LAB_DB_URL", "postgresql+psycopg://lab@127.0.0.1:9/lab")
    page = open_page(team="ABCDEF")
    assert not page.exception
    assert "The team database did not answer" in page.error[0].value
    monkeypatch.delenv("NDCG_LAB_DB_URL")
    onboarding.store.clear()


def test_reproducing_the_number_gives_a_record_the_lead_checks():
    """Step 9 on the bundled sample under trec_eval: the record's text appears with its code;
    pasted on the lead's page it reads Valid, and with one digit changed, Not valid."""
    import ndcg_core as nc
    samples = Path(__file__).resolve().parents[2] / "assets" / "samples"
    mean = nc.evaluate(nc.read_qrels(samples / "qrels.txt"),
                       nc.read_run(samples / "system_a.run"), k=10)["ndcg@10"].mean()
    lead, code = start_team()
    member = join(code, "Ana")
    member.radio(key="ob_step").set_value("reproduce").run()
    member.text_input(key="ob_a_repro").input(f"{mean:.4f}")
    member.button(key="FormSubmitter:ob_f_repro-Check").click().run()
    assert not member.exception
    assert any("Reproduced" in s.value for s in member.success)
    text = next(c.value for c in member.code if "Verification code" in c.value)
    assert f"mean NDCG@10 = {mean:.4f}" in text
    for pasted, verdict in ((text, "Valid"), (text.replace("Member: 1", "Member: 2"), "Not valid")):
        lead.text_area(key="ob_record_text").input(pasted)
        lead.button(key="ob_check_record").click().run()
        shown = [m.value for m in (lead.success if verdict == "Valid" else lead.error)]
        assert any(m.startswith(verdict) for m in shown), shown


def test_a_server_with_a_sign_in_offers_it_beside_the_name():
    """[auth] in the secrets: the team link shows Sign in, and joining by name still works;
    without it (every other test) there is no Sign in at all."""
    lead, code = start_team()
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["auth"] = {"redirect_uri": "http://localhost:8501/oauth2callback",
                          "cookie_secret": "x" * 32, "client_id": "id",
                          "client_secret": "secret",
                          "server_metadata_url": "https://example.org/.well-known/openid"}
    at.run()
    at.query_params.clear()
    at.query_params.update({"team": code})
    at.switch_page(PAGE).run()
    assert not at.exception
    assert [b.label for b in at.button][:2] == ["Sign in", "Join the team"]
    assert "Sign in" not in [b.label for b in open_page(team=code).button]
