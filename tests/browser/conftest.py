"""Browser tests: Playwright driving Debian's chromium against a Daphne server.

Marked ``browser``; they fail with the reason when chromium is missing (which
``scripts/test`` installs); deselect them with ``-m "not browser"``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from .server import PASSWORD, LiveServer

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/test_browser_" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


def running_server() -> Iterator[LiveServer]:
    """A started :class:`LiveServer` on its own database, stopped afterwards
    (the body of the ``live`` fixtures)."""
    server = LiveServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def live() -> Iterator[LiveServer]:
    yield from running_server()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium under Playwright's sync API, for one test module at a time.

    While ``sync_playwright()`` is open, Playwright keeps its event loop marked as
    the main thread's running loop between calls (``wait_for_future`` sets it). A
    session-scoped browser therefore outlived the browser modules, and every later
    async test failed with "Runner.run() cannot be called from a running event
    loop" (pytest-django runs the no-database tests, async ones included, last).
    Module scope closes it, and clears the running loop, when the module ends.
    """
    path = chromium_path()
    if path is None:
        pytest.fail(
            "chromium is not installed: run scripts/test (it installs Debian's "
            'chromium) or deselect with -m "not browser"'
        )
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def login(page: Any, live: LiveServer, username: str) -> None:
    """Sign in through the real login form."""
    page.goto(f"{live.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state("domcontentloaded")
    assert "/accounts/login/" not in page.url, f"login failed for {username}"
