"""gunicorn on loopback for the HTTP benchmarks and the race tests, and a small client.

`serving(database_url)` starts `gunicorn config.wsgi` with two sync workers on a free
127.0.0.1 port, production settings (DEBUG off, plain HTTP, a random secret key), waits
for /healthz, and stops it (by its own process id) on the way out.
"""

import contextlib
import http.client
import http.cookiejar
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serving(database_url: str, *, workers: int = 2, extra_env: dict | None = None):
    """Yield the base URL of gunicorn serving the project against `database_url`."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        **(extra_env or {}),
    }
    process = subprocess.Popen(
        [
            str(GUNICORN),
            "config.wsgi",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            "--worker-class=sync",
            "--timeout=30",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, process)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def _wait_ready(base: str, process, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {process.stderr.read().decode()[-2000:]}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{base}/healthz", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /healthz in time")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Cookies, a CSRF token and plain form posts, without following redirects."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf, **data}).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        return self._open(request)

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    @property
    def csrf(self) -> str:
        return self.cookie("csrftoken")

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def login(self, username: str, password: str) -> None:
        status, page = self.get("/login/")
        assert status == 200, status
        status, page = self.post("/login/", {"username": username, "password": password})
        if status != 302:
            found = re.search(r'role="alert">(.*?)</', page, re.S)
            raise RuntimeError(f"login failed ({status}): {found and found[1]}")

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def post_raw(base: str, path: str, body: str, cookie: str) -> int:
    """One form post on a fresh connection; returns the status (for racing threads)."""
    host = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    try:
        conn.request(
            "POST",
            path,
            body=body,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": cookie,
                "Referer": base + path,
            },
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()
