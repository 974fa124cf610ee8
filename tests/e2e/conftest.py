"""
Browser tests: Playwright drives Debian's Chromium at a phone's size (390×844) against
pytest-django's live server. A failing test leaves a screenshot in tests/artifacts/.
"""

import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.signals import request_finished, request_started
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


class InFlight:
    """How many requests the live server is still answering. A page closed at the end of
    a test can leave one on its way (a sheet's deals sent as the connection came back,
    its copy kept for no connection): the test's tables are then emptied under it, and
    the two deadlocked in PostgreSQL (TRUNCATE against the request's reads and writes)."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    # The live server answers in threads of its own; the test client, in the test's.
    def started(self, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            with self.lock:
                self.count += 1

    def finished(self, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            with self.lock:
                self.count = max(0, self.count - 1)

    def wait(self, seconds: float = 5) -> None:
        """Until none is on its way, for at most `seconds`: one never finished (a reply
        cut off mid-stream) is then given up on, so it holds up no later test."""
        deadline = time.monotonic() + seconds
        while self.count > 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        with self.lock:
            self.count = 0


IN_FLIGHT = InFlight()
request_started.connect(IN_FLIGHT.started, weak=False)
request_finished.connect(IN_FLIGHT.finished, weak=False)


def pytest_collection_modifyitems(items):
    for item in items:
        if "e2e" in item.nodeid.split("/"):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, request):
    """Open phone-sized pages, each in a context of its own (its own cookies)."""
    contexts = []

    def open_page():
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    failed = getattr(request.node, "report_call", None)
    for number, context in enumerate(contexts):
        for page in context.pages:
            if failed is not None and failed.failed:
                ARTIFACTS.mkdir(exist_ok=True)
                name = request.node.nodeid.replace("/", "_").replace("::", "__")
                page.screenshot(path=ARTIFACTS / f"{name}-{number}.png", full_page=True)
        context.close()
    IN_FLIGHT.wait()  # before the test's tables are emptied


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="session")
def axe():
    return Axe()


@pytest.fixture
def assert_accessible(axe):
    """Run axe-core's WCAG 2.2 AA rules on the page; fail with the report if any break."""

    def check(page):
        results = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG_22_AA}})
        assert results.violations_count == 0, results.generate_report()

    return check


def login(page, live_server, username, password):
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


@contextmanager
def swapped(page, path):
    """Wait, after the block, for the answer from `path` and for htmx to have swapped and
    settled it into the page (the response arrives before its swap)."""
    page.evaluate(
        """() => {
            window.settled = false;
            document.addEventListener("htmx:afterSettle", () => { window.settled = true; },
                                      { once: true });
        }"""
    )
    with page.expect_response(lambda r: path in r.url):
        yield
    page.wait_for_function("() => window.settled")
