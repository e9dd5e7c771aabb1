"""The error pages a player meets in production (DEBUG off): our own, in the
site's look and the reader's language (Chinese first), not Django's plain
"Not Found" / "Server Error (500)" / "Forbidden (403) CSRF verification failed".
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from accounts.models import User

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.urls("tests.site.error_urls"),
]

# status, URL, the Chinese and English heading, a sentence of the body
CASES = [
    (404, "/no-such-page/", "找不到这个页面", "Page not found",
     "There is no page at this address"),
    (403, "/test-errors/403/", "没有权限", "Not allowed",
     "Your account cannot open this page."),
    (400, "/test-errors/400/", "请求有误", "Bad request",
     "The site could not handle what your browser sent."),
    (500, "/test-errors/500/", "服务器出错了", "Something went wrong on the server",
     "open the table again to carry on"),
]  # fmt: skip


def _client(lang: str | None = None) -> Client:
    client = Client(raise_request_exception=False)
    if lang:
        client.cookies["django_language"] = lang
    return client


@override_settings(DEBUG=False)
@pytest.mark.parametrize(("status", "url", "zh", "en", "en_body"), CASES)
def test_error_page_is_ours_in_chinese_and_english(status, url, zh, en, en_body):
    response = _client().get(url)
    assert response.status_code == status
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    assert f'data-testid="error-page" data-status="{status}"' in html
    assert f"<h1>{zh}</h1>" in html
    assert f"<title>{zh} · 二人麻将</title>" in html.replace("\n", "")
    assert 'name="viewport"' in html and "/static/css/site.css" in html
    assert 'href="/"' in html and 'href="/lobby/"' in html
    english = _client("en").get(url).content.decode()
    assert '<html lang="en">' in english
    assert f"<h1>{en}</h1>" in english
    assert en_body in english
    assert "返回首页" not in english and "Home page" in english


@override_settings(DEBUG=False)
def test_404_keeps_the_signed_in_header():
    user = User.objects.create_user("errorpage", "errorpage@example.com", "pw-12345")
    client = _client()
    client.force_login(user)
    html = client.get("/no-such-page/").content.decode()
    assert "找不到这个页面" in html
    assert "errorpage" in html  # the player chip: the page is the site's own
    assert 'action="/accounts/logout/"' in html


@override_settings(DEBUG=False)
def test_403_asks_a_signed_out_visitor_to_log_in():
    html = _client().get("/test-errors/403/").content.decode()
    assert 'href="/accounts/login/?next=/test-errors/403/"' in html


@pytest.mark.parametrize("lang", [None, "en"])
def test_a_failed_csrf_check_says_the_page_expired(lang):
    client = Client(enforce_csrf_checks=True)
    if lang:
        client.cookies["django_language"] = lang
    response = client.post("/accounts/login/", {"login": "x", "password": "y"})
    assert response.status_code == 403
    html = response.content.decode()
    assert 'data-testid="error-page" data-status="403"' in html
    if lang:
        assert "<h1>This page has expired</h1>" in html
        assert "Go back, reload the page and send it again." in html
    else:
        assert "<h1>页面已过期</h1>" in html
        assert "请返回上一页，刷新后再提交一次。" in html


@override_settings(DEBUG=False)
@pytest.mark.parametrize("lang", [None, "en"])
def test_get_on_a_post_only_view_shows_our_405_page_with_allow(lang):
    # GET /hands/<id>/share/ (require_POST) answered 405 with an empty body,
    # so the browser showed its own error page (fresh tester)
    user = User.objects.create_user("notallowed", "notallowed@example.com", "pw-1")
    client = _client(lang)
    client.force_login(user)
    response = client.get("/hands/1/share/")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    html = response.content.decode()
    assert 'data-testid="error-page" data-status="405"' in html
    assert 'href="/"' in html and 'href="/lobby/"' in html
    if lang:
        assert "<h1>This address cannot be opened this way</h1>" in html
        assert "Go back to the previous page" in html
    else:
        assert "<h1>不能这样打开</h1>" in html
        assert "<title>不能这样打开 · 二人麻将</title>" in html.replace("\n", "")
        assert "只接受页面上的按钮提交" in html
