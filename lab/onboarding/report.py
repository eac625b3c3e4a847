"""What the lead reads and downloads: the members × steps matrix, the events as a plain CSV,
and the same events as xAPI statements (actor / verb / object, ADL's verb ids), which a
learning record store takes as they are.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pandas as pd

from . import steps as S
from .store import Event, Member, StepProgress, Team, progress_of

# ADL's registered verbs (https://registry.tincanapi.com): opened, tried, passed a step.
XAPI_VERBS = {
    "started": ("http://adlnet.gov/expapi/verbs/launched", "launched"),
    "tried": ("http://adlnet.gov/expapi/verbs/attempted", "attempted"),
    "done": ("http://adlnet.gov/expapi/verbs/completed", "completed"),
}
ACTIVITY = "urn:ndcg-lab:onboarding:{step}"
HOME = "urn:ndcg-lab:team:{code}"


def when(at: float | None) -> str:
    """A moment as an ISO 8601 UTC time to the second ("" for none)."""
    if at is None:
        return ""
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def by_member(evts: list[Event]) -> dict[int, dict[str, StepProgress]]:
    """``{member number: {step: StepProgress}}`` from events (what Store.summary gives)."""
    grouped: dict[int, list[Event]] = {}
    for e in evts:
        grouped.setdefault(e.member, []).append(e)
    return {number: progress_of(mine) for number, mine in grouped.items()}


def matrix(people: list[Member], progress: dict[int, dict[str, StepProgress]], *,
           shown=None) -> pd.DataFrame:
    """One row per member: number, name, steps done of the available ones, each step's level,
    minutes spent in all, joined and last active (UTC). Column names are stable ids (the
    page words them); ``progress``: :meth:`Store.summary`'s or :func:`by_member`'s;
    ``shown``: the steps counted (default: the available ones)."""
    shown = tuple(shown or S.available())
    empty = StepProgress(S.NOT_STARTED, None, None, 0.0)
    rows = []
    for m in people:
        prog = progress.get(m.number, {})
        levels = {s: prog.get(s, empty).level for s in shown}
        rows.append({"member": m.number, "name": m.name,
                     "done": sum(v == S.DONE for v in levels.values()), "of": len(shown),
                     **levels,
                     "minutes": round(sum(prog.get(s, empty).seconds for s in shown) / 60, 1),
                     "joined": when(m.joined_at), "last_active": when(m.last_active)})
    columns = ["member", "name", "done", "of", *shown, "minutes", "joined", "last_active"]
    return pd.DataFrame(rows, columns=columns)


def events_csv(team: Team, evts: list[Event]) -> str:
    """Every event, one line each: who, which step, what, when, and the evidence (JSON)."""
    frame = pd.DataFrame([{"team": team.code, "member": e.member, "name": e.name,
                           "step": e.step, "verb": e.verb, "time": when(e.at),
                           "evidence": json.dumps(e.evidence, sort_keys=True)} for e in evts],
                         columns=["team", "member", "name", "step", "verb", "time",
                                  "evidence"])
    return frame.to_csv(index=False)


def statement(team: Team, e: Event) -> dict:
    """One event as an xAPI statement."""
    verb_id, verb = XAPI_VERBS[e.verb]
    out = {
        "actor": {"objectType": "Agent", "name": e.name,
                  "account": {"homePage": HOME.format(code=team.code),
                              "name": f"{team.code}-{e.member}"}},
        "verb": {"id": verb_id, "display": {"en-US": verb}},
        "object": {"objectType": "Activity", "id": ACTIVITY.format(step=e.step),
                   "definition": {"name": {"en-US": S.title(e.step, "en")}}},
        "timestamp": when(e.at),
        "context": {"extensions": {"urn:ndcg-lab:team": team.code}},
    }
    if e.verb != "started":
        out["result"] = {"success": e.verb == "done", "completion": e.verb == "done",
                         "extensions": {"urn:ndcg-lab:evidence": e.evidence}}
    return out


def xapi_json(team: Team, evts: list[Event]) -> str:
    return json.dumps([statement(team, e) for e in evts], ensure_ascii=False, indent=1)
