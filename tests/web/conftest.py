"""Fixtures of the browser tests: the real server as a subprocess, and a real Chromium.

The browser is Debian's Chromium driven by Playwright (its own browser download cannot
work on a machine without the internet): ``TRICKTAKER_CHROMIUM`` names it, else
``/usr/bin/chromium``. Without it, or without Playwright or the server extra, the tests
are skipped, except under ``CI=true``, where they fail.

When a test fails, every page it opened is saved as a PNG in
``test-artifacts/screenshots/`` (named after the test), so a failure can be seen.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.postgres import in_ci
from tests.server_process import ServerProcess, free_port

try:
    import fastapi  # noqa: F401  (the server extra)
    from playwright.sync_api import Browser, Page, Playwright, ViewportSize, sync_playwright
except ImportError as missing:
    if in_ci():
        raise ImportError(
            "CI=true but Playwright or the server extra is missing: pip install -e '.[dev,server]'"
        ) from missing
    pytest.skip(f"the browser tests need {missing.name}", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: ViewportSize = {"width": 390, "height": 844}
"""The phone-sized viewport of issue 12 (an iPhone 12-14 in CSS pixels)."""


def chromium_path() -> Path:
    """The Chromium the tests drive: ``TRICKTAKER_CHROMIUM`` or Debian's."""
    return Path(os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium"))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test item, so that fixtures can tell a failure."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    """Playwright's driver for the session."""
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """A headless Chromium for the session (Debian's; see the module's docstring)."""
    path = chromium_path()
    if not path.exists():
        message = f"no Chromium at {path} (apt-get install chromium, or set TRICKTAKER_CHROMIUM)"
        if in_ci():
            pytest.fail(f"CI=true but {message}")
        pytest.skip(message)
    launched = playwright_instance.chromium.launch(
        executable_path=str(path), args=CHROMIUM_ARGS, headless=True
    )
    try:
        yield launched
    finally:
        launched.close()


def _start_server(tmp: Path) -> ServerProcess:
    server = ServerProcess(f"sqlite:///{tmp / 'server.sqlite3'}", free_port(), tmp / "server.log")
    server.start()
    return server


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The real server (``python -m tricktaker serve``) on a fresh SQLite file, for one
    test; ``.url`` is its address on 127.0.0.1."""
    server = _start_server(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server for every test of a module (tests that do not need a fresh one)."""
    server = _start_server(tmp_path_factory.mktemp("server"))
    try:
        yield server
    finally:
        server.stop()


NewPage = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[NewPage]:
    """A factory of pages, each in its own browser context (its own localStorage, as
    another person's browser): ``new_page()`` or ``new_page(viewport=PHONE)``. Console
    errors are collected on ``page.console_errors``. If the test fails, each page's
    screenshot is saved in ``test-artifacts/screenshots/``."""
    pages: list[Page] = []

    def make(viewport: ViewportSize | None = None, **context_options: Any) -> Page:
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900}, **context_options
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.console_errors = errors  # type: ignore[attr-defined]
        pages.append(page)
        return page

    yield make
    failed = any(
        getattr(getattr(request.node, f"report_{when}", None), "failed", False)
        for when in ("setup", "call")
    )
    if failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-150:]
        for number, page in enumerate(pages):
            try:
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{number}.png"), full_page=True)
            except Exception as error:  # a page that crashed still lets the others be saved
                print(f"no screenshot of page {number}: {error}")
    for page in pages:
        page.context.close()


def create_table(server: ServerProcess, **body: Any) -> dict[str, Any]:
    """Create a table over the HTTP API (``POST /tables``, see docs/protocol.md) and
    answer its JSON: ``table`` (the table, with its ``id``), ``host_token``, ``invite``,
    and ``seat``, ``seat_token`` when the host took a seat."""
    reply = httpx.post(f"{server.url}/tables", json=body, timeout=30)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data
