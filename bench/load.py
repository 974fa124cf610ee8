"""Load bounded in time against a loopback server: wrk when it is installed (Debian's
`wrk` package), else a threaded Python client. Every figure is requests per second
of answered requests, with the count of unexpected answers beside it."""

import http.client
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

WRK = shutil.which("wrk")
CONNECTIONS = 4


def tool() -> str:
    return "wrk" if WRK else "python"


def get(url: str, seconds: float, headers: dict | None = None) -> dict:
    """GET `url` over and over for `seconds`; {'rps', 'requests', 'bad'}."""
    if WRK:
        args = []
        for name, value in (headers or {}).items():
            args += ["-H", f"{name}: {value}"]
        return _wrk([*args, url], seconds)
    return _python(url, seconds, lambda i: ("GET", urllib.parse.urlsplit(url).path, None, headers))


def etag(url: str) -> str:
    """The ETag a visitor's GET of `url` comes back with."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", parts.path)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.getheader("ETag", "")


def together(runs: list) -> list[dict]:
    """Run each of `runs` (a load function) at the same time; their results."""
    results: list = [None] * len(runs)

    def one(i):
        results[i] = runs[i]()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(runs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def post_deals(base: str, game_ids: list[int], cookie: str, csrf: str, seconds: float) -> dict:
    """POST the first deal of a fresh game each time, with a fresh idempotency key."""
    if WRK:
        script = _deal_script(game_ids, cookie, csrf, base)
        try:
            return _wrk(["-s", script, base + "/healthz"], seconds)
        finally:
            Path(script).unlink(missing_ok=True)

    def make(i):
        body = _deal_body(csrf, str(uuid.uuid4()))
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": cookie,
            "Referer": base + "/",
        }
        return "POST", f"/games/{game_ids[i % len(game_ids)]}/deals/", body, headers

    return _python(base + "/", seconds, make)


def drain(base: str) -> None:
    """Wait until the server has finished what the last run left queued: as many
    requests as there were connections, all answered."""
    threads = [
        threading.Thread(target=lambda: _fetch(base + "/healthz")) for _ in range(CONNECTIONS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _fetch(url: str) -> None:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    conn.request("GET", parts.path)
    conn.getresponse().read()
    conn.close()


def _deal_body(csrf: str, key: str) -> str:
    # The sheet's quick "split" entry: the first side took 2 tricks, side 1 dealt.
    return f"csrfmiddlewaretoken={csrf}&key={key}&version=1&mode=split&dealer=0&first=2"


def _deal_script(game_ids, cookie, csrf, base) -> str:
    ids = ",".join(str(i) for i in game_ids)
    lua = f"""
local ids = {{{ids}}}
local made = 0
function setup(thread)
  thread:set("tid", made)
  made = made + 1
end
function init(args)
  nthreads = {CONNECTIONS}
  idx = tid
  -- A seed of this script's own: two wrk processes started in the same second (two
  -- servers loaded at once) made the same keys from the clock, refused as reused.
  math.randomseed({secrets.randbits(30)} + tid * 7919)
end
local function hex(n)
  local s = ""
  for _ = 1, n do s = s .. string.format("%x", math.random(0, 15)) end
  return s
end
function request()
  local gid = ids[(idx % #ids) + 1]
  idx = idx + nthreads
  local key = hex(8) .. "-" .. hex(4) .. "-4" .. hex(3) .. "-a" .. hex(3) .. "-" .. hex(12)
  local body = "csrfmiddlewaretoken={csrf}&key=" .. key ..
    "&version=1&mode=split&dealer=0&first=2"
  return wrk.format("POST", "/games/" .. gid .. "/deals/", {{
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "{cookie}",
    ["Referer"] = "{base}/",
  }}, body)
end
"""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(lua)
    return handle.name


def _wrk(args: list[str], seconds: float) -> dict:
    # One thread per connection, so the Lua script's id arithmetic holds.
    command = [WRK, f"-t{CONNECTIONS}", f"-c{CONNECTIONS}", f"-d{int(seconds)}s"]
    command += ["--timeout", "30s", "--latency"]
    out = subprocess.run(
        command + args, capture_output=True, text=True, timeout=seconds + 30, check=True
    ).stdout
    requests = int(re.search(r"(\d+) requests in", out)[1])
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)\b", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),
        "requests": requests,
        "bad": int(bad[1]) if bad else 0,
        "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0,
        "p50_ms": _ms(p50) if p50 else None,
    }


def _ms(match) -> float:
    value, unit = float(match[1]), match[2]
    return {"us": value / 1000, "ms": value, "s": value * 1000}[unit]


def _python(url: str, seconds: float, make) -> dict:
    """CONNECTIONS threads, each on one kept-alive connection, for `seconds`."""
    parts = urllib.parse.urlsplit(url)
    counts = {"requests": 0, "bad": 0}
    lock = threading.Lock()
    latencies: list[float] = []
    next_index = iter(range(10**9))
    stop = time.monotonic() + seconds

    def worker():
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        done = bad = 0
        mine = []
        while time.monotonic() < stop:
            with lock:
                i = next(next_index)
            method, path, body, headers = make(i)
            started = time.perf_counter()
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            done += 1
            bad += response.status >= 400
        conn.close()
        with lock:
            counts["requests"] += done
            counts["bad"] += bad
            latencies.extend(mine)

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "rps": counts["requests"] / elapsed,
        "requests": counts["requests"],
        "bad": counts["bad"],
        "socket_errors": 0,
        "p50_ms": latencies[len(latencies) // 2] if latencies else None,
    }
