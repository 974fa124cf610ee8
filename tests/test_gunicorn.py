"""gunicorn as production runs it (`gunicorn -c config/gunicorn.conf.py config.wsgi`, as
`make serve` does), behind a proxy on the same machine: every request then comes from
127.0.0.1 (or the Unix socket), which gunicorn would trust by default to say how the
request is to be read. Nothing a client sends may do that: whether a request came over
HTTPS is Django's to decide, from DJANGO_PROXY_COUNT, and the site is always at "/"."""

import contextlib
import http.client
import os
import secrets
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from bench.server import GUNICORN, ROOT, free_port
from tests.factories import LeagueFactory
from tests.reliability.conftest import database_url


class UnixConnection(http.client.HTTPConnection):
    """HTTP over gunicorn's Unix socket, where the proxy would reach it."""

    def __init__(self, path: str):
        super().__init__("127.0.0.1", timeout=10)  # the Host header
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(self.path)


# Where gunicorn listens: 127.0.0.1 on a free port, or a Unix socket (a path).
BINDS = ["tcp", "unix"]


@contextlib.contextmanager
def production_gunicorn(bind: str, *, https: bool = True, proxy_count: int = 0, database: str = ""):
    """gunicorn started as `make serve` does; yields what `fetch` needs to reach it."""
    folder = tempfile.TemporaryDirectory()
    where = f"{folder.name}/gunicorn.sock" if bind == "unix" else free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "1" if https else "0",
        "DJANGO_PROXY_COUNT": str(proxy_count),
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "GUNICORN_BIND": f"unix:{where}" if bind == "unix" else f"127.0.0.1:{where}",
        "GUNICORN_WORKERS": "1",  # one process: one page cache in its memory
    }
    if database:
        env["DATABASE_URL"] = database
    process = subprocess.Popen(
        [str(GUNICORN), "-c", "config/gunicorn.conf.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                fetch(where, "/healthz")
                break
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield where
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
        folder.cleanup()


def fetch(where, path: str, headers: dict | None = None) -> tuple[int, bytes]:
    """A plain-HTTP GET, as a client that reached the proxy sends it: status and body."""
    if isinstance(where, int):
        connection = http.client.HTTPConnection("127.0.0.1", where, timeout=10)
    else:
        connection = UnixConnection(where)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def status(where, headers: dict) -> int:
    return fetch(where, "/healthz", headers)[0]


# The headers gunicorn itself reads, by default, as "this came over HTTPS".
CLAIMS_OF_HTTPS = [
    {"X-Forwarded-Proto": "https"},
    {"X-Forwarded-Ssl": "on"},
    {"X-Forwarded-Protocol": "ssl"},
]


@pytest.mark.parametrize("bind", BINDS)
def test_with_no_proxy_a_request_claiming_https_is_still_sent_to_https(bind):
    with production_gunicorn(bind, proxy_count=0) as where:
        assert status(where, {}) == 301
        for claim in CLAIMS_OF_HTTPS:
            assert status(where, claim) == 301, claim


@pytest.mark.parametrize("bind", BINDS)
def test_behind_the_proxy_only_its_x_forwarded_proto_says_https(bind):
    with production_gunicorn(bind, proxy_count=1) as where:
        assert status(where, {"X-Forwarded-Proto": "https"}) == 200
        assert status(where, {"X-Forwarded-Proto": "http"}) == 301
        assert status(where, {"X-Forwarded-Ssl": "on"}) == 301
        assert status(where, {"X-Forwarded-Protocol": "ssl"}) == 301


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bind", BINDS)
def test_a_client_cannot_move_the_site_under_another_path_for_every_visitor(bind):
    # A SCRIPT_NAME header would mount the site under that path for the request, and the
    # public page drawn for it, every link under that path, would be kept and served to
    # every visitor ("//elsewhere.example" would send them all off the site).
    LeagueFactory(slug="clare")
    with production_gunicorn(bind, https=False, database=database_url()) as where:
        fetch(where, "/elsewhere/clare/", {"SCRIPT_NAME": "/elsewhere"})
        fetch(where, "/clare/", {"SCRIPT_NAME": "/elsewhere", "PATH_INFO": "/clare/"})
        answered, page = fetch(where, "/clare/")
    assert answered == 200
    assert b'href="/clare/' in page
    assert b"/elsewhere" not in page
