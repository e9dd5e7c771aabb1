"""举报: filing reports as atoms of cases, limits, merging, who may report."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from moderation.models import Case, Report, Sanction
from moderation.services.reports import ReportError, report_file
from tests.games.conftest import make_player
from tests.leaderboard.factory import hand

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 12, tzinfo=UTC)


def _hand(a, b, *, minutes=0, winner=0, practice=False):
    seats = hand(a, b, ended=T0 + timedelta(minutes=minutes), winner=winner,
                 practice=practice)  # fmt: skip
    return seats[0].hand


def test_a_report_of_a_hand_opens_a_case_against_the_other_player_and_triages_it(
    alice, bob, django_capture_on_commit_callbacks
):
    record = _hand(alice, bob, winner=1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        atom = report_file(
            reporter=alice, category="cheating", text="太快了", hand=record
        )
    assert len(callbacks) == 1  # the triage task, on commit
    case = atom.case
    assert (case.suspect, case.category, case.status) == (bob, "cheating", "open")
    assert list(atom.hands.values_list("pk", flat=True)) == [record.pk]
    case.refresh_from_db()  # triage ran on commit (eager Celery)
    assert case.evidence["hands"] == [record.pk]
    pair = case.evidence["pairs"][0]
    assert (pair["other"], pair["hands"], pair["wins"]) == (alice.pk, 1, 1)
    # bob won 8 fan × 10: alice paid 80 coins to bob
    assert (pair["to_user"], pair["to_other"], pair["net_to_user"]) == (80, 0, 80)
    keys = [p["key"] for p in case.priority_parts]
    assert keys == ["category", "reports", "flow", "timing", "agreement", "record"]
    assert case.priority == round(sum(p["points"] for p in case.priority_parts))
    assert case.priority >= 15 + 15  # cheating + one new reporter (weight 1)


def test_only_a_player_of_a_hand_may_report_it_and_never_a_practice_hand(alice, bob):
    record = _hand(alice, bob)
    carol = make_player("carol")
    with pytest.raises(ReportError, match="自己参加"):
        report_file(reporter=carol, category="abuse", hand=record)
    practice = _hand(alice, bob, practice=True, minutes=1)
    with pytest.raises(ReportError, match="人机练习"):
        report_file(reporter=alice, category="abuse", hand=practice)
    with pytest.raises(ReportError, match="类别"):
        report_file(reporter=alice, category="weather", hand=record)
    assert Report.objects.count() == 0


def test_a_second_report_adds_to_the_reporter_s_atom_of_the_open_case(alice, bob):
    first, second = _hand(alice, bob), _hand(alice, bob, minutes=5)
    a1 = report_file(reporter=alice, category="cheating", text="一", hand=first)
    a2 = report_file(reporter=alice, category="cheating", text="二", hand=second)
    assert a1.pk == a2.pk and Case.objects.count() == 1
    a2.refresh_from_db()
    assert a2.text == "一\n---\n二"
    assert set(a2.hands.values_list("pk", flat=True)) == {first.pk, second.pk}


def test_another_category_within_a_day_joins_the_open_case(alice, bob, settings):
    record = _hand(alice, bob)
    now = T0 + timedelta(hours=1)
    a1 = report_file(reporter=alice, category="cheating", hand=record, now=now)
    carol = make_player("carol")
    other = _hand(carol, bob, minutes=2)
    a2 = report_file(
        reporter=carol, category="abuse", hand=other, now=now + timedelta(hours=3)
    )
    assert a2.case_id == a1.case_id and a2.category == "abuse"
    # after the merge window a new category opens its own case
    dave = make_player("dave")
    late = _hand(dave, bob, minutes=3)
    later = now + timedelta(hours=settings.MAHJONG_REPORT_MERGE_HOURS + 4)
    a3 = report_file(reporter=dave, category="stalling", hand=late, now=later)
    assert a3.case_id != a1.case_id
    assert Case.objects.filter(suspect=bob).count() == 2


def test_at_most_n_reports_a_day(alice, settings):
    settings.MAHJONG_REPORTS_PER_DAY = 2
    others = [make_player(f"opp{i}") for i in range(3)]
    hands = [_hand(alice, o, minutes=i) for i, o in enumerate(others)]
    now = T0 + timedelta(hours=1)
    report_file(reporter=alice, category="abuse", hand=hands[0], now=now)
    report_file(reporter=alice, category="abuse", hand=hands[1], now=now)
    with pytest.raises(ReportError, match="每天最多举报 2 次"):
        report_file(reporter=alice, category="abuse", hand=hands[2], now=now)
    # a day later it is allowed again
    report_file(
        reporter=alice,
        category="abuse",
        hand=hands[2],
        now=now + timedelta(days=1, minutes=1),
    )
    assert Report.objects.filter(reporter=alice).count() == 3


def test_a_player_page_report_attaches_recent_hands_against_the_reporter(
    alice, bob, settings
):
    settings.MAHJONG_REPORT_PLAYER_HANDS = 3
    carol = make_player("carol")
    ours = [_hand(alice, bob, minutes=i) for i in range(5)]
    _hand(carol, bob, minutes=9)  # not against alice: not attached
    atom = report_file(reporter=alice, category="collusion", suspect=bob)
    got = sorted(atom.hands.values_list("pk", flat=True))
    assert got == sorted(h.pk for h in ours[-3:])
    with pytest.raises(ReportError, match="没有和这位玩家打过牌"):
        report_file(reporter=make_player("erin"), category="abuse", suspect=bob)
    with pytest.raises(ReportError, match="不能举报自己"):
        report_file(reporter=alice, category="abuse", suspect=alice)


def test_a_decided_hand_cannot_be_reported_again(alice, bob):
    record = _hand(alice, bob)
    atom = report_file(reporter=alice, category="abuse", hand=record)
    Case.objects.filter(pk=atom.case_id).update(status="decided", outcome="dismiss")
    with pytest.raises(ReportError, match="已经处理过"):
        report_file(reporter=alice, category="abuse", hand=record)


def test_suspended_players_cannot_report_and_muted_ones_write_no_text(alice, bob):
    record = _hand(alice, bob)
    mute = Sanction.objects.create(
        user=alice, kind="mute", reason="骂人", ends=T0 + timedelta(days=400)
    )
    with pytest.raises(ReportError, match="禁言"):
        report_file(reporter=alice, category="abuse", text="你好", hand=record)
    report_file(reporter=alice, category="abuse", text="", hand=record)
    mute.delete()
    Sanction.objects.create(user=alice, kind="suspend", reason="作弊证据确凿")
    with pytest.raises(ReportError, match="暂停.*作弊证据确凿"):
        report_file(reporter=alice, category="cheating", hand=record)


def test_the_report_form_posts_and_answers_with_htmx(client, alice, bob):
    record = _hand(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("games:hand_record", args=[record.pk])).content.decode()
    assert 'data-testid="report"' in page and 'data-testid="report-form"' in page
    assert 'name="category"' in page and 'name="text"' in page
    url = reverse("moderation:report_hand", args=[record.pk])
    bad = client.post(url, {"category": "", "text": "<b>x</b>"}, HTTP_HX_REQUEST="true")
    html = bad.content.decode()
    assert 'role="alert"' in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<b>x</b>" not in html
    done = client.post(
        url, {"category": "abuse", "text": "<script>x</script>"}, HTTP_HX_REQUEST="true"
    )
    assert 'data-testid="report-done"' in done.content.decode()
    # the profile lists it, escaped, with its status
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-testid="my-report" data-status="open"' in profile
    assert "&lt;script&gt;x&lt;/script&gt;" in profile and "<script>x" not in profile
    # another player never sees it
    client.force_login(bob)
    assert (
        'data-testid="my-report"'
        not in client.get(reverse("accounts:profile")).content.decode()
    )


def test_player_page_offers_a_report_to_other_signed_in_players(client, alice, bob):
    _hand(alice, bob)
    url = reverse("leaderboard:player", args=[bob.profile.nickname])
    assert 'data-testid="report"' not in client.get(url).content.decode()
    client.force_login(bob)
    assert 'data-testid="report"' not in client.get(url).content.decode()
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert 'data-testid="report-form"' in page
    post = reverse("moderation:report_player", args=[bob.profile.nickname])
    done = client.post(post, {"category": "collusion"}, HTTP_HX_REQUEST="true")
    assert 'data-testid="report-done"' in done.content.decode()
    assert Case.objects.get().suspect == bob


def test_the_table_s_top_bar_reports_the_live_hand(client, alice, bob, room):
    from games.services import table_play_bot, table_quick_match

    table_quick_match(user=alice, room=room)
    table = table_quick_match(user=bob, room=room)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-testid="table-report"' in page
    assert 'data-testid="report-form"' not in page  # loaded when opened
    url = reverse("moderation:report_table", args=[table.pk])
    form = client.get(url).content.decode()
    assert 'data-testid="report-form"' in form and 'name="category"' in form
    done = client.post(url, {"category": "stalling"}, HTTP_HX_REQUEST="true")
    assert 'data-testid="report-done"' in done.content.decode()
    atom = Report.objects.get()
    assert (atom.case.suspect, atom.hand_id) == (bob, table.hand_id)
    # not seated: 404; a practice table offers nothing to report
    client.force_login(make_player("carol"))
    assert client.get(url).status_code == 404
    practice = table_play_bot(user=make_player("dave"), room=room, level="easy")
    client.force_login(practice.seat0)
    page = client.get(reverse("games:table", args=[practice.pk])).content.decode()
    assert 'data-testid="table-report"' not in page


def test_a_second_report_in_another_category_keeps_both_categories(alice, bob):
    """Tester's fault (issue 14): the same reporter, the same suspect, a new
    category — the second report joined the first atom and its category was
    lost.  It is an atom of its own in the open case, the case weighs as its
    weightiest category, and the reporter counts once."""
    from moderation.services.triage import case_triage

    first, second = _hand(alice, bob), _hand(alice, bob, minutes=5)
    a1 = report_file(reporter=alice, category="stalling", text="拖", hand=first)
    a2 = report_file(reporter=alice, category="cheating", text="挂", hand=second)
    assert a2.case_id == a1.case_id and a2.pk != a1.pk
    a1.refresh_from_db()
    assert (a1.category, a1.text) == ("stalling", "拖")
    assert (a2.category, a2.text) == ("cheating", "挂")
    case = case_triage(case_id=a1.case_id)
    parts = {p["key"]: p for p in case.priority_parts}
    assert parts["category"]["points"] == 15  # 作弊/外挂, not 恶意拖延 (5)
    assert len(parts["reports"]["detail"]["weights"]) == 1
    # the same category again still adds to its atom
    a3 = report_file(reporter=alice, category="cheating", text="又", hand=second)
    assert a3.pk == a2.pk


def test_hands_attached_to_a_decided_player_report_can_be_reported_again(alice, bob):
    """Tester's fault (issue 14): a player-page report attaches the recent hands
    against the suspect; once decided, none of them could be reported."""
    from moderation.services.decisions import case_decide
    from tests.moderation.helpers import moderator

    record = _hand(alice, bob)
    atom = report_file(reporter=alice, category="abuse", suspect=bob)
    assert list(atom.hands.values_list("pk", flat=True)) == [record.pk]
    case_decide(case_id=atom.case_id, moderator=moderator(), outcome="warn", reason="x")
    again = report_file(reporter=alice, category="cheating", hand=record)
    assert again.case_id != atom.case_id and again.hand == record
    # the hand reported itself, once decided, is not reported twice
    case_decide(
        case_id=again.case_id, moderator=moderator("m2"), outcome="dismiss", reason="y"
    )
    with pytest.raises(ReportError, match="已经处理过了"):
        report_file(reporter=alice, category="cheating", hand=record)


def test_a_repeated_report_says_it_joined_the_earlier_one(client, alice, bob):
    """Tester's fault: reporting the same player 12 times said "举报已提交"
    each time, yet the repeats only joined the first atom (one per reporter
    and category of an open case).  The rule stays; the page tells the
    truth from the second report on."""
    for i in range(3):
        _hand(alice, bob, minutes=i)
    client.force_login(alice)
    post = reverse("moderation:report_player", args=[bob.profile.nickname])
    said = []
    for text in ("一", "二", "三"):
        done = client.post(
            post, {"category": "abuse", "text": text}, HTTP_HX_REQUEST="true"
        ).content.decode()
        said.append(done)
    assert "举报已提交" in said[0] and "data-joined" not in said[0]
    for done in said[1:]:
        assert "你已举报过这位玩家，这份举报正在处理中" in done
        assert "举报已提交" not in done and 'data-joined="1"' in done
    atom = Report.objects.get()  # the rule kept: one atom, the words added
    assert atom.text == "一\n---\n二\n---\n三"
    # without htmx: the message after the redirect says the same
    page = client.post(post, {"category": "abuse"}, follow=True).content.decode()
    assert "你已举报过这位玩家" in page and "举报已提交" not in page
    # the service's flag: a new atom in another category is not a repeat
    other = report_file(reporter=alice, category="cheating", suspect=bob)
    again = report_file(reporter=alice, category="cheating", suspect=bob)
    assert (other.joined, again.joined, again.pk) == (False, True, other.pk)


def test_player_page_shows_why_instead_of_a_form_the_service_would_refuse(
    client, alice, bob
):
    """Tester's fault: the 举报 form was offered on the page of a player never
    met, and only the answer said 不能举报.  The page now shows that note in
    place of the form (the service's own rule, player_report_refusal)."""
    from moderation.services.reports import player_report_refusal

    carol = make_player("carol")
    url = reverse("leaderboard:player", args=[bob.profile.nickname])
    client.force_login(carol)
    page = client.get(url).content.decode()
    assert 'data-testid="report-refused"' in page
    assert "你还没有和这位玩家打过牌，不能举报" in page
    assert (
        'data-testid="report"' not in page and 'data-testid="report-form"' not in page
    )
    assert player_report_refusal(reporter_id=carol.pk, suspect=bob) == (
        "你还没有和这位玩家打过牌，不能举报"
    )
    # once they have played, the form is back and the note gone
    _hand(carol, bob)
    page = client.get(url).content.decode()
    assert 'data-testid="report-form"' in page
    assert 'data-testid="report-refused"' not in page
    assert player_report_refusal(reporter_id=carol.pk, suspect=bob) is None
    # a bot's page: the note, no form
    bot = make_player("robot")
    bot.profile.is_bot = True
    bot.profile.save(update_fields=["is_bot"])
    page = client.get(
        reverse("leaderboard:player", args=[bot.profile.nickname])
    ).content.decode()
    assert "机器人不能被举报" in page and 'data-testid="report-form"' not in page
