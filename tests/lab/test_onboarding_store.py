"""Teams, members and progress events against SQLite and a real PostgreSQL server
(tests/postgres_server.py), the lead's matrix and exports, and the completion record's
verification code. No mocks: every store test runs on both databases."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from lab.onboarding import checks as C, db, record as REC, report as R, steps as S
from lab.onboarding.errors import OnboardError
from lab.onboarding.store import MAX_NAME, Store






@pytest.fixture
def store(url, clock) -> Store:
    engine = db.open_engine(url)
    yield Store(engine, clock=clock)
    engine.dispose()


def right_ndcg(n: int) -> C.Verdict:
    ex = C.ndcg_question(n)
    return C.check_ndcg(n, f"{C.X.solution(ex)['ndcg']:.3f}", "en")


def test_tables_live_beside_class_mode_with_their_own_schema_version(url):
    engine = db.open_engine(url)
    assert db.create_schema(engine) == db.SCHEMA_VERSION  # a second start changes nothing
    names = set(sa.inspect(engine).get_table_names())
    assert {"class_rooms", "onboard_teams", "onboard_members", "onboard_events"} <= names
    with engine.begin() as conn:
        conn.execute(db.schema_version.update().values(version=db.SCHEMA_VERSION + 1))
    with pytest.raises(ValueError, match="schema version 2"):
        db.create_schema(engine)
    engine.dispose()


def test_a_lead_starts_a_team_and_only_its_secret_opens_the_lead_view(store):
    team, secret = store.create_team("Search")
    assert len(team.code) == 6 and set(team.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert store.lead_team(team.code.lower(), secret).id == team.id
    with store.engine.connect() as conn:  # only the digest is stored
        stored = conn.execute(sa.select(db.teams.c.secret_hash)).scalar_one()
    assert secret not in stored
    for code, key in ((team.code, secret[:-1] + "x"), ("ZZZZZZ", secret), (team.code, "short"),
                      ("<script>", secret)):
        with pytest.raises(OnboardError, match="not_lead"):
            store.lead_team(code, key)


def test_a_member_joins_by_name_and_their_link_brings_their_progress_back(store, url, clock):
    team, _ = store.create_team()
    me, token = store.join(team.code, "  Ana   <b>Li</b>\n")
    assert me.name == "Ana <b>Li</b>" and me.number == 1  # kept as data, whitespace folded
    store.start(me, "ndcg")
    clock.now += 90
    verdict = right_ndcg(1)
    assert store.record(me, "ndcg", "done", verdict.evidence) == S.DONE
    # another device, another process: a new engine, the same link
    other = Store(db.open_engine(url), clock=clock)
    again = other.member(team.code, token)
    prog = other.progress(again)
    assert prog["ndcg"].level == S.DONE and prog["ndcg"].seconds == 90
    assert prog["drag"].level == S.NOT_STARTED
    other.engine.dispose()
    for bad in ("x" * 22, "", "../../etc", None):
        with pytest.raises(OnboardError, match="not_member"):
            store.member(team.code, bad)


def test_a_step_that_is_done_stays_done_after_wrong_answers(store):
    team, _ = store.create_team()
    me, _ = store.join(team.code, "Bo")
    assert store.record(me, "cutoff", "tried", {"k": 3}) == S.TRIED
    assert store.record(me, "cutoff", "done", {"k": 4}) == S.DONE
    assert store.record(me, "cutoff", "tried", {"k": 2}) == S.DONE


def test_names_are_required_and_capped(store):
    team, _ = store.create_team()
    with pytest.raises(OnboardError, match="no_name"):
        store.join(team.code, "   ")
    me, _ = store.join(team.code, "N" * 500)
    assert len(me.name) == MAX_NAME


def test_a_team_holds_its_maximum_and_ends_only_when_the_lead_closes_it(store, clock):
    team, secret = store.create_team(max_members=2)
    store.join(team.code, "A")
    me, token = store.join(team.code, "B")
    with pytest.raises(OnboardError, match="full"):
        store.join(team.code, "C")
    clock.now += 400 * 24 * 3600  # a year later: still there
    assert store.member(team.code, token).name == "B"
    store.close(team.code, secret)
    for action in (lambda: store.member(team.code, token), lambda: store.team(team.code),
                   lambda: store.record(me, "ndcg", "tried")):
        with pytest.raises(OnboardError, match="closed"):
            action()
    with pytest.raises(OnboardError, match="not_lead"):
        store.lead_team(team.code, secret)


def test_a_sign_in_finds_the_same_member_again(store):
    team, _ = store.create_team()
    first, _ = store.join(team.code, "Ana", subject="oidc|123")
    again, token = store.join(team.code, "Ana L.", subject="oidc|123")
    assert again.id == first.id and again.name == "Ana L."
    assert store.member(team.code, token).id == first.id
    assert store.team(team.code).members == 1


def test_the_spot_streak_is_read_back_from_the_events(store):
    team, _ = store.create_team()
    me, _ = store.join(team.code, "Cy")
    for streak in (1, 2):
        store.record(me, "mistakes", "tried", {"streak": streak})
    assert store.spot_streak(me) == 2
    store.record(me, "mistakes", "tried", {"streak": 0})
    assert store.spot_streak(me) == 0


def test_the_lead_sees_each_member_by_step_and_downloads_it(store, clock):
    team, secret = store.create_team("Search")
    ana, _ = store.join(team.code, "Ana")
    bo, _ = store.join(team.code, "=HYPERLINK(\"x\")")
    store.start(ana, "ndcg")
    clock.now += 120
    store.record(ana, "ndcg", "done", right_ndcg(1).evidence)
    store.record(ana, "drag", "tried", {"order": ["Doc A"]})
    store.record(bo, "flip", "tried", {})
    t, people, evts = store.roster(team.code, secret)
    frame = R.matrix(people, R.by_member(evts))
    summed = store.summary(team.code, secret)[2]  # the same, added up by the database
    assert R.matrix(people, summed).equals(frame)
    rows = frame.set_index("name")
    assert rows.loc["Ana", "ndcg"] == S.DONE and rows.loc["Ana", "drag"] == S.TRIED
    assert rows.loc["Ana", "done"] == 1 and rows.loc["Ana", "of"] == len(S.available())
    assert rows.loc["Ana", "minutes"] == 2.0
    assert rows.loc["=HYPERLINK(\"x\")", "flip"] == S.TRIED
    csv = R.events_csv(t, evts)
    assert csv.splitlines()[0] == "team,member,name,step,verb,time,evidence"
    assert len(csv.splitlines()) == 1 + len(evts)
    statements = json.loads(R.xapi_json(t, evts))
    done = [s for s in statements if s["verb"]["display"]["en-US"] == "completed"]
    assert len(done) == 1 and done[0]["actor"]["name"] == "Ana"
    assert done[0]["object"]["id"] == "urn:ndcg-lab:onboarding:ndcg"
    assert done[0]["result"]["success"] is True
    assert done[0]["timestamp"] == "2027-01-15T08:02:00Z"


def test_the_lead_sets_the_teams_files_and_convention(store):
    team, secret = store.create_team()
    assert store.files(team.code) is None  # the bundled sample until the lead sets files
    store.set_files(team.code, secret, ("q.txt", b"q01 0 d1 1\n"), ("r.run", b"run"))
    assert store.files(team.code) == (("q.txt", b"q01 0 d1 1\n"), ("r.run", b"run"))
    store.set_convention(team.code, secret, "sklearn")
    assert store.team(team.code).convention == "sklearn"
    with pytest.raises(OnboardError, match="convention"):
        store.set_convention(team.code, secret, "mine")


def _signed(store, clock):
    team, secret = store.create_team("Search")
    me, _ = store.join(team.code, "Ana")
    store.record(me, "ndcg", "done", right_ndcg(1).evidence)
    store.record(me, "reproduce", "done", {"mean": 0.5912, "engine": 0.591165, "k": 10,
                                           "convention": "trec_eval",
                                           "qrels_sha256": "ab" * 32, "run_sha256": "cd" * 32})
    evts = store.events(me)
    prog = store.progress(me)
    return REC.signed_text(store.team(team.code), me, prog, REC.reproduced(evts), clock(),
                           store.record_key())


def test_a_record_verifies_and_a_changed_digit_fails(store, clock):
    text = _signed(store, clock)
    key = store.record_key()
    assert "Reproduced: mean NDCG@10 = 0.5912" in text and "Run SHA-256: " + "cd" * 32 in text
    assert REC.verify(text, key)
    assert REC.verify(text.replace("\n", "  \n ").replace(": ", ":\n"), key)  # copied from a PDF
    changed = text.replace("0.5912 (typed", "0.5913 (typed")
    assert changed != text and not REC.verify(changed, key)
    assert not REC.verify(text.replace("cdcd", "cdce", 1), key)
    assert not REC.verify(text, b"another server's key")
    assert not REC.verify(text.split("Verification")[0], key)


def test_the_record_is_one_page_with_its_lines(store, clock):
    from pypdf import PdfReader
    import io
    text = _signed(store, clock)
    for lang in ("en", "zh"):
        reader = PdfReader(io.BytesIO(REC.pdf(text, lang=lang)))
        assert len(reader.pages) == 1
        printed = reader.pages[0].extract_text()
        assert "Verification code:" in printed and "0.5912" in printed
        assert REC.verify(printed, store.record_key())
