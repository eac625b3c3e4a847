"""Onboarding in Chromium: a lead (1280x720) starts a team, a member on a phone (390x844,
touch) joins and finishes two steps, and the lead's matrix shows them done, in English and
Chinese; then a server killed with SIGKILL in the middle of a step loses no finished step,
and the member's personal link and the lead's link work on the restarted server."""

from __future__ import annotations

import os
import re
import signal

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import RERUN_TIMEOUT_MS, open_app_on, wait_idle_on
from test_class_mode_browser import phone, press, server, teacher_page

from lab.onboarding import checks as C, steps as S

FIRST = 8  # the first member's first question number (database id 1: ui/onboard_steps.py)
WORDS = {
    "en": dict(start="Start a team", name="Your name", join="Join the team", check="Check",
               done="done", progress="{n} of {m} steps done", conventions="5. Conventions",
               lead_link="Your lead link (keep it private)"),
    "zh": dict(start="新建团队", name="你的名字", join="加入团队", check="核对",
               done="已完成", progress="已完成 {n} / {m} 步", conventions="5. 约定",
               lead_link="你的负责人链接（请勿外传）"),
}


def start_team(lead: Page, url: str, w: dict, lang: str) -> tuple[str, str]:
    """The team link and the lead link (read from the page: the address bar has no secret)."""
    open_app_on(lead, f"{url}/onboarding?lang={lang}")
    press(lead, w["start"])
    lead.wait_for_url("**/onboarding?team=*")
    assert "lead=" not in lead.url
    lead.get_by_text(w["lead_link"]).click()
    codes = lead.locator("[data-testid='stCode'] code").all_text_contents()
    team = next(c for c in codes if "lead=" not in c)
    return team, next(c for c in codes if "lead=" in c)


def join(member: Page, team_link: str, name: str, w: dict, lang: str) -> str:
    open_app_on(member, f"{team_link}&lang={lang}")
    member.get_by_label(w["name"]).fill(name)
    press(member, w["join"], tap=True)
    member.wait_for_url("**me=*")
    return member.url


def answer_step_one(member: Page, w: dict) -> None:
    ex = C.ndcg_question(FIRST)
    box = member.get_by_label(f"NDCG@{ex.k} =")
    box.fill(f"{C.X.solution(ex)['ndcg']:.3f}")
    press(member, w["check"], tap=True)


def progress_is(page: Page, w: dict, n: int) -> None:
    expect(page.get_by_text(w["progress"].format(n=n, m=len(S.available())), exact=True)).to_be_visible(
        timeout=RERUN_TIMEOUT_MS)


def done_cells(lead: Page, w: dict):
    return lead.locator("[data-testid='stDataFrame'] [role='gridcell']").filter(
        has_text=re.compile(f"^{w['done']}$"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_member_walks_two_steps_and_the_lead_sees_them(browser: Browser, tmp_path, lang):
    """The member's phone reads "2 of 9 steps done"; the lead's matrix shows two done cells."""
    w = WORDS[lang]
    lead, member = teacher_page(browser), phone(browser)
    with server({"NDCG_LAB_DATA": str(tmp_path)}, tmp_path) as (_proc, url):
        team, _ = start_team(lead, url, w, lang)
        join(member, team, "<b>Ana</b>", w, lang)
        expect(member.get_by_text("<b>Ana</b>", exact=False).first).to_be_visible()
        progress_is(member, w, 0)
        answer_step_one(member, w)
        progress_is(member, w, 1)
        member.get_by_text(w["conventions"]).tap()
        wait_idle_on(member)
        q = C.conventions_question(FIRST)
        value = C.option_text(q.options[C.LETTERS.index(q.answer)], lang)
        member.get_by_text(f"{q.answer} · {value}", exact=True).tap()
        press(member, w["check"], tap=True)
        progress_is(member, w, 2)
        expect(done_cells(lead, w)).to_have_count(2, timeout=RERUN_TIMEOUT_MS)  # polled: 5 s
    lead.context.close()
    member.context.close()


def test_kill_9_during_a_step_keeps_every_finished_step(browser: Browser, tmp_path):
    """Step 1 done, step 5's answer picked but not sent, SIGKILL: after the restart the
    personal link shows 1 of 9 done, the lead link opens the lead's matrix, and the team link
    alone brings each browser back to its place (its cookie)."""
    w = WORDS["en"]
    env = {"NDCG_LAB_DATA": str(tmp_path)}
    lead, member = teacher_page(browser), phone(browser)
    with server(env, tmp_path) as (proc, url):
        team, lead_link = start_team(lead, url, w, "en")
        mine = join(member, team, "Bo", w, "en")
        answer_step_one(member, w)
        progress_is(member, w, 1)
        member.get_by_text(w["conventions"]).tap()
        wait_idle_on(member)
        q = C.conventions_question(FIRST)
        member.get_by_text(f"{q.answer} · ", exact=False).first.tap()  # in the middle of it
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)
    with server(env, tmp_path) as (_proc, url2):
        old = team.split("/onboarding")[0]
        open_app_on(member, mine.replace(old, url2))
        progress_is(member, w, 1)
        open_app_on(lead, lead_link.replace(old, url2))
        assert "lead=" not in lead.url
        expect(done_cells(lead, w)).to_have_count(1, timeout=RERUN_TIMEOUT_MS)
        open_app_on(lead, team.replace(old, url2))
        expect(done_cells(lead, w)).to_have_count(1, timeout=RERUN_TIMEOUT_MS)
        open_app_on(member, team.replace(old, url2))
        progress_is(member, w, 1)
    lead.context.close()
    member.context.close()
