"""
Walk the site as a person would: follow every link and note every form, with the
test client. Used by the security suite to reach every URL the project has.
"""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.urls import Resolver404, resolve

SKIP_PREFIXES = ("/admin/", "/static/", "/logout/")
PER_ROUTE = 3  # pages visited for each URL pattern (enough to vary the objects)


@dataclass
class Form:
    page: str
    action: str
    method: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # name -> offered values
    files: list[str] = field(default_factory=list)

    @property
    def route(self) -> str:
        return route_of(self.action)


class _PageParser(HTMLParser):
    def __init__(self, page):
        super().__init__()
        self.page = page
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._by_id: dict[str, Form] = {}
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            action = urljoin(self.page, a.get("action") or self.page)
            self.forms.append(Form(self.page, action, (a.get("method") or "get").lower()))
            if a.get("id"):
                self._by_id[a["id"]] = self.forms[-1]
        elif tag == "button" and a.get("formaction"):
            # A button that sends its form (`form="id"`, or the one it is in) elsewhere.
            owner = self._by_id.get(a.get("form", "")) or (self.forms[-1] if self.forms else None)
            action = urljoin(self.page, a["formaction"])
            method = owner.method if owner else "post"
            fields = {name: list(values) for name, values in owner.fields.items()} if owner else {}
            self.forms.append(Form(self.page, action, method, fields))
        elif self.forms and tag in ("input", "button", "textarea", "select") and a.get("name"):
            form = self.forms[-1]
            if a.get("type") == "file":
                form.files.append(a["name"])
                return
            form.fields.setdefault(a["name"], [])
            if a.get("value") is not None:
                form.fields[a["name"]].append(a["value"])
            if tag == "select":
                self._select = a["name"]
        elif tag == "option" and self._select and self.forms:
            self.forms[-1].fields[self._select].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def route_of(url: str) -> str:
    path = urlsplit(url).path
    try:
        match = resolve(path)
    except Resolver404:
        return f"unresolved:{path}"
    return match.view_name


def crawl(client, starts=("/",), limit: int = 600):
    """Visit every page reachable by links from `starts`. Returns ({url: response}, [forms])."""
    seen, forms, per_route = {}, [], {}
    queue = list(starts)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        parts = urlsplit(url)
        if parts.netloc and parts.netloc not in ("testserver",):
            continue
        url = parts.path + (f"?{parts.query}" if parts.query else "")
        if url in seen or url.startswith(SKIP_PREFIXES):
            continue
        route = route_of(url)
        if per_route.get(route, 0) >= PER_ROUTE:
            continue
        per_route[route] = per_route.get(route, 0) + 1
        response = client.get(url)
        seen[url] = response
        if response.status_code in (301, 302) and response.has_header("Location"):
            queue.append(urljoin(url, response["Location"]))
        if "text/html" not in response.get("Content-Type", ""):
            continue
        parser = _PageParser(url)
        parser.feed(response.content.decode())
        queue.extend(urljoin(url, href) for href in parser.links if not href.startswith("#"))
        for form in parser.forms:
            if form.method == "get":
                queue.append(form.action)
            else:
                forms.append(form)
    return seen, forms
