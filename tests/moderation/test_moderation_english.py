"""English gaps a fresh tester found (issue 14 tester fault 8)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import LedgerEntry, Message
from moderation.models import Sanction
from moderation.restrictions import sanction_message
from moderation.services.reports import report_file
from moderation.services.triage import case_triage
from tests.moderation.helpers import moderator, played

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_chinese(settings):
    # a request with the English cookie leaves English active in this thread
    yield
    translation.activate(settings.LANGUAGE_CODE)


CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def test_a_ban_says_until_lifted_once(alice):
    ban = Sanction.objects.create(
        user=alice, kind="ban", reason="cheat", starts=timezone.now(), ends=None
    )
    with translation.override("en"):
        text = sanction_message(ban)
    assert "until until" not in text
    assert text == "Your account is banned (until lifted). Reason: cheat"
    assert "解除前一直有效" in sanction_message(ban)


def test_the_welcome_message_follows_the_reader_s_language(client, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "tile-wall-8421",
            "password2": "tile-wall-8421",
        },
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    message = Message.objects.get(recipient__username="newcomer")
    assert message.subject == "欢迎来到二人麻将"  # stored in Chinese
    with translation.override("en"):
        subject, body = message.shown()
    assert subject == "Welcome to Two-Player Mahjong"
    assert "newcomer" in body and not CJK.search(body)


def test_the_case_page_in_english_has_no_chinese_of_ours(client, alice, bob):
    mod = moderator()
    record = played(alice, bob, winner=1)
    played(alice, bob, minutes=3, winner=1)
    report_file(reporter=alice, category="cheating", text="fast", hand=record)
    case = report_file(reporter=alice, category="abuse", text="rude", hand=record)
    case = case.case
    case_triage(case_id=case.pk)
    client.force_login(mod)
    client.cookies["django_language"] = "en"
    html = client.get(
        reverse("admin:moderation_case_change", args=[case.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    text = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    assert CJK.findall(text) == []
    # the reversal preview names the ledger kinds
    act = reverse("admin:moderation_case_act", args=[case.pk])
    html = client.post(act, {"do": "preview", "hands": [record.pk]}).content.decode()
    assert "Hand settlement" in html and ">hand<" not in html and ">rake<" not in html


def test_a_ledger_entry_names_its_kind(alice):
    entry = LedgerEntry.objects.filter(user=alice).first()
    assert entry is not None
    with translation.override("en"):
        assert "(grant)" not in str(entry)
