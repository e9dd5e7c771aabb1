"""Inbox services: sending, marking read, isolation between users."""

from datetime import UTC, datetime

import pytest

from accounts.models import User
from accounts.selectors import inbox_messages, inbox_unread_count
from accounts.services import inbox_mark_read, inbox_send

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return User.objects.create_user("alice", "alice@example.com", "pw-alice-123")


@pytest.fixture
def bob():
    return User.objects.create_user("bob", "bob@example.com", "pw-bob-12345")


def test_system_message_has_no_sender(alice):
    message = inbox_send(recipient=alice, subject=" 系统通知 ", body="维护完成。")
    assert message.sender is None
    assert message.subject == "系统通知"
    assert message.read_at is None
    assert inbox_unread_count(user=alice) == 1


@pytest.mark.parametrize(("subject", "body"), [("", "正文"), ("标题", "  "), (" ", "")])
def test_blank_message_is_refused_and_nothing_is_stored(alice, subject, body):
    with pytest.raises(ValueError, match="subject and a body"):
        inbox_send(recipient=alice, subject=subject, body=body)
    assert inbox_messages(user=alice).count() == 0


def test_mark_read_touches_only_the_users_own_messages(alice, bob):
    mine = inbox_send(recipient=alice, subject="一", body="a")
    inbox_send(recipient=alice, subject="二", body="b")
    theirs = inbox_send(recipient=bob, subject="三", body="c")
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    assert inbox_mark_read(user=alice, message_ids=[mine.pk, theirs.pk], now=when) == 1
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.read_at == when
    assert theirs.read_at is None
    assert inbox_unread_count(user=alice) == 1
    assert inbox_mark_read(user=alice) == 1
    assert inbox_unread_count(user=alice) == 0
    assert inbox_unread_count(user=bob) == 1


def test_messages_are_listed_newest_first(alice):
    first = inbox_send(recipient=alice, subject="早", body="a")
    second = inbox_send(recipient=alice, subject="晚", body="b")
    assert list(inbox_messages(user=alice)) == [second, first]
