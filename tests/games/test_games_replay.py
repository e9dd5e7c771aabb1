"""The replay pages: who may see what, steps, review, export → import, My games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from games.models import HandRecord, HandReview, Room
from games.replay.handfile import (
    HandFileError,
    hand_file_from_record,
    parse_hand_file,
)
from games.replay.replay import clear_cache
from games.services import hand_annul, table_play_bot, table_quick_match
from games.services.review import review_store
from tests.games.conftest import make_player
from tests.games.driver import live_hand, play_out, stored_hand

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_replays():
    clear_cache()
    yield
    clear_cache()


def _pvp(alice, bob, room, seed=1) -> HandRecord:
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    play_out(table, {0: alice, 1: bob}, seed=seed)
    return HandRecord.objects.get(pk=table.hand_id)


def _url(record, **query) -> str:
    url = reverse("games:hand_record", args=[record.pk])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def _step(html: str) -> int:
    return int(re.search(r'data-testid="replay-step">(\d+)<', html).group(1))


# ----------------------------------------------------------------- access
def test_nobody_sees_a_live_hand_then_its_players_and_staff(client, alice, bob, room):
    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    record = table.hand
    client.force_login(alice)
    assert client.get(_url(record)).status_code == 404  # being played
    assert client.get(reverse("games:hand_export", args=[record.pk])).status_code == 404
    play_out(table, {0: alice, 1: bob}, seed=2)
    record.refresh_from_db()
    assert record.status == HandRecord.Status.ENDED
    for user in (alice, bob):
        client.force_login(user)
        page = client.get(_url(record))
        assert page.status_code == 200
        assert 'data-testid="replay-page"' in page.content.decode()
    stranger = make_player("stranger")
    client.force_login(stranger)
    assert client.get(_url(record)).status_code == 404
    assert client.get(reverse("games:hand_export", args=[record.pk])).status_code == 404
    staff = make_player("mod")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(_url(record)).status_code == 200
    client.logout()
    anonymous = client.get(_url(record))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_signed_out_export_follows_the_replay_page(client, alice, bob, room):
    """The export answers a signed-out visitor as its replay page does: the
    sign-in page (then back to the file) for a private hand, the file once
    public (it answered 404 while the page asked to sign in)."""
    record = _pvp(alice, bob, room)
    export = reverse("games:hand_export", args=[record.pk])
    response = client.get(export)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={export}"
    share = reverse("games:hand_share", args=[record.pk])
    response = client.post(share, {"public": "1"})
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={share}"
    record.refresh_from_db()
    assert not record.public
    HandRecord.objects.filter(pk=record.pk).update(public=True)
    response = client.get(export)
    assert response.status_code == 200
    assert response.json()["hand"]["id"] == record.pk
    # no such hand: the sign-in page too, for page and file alike
    missing = reverse("games:hand_export", args=[record.pk + 1000])
    assert client.get(missing).status_code == 302
    assert client.get(_url(record).replace(str(record.pk), str(record.pk + 1000)))[
        "Location"
    ].startswith("/accounts/login/")


def test_a_player_makes_the_replay_public_then_private(client, alice, bob, room):
    record = _pvp(alice, bob, room)
    stranger = make_player("stranger")
    share = reverse("games:hand_share", args=[record.pk])
    client.force_login(stranger)
    assert client.post(share, {"public": "1"}).status_code == 404
    record.refresh_from_db()
    assert not record.public
    client.force_login(bob)
    page = client.get(_url(record)).content.decode()
    assert 'data-testid="replay-share"' in page
    assert client.post(share, {"public": "1"}).status_code == 302
    record.refresh_from_db()
    assert record.public
    client.force_login(stranger)
    page = client.get(_url(record)).content.decode()
    assert 'data-testid="replay-public"' in page
    assert 'data-testid="review-summary"' not in page  # the review is the players'
    assert 'data-testid="replay-share"' not in page
    client.logout()
    assert client.get(_url(record)).status_code == 200  # anyone with the link
    assert client.get(reverse("games:hand_export", args=[record.pk])).status_code == 200
    client.force_login(alice)
    client.post(share, {"public": "0"})
    record.refresh_from_db()
    assert not record.public
    client.logout()
    assert client.get(_url(record)).status_code == 302


def test_an_annulled_hand_replays_marked_annulled(client, alice, room):
    table, record = live_hand(alice, room)
    with transaction.atomic():
        hand_annul(table=table, record=record, now=time.time(), reason="test")
    client.force_login(alice)
    last = client.get(_url(record, step=9999)).content.decode()
    record.refresh_from_db()
    assert record.status == HandRecord.Status.ANNULLED
    assert 'data-testid="replay-annulled"' in last
    assert 'data-testid="settlement"' in last and "系统断线" in last
    steps = int(re.search(r'data-testid="replay-last">(\d+)<', last).group(1))
    assert steps > 0 and _step(last) == steps


# ----------------------------------------------------------------- steps
def test_every_step_has_its_url_and_the_board_part(client, alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=7)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    with translation.override("zh-hans"):
        first = client.get(_url(record)).content.decode()
        assert _step(first) == 0
        last = int(re.search(r'data-testid="replay-last">(\d+)<', first).group(1))
        middle = client.get(_url(record, step=3)).content.decode()
        assert _step(middle) == 3
        assert (
            'href="?seat=0&amp;step=2"' in middle
            and 'href="?seat=0&amp;step=4"' in middle
        )
        part = client.get(_url(record, step=3, part="board")).content.decode()
        assert part.lstrip().startswith('<div id="rp-board"')
        assert 'data-step="3"' in part and "<html" not in part
        assert "#3" in part
        end = client.get(_url(record, step=10**6)).content.decode()
        assert _step(end) == last
        assert 'data-testid="settlement"' in end
        assert 'data-testid="settlement"' not in middle
        junk = client.get(_url(record, step="x")).content.decode()
        assert _step(junk) == 0
        # the bot is named by its level; the seat flip changes who is at the bottom
        assert "电脑（简单）" in first
        flipped = client.get(_url(record, seat=1, step=3)).content.decode()
        seats = re.findall(r'data-testid="replay-seat" data-seat="(\d)"', flipped)
        assert seats == ["0", "1"]
        seats = re.findall(r'data-testid="replay-seat" data-seat="(\d)"', middle)
        assert seats == ["1", "0"]


def test_the_computers_name_follows_the_pages_language(client, alice, room):
    table = table_play_bot(user=alice, room=room, level="hard")
    play_out(table, {0: alice}, seed=2)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    zh = client.get(_url(record, step=1), HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.cookies["django_language"] = "en"
    en = client.get(_url(record, step=1), HTTP_ACCEPT_LANGUAGE="en")
    assert "电脑（困难）" in zh.content.decode()
    page = en.content.decode()
    assert "Computer (Hard)" in page and "电脑（困难）" not in page


def test_decisions_show_the_choices_and_the_time(client, alice, bob, room):
    record = _pvp(alice, bob, room, seed=3)
    client.force_login(alice)
    first = client.get(_url(record)).content.decode()
    data = json.loads(
        re.search(
            r'<script id="replay-data" type="application/json">(.*?)</script>',
            first,
            re.S,
        ).group(1)
    )
    steps = data["decisions"]["0"]
    assert steps, "alice decided somewhere"
    page = client.get(_url(record, step=steps[0])).content.decode()
    assert 'data-testid="replay-decision"' in page
    assert 'class="rp-choice is-chosen"' in page
    assert re.search(r'data-testid="replay-time">用时 [\d.]+ 秒 / 限时 \d+ 秒', page)


# ----------------------------------------------------------------- review
def test_players_read_their_own_review_and_staff_both(client, alice, bob, room):
    record = _pvp(alice, bob, room, seed=4)
    stored = review_store(hand_id=record.pk)
    assert stored.seat0_decisions > 0
    client.force_login(alice)
    page = client.get(_url(record)).content.decode()
    summaries = re.findall(
        r'data-testid="review-summary" data-seat="(\d)" data-agreement="([\d.]+)"'
        r' data-decisions="(\d+)" data-agreed="(\d+)"',
        page,
    )
    agreed, made = stored.counts(0)
    assert summaries == [("0", f"{agreed / made:.3f}", str(made), str(agreed))]
    staff = make_player("mod")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    page = client.get(_url(record)).content.decode()
    assert re.findall(r'data-testid="review-summary" data-seat="(\d)"', page) == [
        "0",
        "1",
    ]
    # a reviewed step shows the numbers for both choices
    first = stored.decisions[0]
    html = client.get(_url(record, step=_step_of(client, record, first["seq"]))).content
    html = html.decode()
    assert 'data-testid="replay-review"' in html
    useful = first["player"]["useful"]
    assert f'data-testid="review-player-useful">{useful}<' in html


def test_the_summary_says_the_differing_choices_lost_nothing(client, alice, bob, room):
    """Fresh tester: "一致率 12% (1/8)" over "没有比电脑更差的选择" read as a
    contradiction.  The agreement counts identical choices; the sentence now
    says how many differed and that none of those left more shanten steps or
    fewer useful tiles than the computer's (what ``costly`` measures)."""
    record = _pvp(alice, bob, room, seed=4)
    stored = review_store(hand_id=record.pk)
    for d in stored.decisions:  # every differing choice as good as the bot's
        d["player"]["shanten"] = d["bot"]["shanten"]
        d["player"]["useful"] = d["bot"]["useful"]
    stored.save(update_fields=["decisions"])
    agreed, made = stored.counts(0)
    assert made > agreed
    client.force_login(alice)
    for language, words in (
        (
            "zh-hans",
            f"和电脑完全相同的选择：{agreed} 个；另外 {made - agreed} 个不同，"
            "但都没有比电脑的选择多走向听或少拿有效牌。",
        ),
        (
            "en",
            f"Choices identical to the computer's: {agreed}. The other "
            f"{made - agreed} differed, but none left more shanten steps or "
            "fewer useful tiles than the computer's choice.",
        ),
    ):
        client.cookies["django_language"] = language
        page = client.get(_url(record)).content.decode()
        said = re.search(r'data-testid="review-none-worse">([^<]*)<', page)
        assert said and said.group(1) == words, page
        assert "没有比电脑更差的选择" not in page


def _step_of(client, record, seq: int) -> int:
    from games.replay.board import step_of
    from games.replay.replay import build_replay

    replay = build_replay(hand_file_from_record(record))
    return step_of(replay.steps, seq)


def test_a_missing_review_is_computed_on_first_view(client, alice, room):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=8)
    record = HandRecord.objects.get(pk=table.hand_id)
    assert not HandReview.objects.filter(hand=record).exists()
    client.force_login(alice)
    page = client.get(_url(record)).content.decode()
    assert HandReview.objects.filter(hand=record).exists()
    assert 'data-testid="review-summary"' in page


# ------------------------------------------------------- export and import
def test_export_has_the_documented_schema_and_verifies_offline(
    client, alice, room, tmp_path
):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=9)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    response = client.get(reverse("games:hand_export", args=[record.pk]))
    assert response["Content-Disposition"] == (
        f'attachment; filename="hand-{record.pk}.json"'
    )
    data = json.loads(response.content)
    assert (data["schema"], data["schema_version"]) == ("erren2-hand", 1)
    assert data["hand"]["id"] == record.pk and data["hand"]["practice"] is True
    assert data["ruleset"]["name"] == record.ruleset
    assert data["ruleset"]["stake"] == record.stake
    assert [p["name"] for p in data["players"]] == [
        alice.profile.nickname,
        "电脑（简单）",
    ]
    assert data["fairness"] == {
        "shuffle": 2,
        "commitment": record.commitment,
        "seed": record.seed,
        "algorithm": "docs/fairness.md",
    }
    assert [e["seq"] for e in data["events"]] == list(range(1, len(data["events"]) + 1))
    assert all("at" in e for e in data["events"])
    assert data["result"]["reason"] == record.result["reason"]
    assert data["settlement"] == record.settlement
    # the round trip keeps everything the viewer uses
    again = parse_hand_file(response.content)
    mine = hand_file_from_record(record)
    for field in ("ruleset", "stake", "seed", "commitment", "shuffle"):
        assert getattr(again, field) == getattr(mine, field), field
    assert [(p.seat, p.display, p.bot) for p in again.players] == [
        (p.seat, p.display, p.bot) for p in mine.players
    ]
    assert again.events == mine.events
    assert (again.result, again.settlement) == (mine.result, mine.settlement)
    assert (again.hand_id, again.practice, again.status) == (record.pk, True, "ended")
    # the offline script agrees, and fails on a changed seed or draw
    script = ROOT / "tools" / "verify_hand.py"

    def run(payload) -> int:
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
        return subprocess.run(
            [sys.executable, "-I", str(script), str(path)],
            capture_output=True,
            check=False,
        ).returncode

    assert run(data) == 0
    seedless = json.loads(response.content)
    seedless["fairness"]["seed"] = "f" * 32
    assert run(seedless) == 1
    drawn = json.loads(response.content)
    ev = next(e for e in drawn["events"] if e["kind"] == "draw")
    ev["payload"]["tile"] = "9m" if ev["payload"]["tile"] != "9m" else "8m"
    assert run(drawn) == 1


def _exported(client, user, room, *, seed: int) -> dict:
    """Play a practice hand of ``user`` and return its export, as a dict."""
    table = table_play_bot(user=user, room=room, level="easy")
    play_out(table, {0: user}, seed=seed)
    client.force_login(user)
    url = reverse("games:hand_export", args=[table.hand_id])
    return json.loads(client.get(url).content)


def _import(client, raw: bytes):
    upload = SimpleUploadedFile("hand.json", raw, content_type="application/json")
    return client.post(reverse("games:replay_import"), {"file": upload})


@pytest.mark.parametrize(
    "ruleset", ["erren", "erren64", "jj", "liangren", "mcr", "youxi"]
)
def test_export_then_import_gives_the_same_replay_at_every_step(client, alice, ruleset):
    room = Room.objects.create(
        name=f"r-{ruleset}", stake=10, min_balance=0, ruleset=ruleset
    )
    table = table_play_bot(user=alice, room=room, level="normal")
    play_out(table, {0: alice}, seed=11)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    raw = client.get(reverse("games:hand_export", args=[record.pk])).content
    client.logout()  # no account needed to import
    done = _import(client, raw)
    assert done.status_code == 302
    imported = done["Location"]
    page = client.get(imported).content.decode()
    last = int(re.search(r'data-testid="replay-last">(\d+)<', page).group(1))
    assert 'data-testid="engine-check" data-ok="true"' in page
    # compare with what anyone sees of the public hand (no one's review)
    HandRecord.objects.filter(pk=record.pk).update(public=True)
    original = client.get(_url(record)).content.decode()
    assert last == int(
        re.search(r'data-testid="replay-last">(\d+)<', original).group(1)
    )
    for step in range(last + 1):
        ours = client.get(_url(record, seat=0, step=step, part="board")).content
        theirs = client.get(f"{imported}?seat=0&step={step}&part=board").content
        assert ours == theirs, f"step {step} differs"
    # the 验证 data is the same too
    pick = r'<script id="replay-data" type="application/json">(.*?)</script>'
    ours = json.loads(re.search(pick, original, re.S).group(1))["fair"]
    theirs = json.loads(re.search(pick, page, re.S).group(1))["fair"]
    assert ours == theirs


def test_a_tampered_file_imports_but_does_not_verify(client, alice, room):
    data = _exported(client, alice, room, seed=12)
    ev = next(e for e in data["events"] if e["kind"] == "draw" and e["seat"] == 0)
    ev["payload"]["tile"] = "9m" if ev["payload"]["tile"] != "9m" else "8m"
    done = _import(client, json.dumps(data).encode())
    assert done.status_code == 302
    page = client.get(done["Location"]).content.decode()
    assert 'data-testid="engine-check" data-ok="false"' in page
    assert f"第 {ev['seq']} 个事件（摸牌）" in page
    assert "differs" not in page  # the engine's own English stays out


def test_a_tampered_discard_fails_the_verdict_in_the_readers_words(client, alice, room):
    """Fresh tester: a discard's tile changed to one the seat never held got a
    green 验证通过 with an English line "replay differs from the log at seq
    12" under it.  The engine's verdict now travels in the 验证 data (the
    browser's verdict is failed when it is false) and is said in words."""
    data = _exported(client, alice, room, seed=12)
    ev = [e for e in data["events"] if e["kind"] == "discard"][2]
    was = ev["payload"]["tile"]
    ev["payload"]["tile"] = "9m" if was != "9m" else "8m"
    done = _import(client, json.dumps(data).encode())
    assert done.status_code == 302
    page = client.get(done["Location"]).content.decode()
    pick = r'<script id="replay-data" type="application/json">(.*?)</script>'
    fair = json.loads(re.search(pick, page, re.S).group(1))["fair"]
    assert fair["engine_ok"] is False
    wrong = ev["payload"]["tile"]
    words = f"第 {ev['seq']} 个事件（打牌）：文件里是 {wrong}，按种子和规则应为 {was}"
    assert fair["engine_reason"] == words
    assert words in page
    client.cookies["django_language"] = "en"
    page = client.get(done["Location"]).content.decode()
    fair = json.loads(re.search(pick, page, re.S).group(1))["fair"]
    assert fair["engine_reason"] == (
        f"event {ev['seq']} (Discard): the file says {wrong}, "
        f"the seed and the rules give {was}"
    )


def _won_export(client, user, room) -> dict:
    for seed in range(20, 40):
        data = _exported(client, user, room, seed=seed)
        if data["result"]["winner"] is not None:
            return data
    raise AssertionError("no won hand")


@pytest.mark.parametrize(
    "forge",
    [
        lambda d: d["result"].update(winner=1 - d["result"]["winner"]),
        lambda d: d["result"]["fans"][0].update(
            id="BIG_FOUR_WINDS", zh="大四喜", en="Big Four Winds", points=88
        ),
        lambda d: d["settlement"].update(coins=d["settlement"]["coins"] + 100),
        lambda d: d["settlement"].update(deltas=[9999, -9999]),
    ],
)
def test_an_edited_result_is_refused_on_import(client, alice, room, forge):
    """Issue 12 tester fault 1: the viewer showed an edited top-level result
    and every check passed.  The result is the log's; a file saying otherwise
    is refused with a clear error."""
    data = _won_export(client, alice, room)
    client.logout()
    assert _import(client, json.dumps(data).encode()).status_code == 302
    forge(data)
    with translation.override("zh-hans"):
        response = _import(client, json.dumps(data).encode())
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="import-error"' in html
    assert "结果与事件记录不一致" in html
    with pytest.raises(HandFileError):
        parse_hand_file(json.dumps(data))


def test_the_viewer_shows_the_logs_result_and_gives_it_to_the_verify(
    client, alice, room
):
    data = _won_export(client, alice, room)
    hf = parse_hand_file(json.dumps(data))
    last = data["events"][-1]
    assert hf.result["winner"] == last["payload"]["winner"] == data["result"]["winner"]
    # an annulled file may not name a winner; an ended one needs its end
    cut = dict(data, events=data["events"][:-1])
    with pytest.raises(HandFileError, match="没有结束事件"):
        parse_hand_file(json.dumps(cut))
    annulled = dict(cut, hand=dict(data["hand"], annulled=True, status="annulled"))
    with pytest.raises(HandFileError, match="作废"):
        parse_hand_file(json.dumps(annulled))
    # the page hands the 验证 the shown result and the log's own
    done = _import(client, json.dumps(data).encode())
    page = client.get(done["Location"] + "?step=100000").content.decode()
    pick = r'<script id="replay-data" type="application/json">(.*?)</script>'
    fair = json.loads(re.search(pick, page, re.S).group(1))["fair"]
    end = fair["moves"][-1]
    assert end["kind"] == "hand_ended"
    assert end["win_seat"] == data["result"]["winner"] == fair["result"]["winner"]
    assert end["result"]["fan_total"] == fair["result"]["fan_total"]
    assert end["phase"] in ("turn", "claim", "rob")


def test_a_stored_result_that_is_not_the_logs_fails_the_engine_check(
    client, alice, room
):
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=9)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    page = client.get(_url(record)).content.decode()
    assert 'data-testid="engine-check" data-ok="true"' in page
    clear_cache()
    result = dict(record.result, fan_total=(record.result.get("fan_total") or 0) + 88)
    HandRecord.objects.filter(pk=record.pk).update(result=result)
    page = client.get(_url(record)).content.decode()
    assert 'data-testid="engine-check" data-ok="false"' in page
    assert "result.fan_total" in page


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: b"not json", "JSON"),
        (lambda d: json.dumps({**d, "schema": "x"}).encode(), "本站导出"),
        (lambda d: json.dumps({**d, "schema_version": 9}).encode(), "版本"),
        (
            lambda d: json.dumps(
                {**d, "ruleset": {**d["ruleset"], "name": "go"}}
            ).encode(),
            "未知的规则",
        ),
        (lambda d: json.dumps({**d, "players": d["players"][:1]}).encode(), "两位玩家"),
        (lambda d: json.dumps({**d, "events": []}).encode(), "没有牌局事件"),
        (lambda d: json.dumps({**d, "events": d["events"][1:]}).encode(), "序号"),
        (
            lambda d: json.dumps(
                {**d, "events": [d["events"][0], {**d["events"][1], "kind": "boom"}]}
            ).encode(),
            "未知的事件类型",
        ),
        (
            lambda d: json.dumps(
                {
                    **d,
                    "events": [
                        d["events"][0],
                        {**d["events"][1], "payload": {"tiles": ["10m"]}},
                    ],
                }
            ).encode(),
            "牌的写法不对",
        ),
        (lambda d: b" " * 1_000_001, "太大"),
        (lambda d: b"", "请选择"),
    ],
)
def test_bad_files_are_refused_with_a_clear_message(
    client, alice, room, mutate, message
):
    data = _exported(client, alice, room, seed=13)
    client.logout()
    with translation.override("zh-hans"):
        response = _import(client, mutate(data))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="import-error"' in html and message in html
    with pytest.raises(HandFileError):
        parse_hand_file(mutate(data) or b" ")


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,  # RecursionError in json
        b'{"schema": ' + b"[" * 200 + b"]" * 200 + b"}",  # parses, too deep
    ],
)
def test_deeply_nested_json_is_refused_not_a_500(client, raw):
    """Issue 12 tester fault 3: [×100000 at /replay/import/ gave a 500."""
    with translation.override("zh-hans"):
        response = _import(client, raw)
    assert response.status_code == 400
    assert "嵌套太深" in response.content.decode()
    with pytest.raises(HandFileError):
        parse_hand_file(raw)


def test_an_empty_import_names_both_ways_in(client):
    """Tester: an empty form asked only for a file, though pasting works too."""
    with translation.override("zh-hans"):
        response = client.post(reverse("games:replay_import"), {"text": "  "})
    assert response.status_code == 400
    assert "请选择一个牌局文件，或粘贴它的内容。" in response.content.decode()
    client.cookies["django_language"] = "en"
    response = client.post(reverse("games:replay_import"), {})
    assert "Please choose a hand file or paste its contents." in (
        response.content.decode()
    )


def _with_name(d: dict, name: str) -> bytes:
    players = [dict(d["players"][0], name=name), d["players"][1]]
    return json.dumps({**d, "players": players}).encode()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: _with_name(d, "长" * 200),
            "“players.name”太长（200 个字，最多 40 个）",
        ),
        (lambda d: _with_name(d, "a\u202eb"), "控制字符或不可见字符"),
        (lambda d: _with_name(d, "   "), "“players.name”不能为空"),
        (
            lambda d: json.dumps(
                {**d, "ruleset": {**d["ruleset"], "stake": float("nan")}}
            ).encode(),
            "“ruleset.stake”应为正整数",
        ),
        (
            lambda d: json.dumps(
                {**d, "fairness": {**d["fairness"], "commitment": "z" * 64}}
            ).encode(),
            "64 位十六进制",
        ),
    ],
)
def test_import_errors_say_what_is_wrong(client, alice, room, mutate, message):
    """Issue 12 tester fault 7: a long name or a NaN stake was "应为文字"."""
    data = _exported(client, alice, room, seed=13)
    client.logout()
    with translation.override("zh-hans"):
        response = _import(client, mutate(data))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert "应为文字" not in response.content.decode()


def test_a_name_with_markup_is_shown_as_text(client, alice, room):
    data = _exported(client, alice, room, seed=13)
    client.logout()
    done = _import(client, _with_name(data, "<img src=x onerror=alert(1)>"))
    assert done.status_code == 302
    page = client.get(done["Location"]).content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img src=x" not in page


def test_an_expired_import_says_so(client):
    response = client.get(reverse("games:replay_imported", args=["0" * 32]))
    assert response.status_code == 404
    assert "过期" in response.content.decode()


# ----------------------------------------------------------------- My games
def test_my_games_lists_filters_and_links_the_replays(client, alice, bob, room):
    record = _pvp(alice, bob, room, seed=6)
    other_room = Room.objects.create(
        name="mcr-room", stake=10, min_balance=0, ruleset="mcr"
    )
    table = table_play_bot(user=alice, room=other_room, level="easy")
    play_out(table, {0: alice}, seed=6)
    practice = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    profile = reverse("accounts:profile")

    def rows(query: str = "") -> list[str]:
        html = client.get(profile + query).content.decode()
        return re.findall(r'<tr data-hand="(\d+)"', html)

    assert rows() == [str(practice.pk), str(record.pk)]
    html = client.get(profile).content.decode()
    assert reverse("games:hand_record", args=[record.pk]) in html
    assert "bob" in html or bob.profile.nickname in html
    assert rows("?ruleset=mcr") == [str(practice.pk)]
    assert rows(f"?ruleset={record.ruleset}") == [str(record.pk)]
    seat = record.seats.get(user=alice)
    assert rows(f"?result={seat.result}")[:1] == [str(record.pk)] or seat.result == (
        practice.seats.get(user=alice).result
    )
    assert rows(f"?opponent={bob.profile.nickname[:3]}") == [str(record.pk)]
    today = timezone.localdate()
    assert len(rows(f"?date_from={today}&date_to={today}")) == 2
    tomorrow = today + timedelta(days=1)
    assert rows(f"?date_from={tomorrow}") == []
    assert rows("?date_from=garbage&result=nonsense") == [
        str(practice.pk),
        str(record.pk),
    ]


def test_bad_filters_on_my_games_say_so_and_the_valid_ones_apply(
    client, alice, bob, room
):
    """Issue 12 tester fault 10: bad filter values were silently ignored."""
    record = _pvp(alice, bob, room, seed=6)
    client.force_login(alice)
    profile = reverse("accounts:profile")
    with translation.override("zh-hans"):
        html = client.get(
            profile,
            {
                "ruleset": "nosuch",
                "result": "<script>",
                "date_from": "notadate",
                "opponent": "x" * 50,
                "date_to": str(timezone.localdate()),
            },
        ).content.decode()
    box = html.split('data-testid="my-games-filter-errors"', 1)[1].split("</ul>")[0]
    assert "没有这套规则" in box
    assert "只能是胜、负、流局或作废" in box
    assert "日期要写成" in box
    assert "昵称最多 40 个字" in box
    assert "<script>" not in html
    # the valid filter (date_to, today) still applies: the hand is listed
    assert re.findall(r'<tr data-hand="(\d+)"', html) == [str(record.pk)]
    tomorrow = timezone.localdate() + timedelta(days=1)
    html = client.get(
        profile, {"date_from": str(tomorrow), "date_to": str(timezone.localdate())}
    ).content.decode()
    assert "结束日期早于开始日期" in html
    good = client.get(profile, {"ruleset": record.ruleset}).content.decode()
    assert 'data-testid="my-games-filter-errors"' not in good


def test_the_fairness_page_and_the_script(client):
    page = client.get(reverse("games:fair")).content.decode()
    assert "erren2-wall-v2:" in page
    assert re.findall(r'<tr data-ruleset="(\w+)">', page) == [
        "erren",
        "mcr",
        "erren64",
        "jj",
        "liangren",
        "youxi",
    ]
    script = client.get(reverse("games:fair_script"))
    body = b"".join(script.streaming_content)
    assert body == (ROOT / "tools" / "verify_hand.py").read_bytes()


def test_a_hand_stored_with_the_old_shuffle_still_replays_and_verifies(
    client, alice, room, tmp_path
):
    """Hands from before the documented shuffle (no "shuffle" in their first
    event, Python's random) replay exactly; the offline script checks them."""
    record = stored_hand(alice, room, seed="legacy-seed", shuffle=1)
    assert "shuffle" not in record.events.get(seq=1).payload
    client.force_login(alice)
    page = client.get(_url(record, step=10**6)).content.decode()
    assert 'data-testid="engine-check" data-ok="true"' in page
    assert 'data-testid="settlement"' in page
    assert "第 1 版" in page
    raw = client.get(reverse("games:hand_export", args=[record.pk])).content
    assert json.loads(raw)["fairness"]["shuffle"] == 1
    path = tmp_path / "old.json"
    path.write_bytes(raw)
    run = subprocess.run(
        [sys.executable, "-I", str(ROOT / "tools" / "verify_hand.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout
    assert "shuffle version 1" in run.stdout


# ------------------------------------------------------- 财神 marks mid-replay
def _replay_hand_marks(part: str) -> dict[str, list[tuple[str, str]]]:
    """{seat: [(tile, mark badge)]} of each replay hand of a board part, the
    drawn tile last; a plain tile has the badge ``""``."""
    from tests.browser.test_frame_templates import parse

    out = {}
    for hand in parse(part).find_all(data_testid="replay-hand"):
        run: list[tuple[str, str]] = []
        for n in hand.iter():
            if n.tag == "span" and "mj-tmark" in n.attrs.get("class", ""):
                run.append((n.attrs["data-tile"], n.attrs["data-mark"]))
            elif n.tag == "img" and "mj-tmark" not in n.parent.attrs.get("class", ""):
                run.append((n.attrs["src"].rsplit("/", 1)[1][:-4], ""))
        out[hand.attrs["data-seat"]] = run
    return out


def test_every_replay_step_marks_the_wild_and_its_standin_as_the_live_hand(
    client, alice
):
    """两人麻将 (seed 002: 财神 by the wall, "白板代替财神牌"): at every step,
    not only the last, both open hands mark the 财神 kind 财 and 白板 代, by
    games.engine.view.tile_mark with the step's indicators — the live hand's
    rule and badges.  Before: only the settlement at the last step did."""
    from games.engine.view import tile_mark
    from games.replay.replay import build_replay

    room = Room.objects.create(
        name="r-wild", stake=10, min_balance=0, ruleset="liangren"
    )
    badge = {"wild": "财", "standin": "代", "bonus": "", "": ""}
    seen: set[str] = set()
    for seed in range(1, 40):
        table = table_play_bot(user=alice, room=room, level="easy")
        play_out(table, {0: alice}, seed=seed)
        record = HandRecord.objects.get(pk=table.hand_id)
        replay = build_replay(hand_file_from_record(record))
        client.force_login(alice)
        with translation.override("zh-hans"):
            for i, step in enumerate(replay.steps[:-1]):
                ind = step.board["indicators"]
                part = client.get(_url(record, step=i, part="board")).content.decode()
                marks = _replay_hand_marks(part)
                for seat in (0, 1):
                    side = step.board["seats"][seat]
                    codes = list(side["tiles"]) + (
                        [side["drawn"]] if side["drawn"] else []
                    )
                    want = [
                        (c, badge[tile_mark(c, ind["wild"], ind["bonus_tile"])])
                        for c in codes
                    ]
                    assert marks[str(seat)] == want, (seed, i, seat)
                    seen.update(m for _, m in want if m)
        if seen == {"财", "代"}:
            break
    assert seen == {"财", "代"}  # both marks were met mid-replay


def test_an_imported_hand_shows_its_date_as_the_hands_own_page(client, alice, room):
    """Fresh tester: the imported replay's header read ``2026-12-0417:06`` (the
    file's UTC time with the ``T`` cut out) where the hand's own page reads
    ``2026-12-05 01:06`` (server local time)."""
    table = table_play_bot(user=alice, room=room, level="easy")
    play_out(table, {0: alice}, seed=5)
    started = datetime(2026, 12, 4, 17, 6, tzinfo=UTC)
    HandRecord.objects.filter(pk=table.hand_id).update(started=started)
    record = HandRecord.objects.get(pk=table.hand_id)
    client.force_login(alice)
    raw = client.get(reverse("games:hand_export", args=[record.pk])).content
    assert json.loads(raw)["hand"]["started"].startswith("2026-12-04T17:06")
    shown = timezone.localtime(started).strftime("%Y-%m-%d %H:%M")
    assert shown == "2026-12-05 01:06"  # settings: TIME_ZONE Asia/Shanghai
    own = client.get(_url(record)).content.decode()
    client.logout()
    imported = client.get(_import(client, raw)["Location"]).content.decode()
    when = re.compile(r'<time datetime="([^"]+)">([^<]+)</time>')
    assert when.search(own).groups() == when.search(imported).groups()
    assert when.search(imported).group(2) == shown
    assert "2026-12-0417:06" not in imported
