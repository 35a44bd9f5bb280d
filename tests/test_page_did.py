"""What the page did: the requests and console messages each action caused, `requests`, `request N`,
`console`, and a HAR that a real consumer (Playwright's route_from_har) replays. Judged by what the
test server itself received and answered."""

from __future__ import annotations

import json
import socket
import threading
from http.server import ThreadingHTTPServer

import pytest

from quiet_http import QuietHandler
from verdex_cli.browser import timer_watch
from verdex_cli.browser.netlog import NetLog
from short_tmp import third_party_env

PAGE = b"""<!doctype html><title>Shop API</title>
<script>
function add() {
  fetch('/api/cart', {method: 'POST', headers: {'Content-Type': 'application/json', 'Authorization': 'Bearer T0ps3cret'},
                      body: JSON.stringify({id: 7})})
    .then((r) => r.json()).then((j) => { out.textContent = 'items: ' + j.items; console.error('x is undefined'); });
}
function broken() { fetch('/missing.json'); console.warn('careful'); console.info('fyi'); console.debug('dbg');
                    null.boom; }
function refused() { fetch('http://127.0.0.1:%(closed)d/nothing').catch(() => { out.textContent = 'refused'; }); }
function worker() {
  const w = new Worker(URL.createObjectURL(new Blob(["setTimeout(() => fetch('" + location.origin + "/from-worker').then(() => postMessage('ok')), 300)"])));
  w.onmessage = () => { out.textContent = 'worker done'; };
}
function frame() { const f = document.createElement('iframe'); f.src = '%(other)s/framed'; document.body.append(f); }
function cors() { fetch('%(other)s/api/private').catch(() => { out.textContent = 'blocked'; }); }
</script>
<button onclick="add()">Add</button> <button onclick="broken()">Break</button>
<button onclick="refused()">Refused</button> <button onclick="cors()">CORS</button>
<button onclick="worker()">Worker</button> <button onclick="frame()">Frame</button>
<a href="/next">Next</a><p id=out></p>"""


class Api(QuietHandler):
    posted: list = []
    asked: list = []  # the paths answered 404, as the server received them

    def do_GET(self):  # noqa: N802
        if self.path == "/":
            self._send(200, PAGE % {b"closed": self.server.closed, b"other": self.server.other.encode()})
        elif self.path == "/next":
            self._send(200, b"<!doctype html><title>Next</title><img src='/a.png'><img src='/b.png'><p>next</p>")
        elif self.path == "/framed":  # a cross-origin frame that asks its own server
            self._send(200, b"<!doctype html><p>framed</p><script>setTimeout(() => { fetch('/from-frame'); "
                            b"console.warn('frame says'); }, 300)</script>")
        elif self.path.startswith("/at-once"):  # a frame and a worker that ask at their first line
            self._send(200, b"<!doctype html><title>At once</title><script>function start(n) {"
                            b" const f = document.createElement('iframe'); f.src = '%s/first-frame?' + n;"
                            b" document.body.append(f);"
                            b" new Worker('/first-worker.js?' + n).onmessage = (e) => { log.textContent += e.data; }; }"
                            b"addEventListener('message', (e) => { log.textContent += e.data; });</script>"
                            b"<body onload='start(1)'><button onclick='start(2)'>Again</button><p id=log></p>"
                            % self.server.other.encode())
        elif self.path.startswith("/first-frame"):
            n = self.path.split("?")[1]
            self._send(200, b"<!doctype html><script>console.error('frame first %s'); fetch('/frame-asked?%s').then(() => "
                            b"parent.postMessage(' frame %s', '*'))</script><p>first</p>" % (n.encode(), n.encode(), n.encode()))
        elif self.path.startswith("/first-worker.js"):
            n = self.path.split("?")[1]
            self._send(200, b"console.error('worker first %s'); fetch('/worker-asked?%s').then(() => "
                            b"postMessage(' worker %s'))" % (n.encode(), n.encode(), n.encode()),
                       "text/javascript")
        elif self.path == "/with-sw":  # a page that starts a service worker and a worker inside a frame
            self._send(200, b"<!doctype html><title>Offline</title><p id=log></p><script>"
                            b"navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)"
                            b".then(() => { log.textContent += ' sw ready'; });"
                            b"addEventListener('message', (e) => { log.textContent += e.data; });</script>"
                            b"<iframe src='%s/framed-worker'></iframe>" % self.server.other.encode())
        elif self.path == "/sw.js":
            self._send(200, b"self.addEventListener('install', (e) => e.waitUntil(fetch('/sw-asked')));", "text/javascript")
        elif self.path == "/framed-worker":
            self._send(200, b"<!doctype html><script>new Worker('/first-worker.js?3').onmessage = "
                            b"(e) => parent.postMessage(e.data, '*');</script>")
        elif self.path.startswith("/poll"):
            self._send(200, b"<!doctype html><p id=n>0</p><script>setInterval(() => fetch('/tick').then(() => "
                            b"n.textContent++), 40)</script>")
        elif self.path == "/api/private":
            self._send(200, b'{"secret": 1}', "application/json")  # no CORS header: the browser blocks it
        else:
            Api.asked.append(self.path)
            self._send(404, b"not found", "text/plain")

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Api.posted.append(body)
        self._send(201, json.dumps({"items": len(Api.posted)}).encode(), "application/json")


@pytest.fixture(scope="module")
def site():
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    closed = free.getsockname()[1]
    free.close()
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Api) for _ in range(2)]
    a, b = servers
    a.closed, b.closed = closed, closed
    a.other = f"http://localhost:{b.server_address[1]}"
    b.other = f"http://127.0.0.1:{a.server_address[1]}"
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{a.server_address[1]}"
    for s in servers:
        s.shutdown()


@pytest.fixture
def shown(driver, site):
    """The site's page opened in ``driver`` and shown once (its buttons are clicked by target)."""
    driver.ok("open " + site)
    driver.ok("snapshot")


def test_an_action_reports_the_requests_and_errors_it_caused(driver, site, shown):
    add = driver.ok("click button:Add").data
    assert add["requests"] == [{"n": add["requests"][0]["n"], "method": "POST", "url": site + "/api/cart",
                                "status": 201, "failure": None, "type": "Fetch", "ms": add["requests"][0]["ms"],
                                "frame": 0}]
    assert add["console"] == [{"level": "error", "text": "x is undefined", "source": site + "/", "line": 6}]
    assert Api.posted[-1] == b'{"id":7}'
    broke = driver.ok("click button:Break").data
    assert [(r["url"], r["status"]) for r in broke["requests"]] == [(site + "/missing.json", 404)]
    levels = [(m["level"], m["text"].split(":")[0]) for m in broke["console"]]
    assert levels == [("warning", "careful"), ("error", "TypeError")]  # errors and warnings only
    refused = driver.ok("click button:Refused").data["requests"]
    assert refused[0]["status"] is None and "ERR_CONNECTION_REFUSED" in refused[0]["failure"]
    cors = driver.ok("click button:CORS").data["requests"]
    assert cors and cors[0]["failure"] and "CORS" in cors[0]["failure"]


def test_a_navigation_is_one_line_and_the_log_keeps_going(driver, site, shown):
    nav = driver.ok("click link:Next").data["requests"]
    assert nav[0]["url"] == site + "/next" and nav[0]["type"] == "Document"
    assert nav[1:] == [{"subresources": 2, "failed": 2}]  # two images, both 404
    listed = driver.ok("requests").data
    urls = [r["url"] for r in listed["requests"]]
    assert urls.index(site + "/") < urls.index(site + "/next") < urls.index(site + "/a.png")
    assert listed["documents"][-1] == site + "/next"
    failed = driver.ok("requests --failed").data["requests"]
    assert {r["url"] for r in failed} >= {site + "/a.png", site + "/b.png"}
    assert all(site + "/next" != r["url"] for r in failed)
    only = driver.ok("requests png").data["requests"]
    assert [r["url"] for r in only] == [site + "/a.png", site + "/b.png"]


def test_request_n_shows_headers_and_bodies_with_secrets_masked(driver, site, shown, tmp_path):
    n = driver.ok("click button:Add").data["requests"][0]["n"]
    driver.ok("open " + site + "/next")  # the answer's body outlives its page
    one = driver.ok(f"request {n}").data
    assert one["request_body"] == '{"id":7}' and json.loads(one["body"])["items"] >= 1
    assert one["request_headers"]["Authorization"] == "***"
    shown = driver.ok(f"request {n} --show-secrets --save {tmp_path / 'body.json'}").data
    assert shown["request_headers"]["Authorization"] == "Bearer T0ps3cret"
    assert json.loads((tmp_path / "body.json").read_text()) == json.loads(one["body"])
    driver.fail("request 99999", "usage")


def test_console_lists_every_level_across_navigations(driver, site):
    driver.ok("open " + site)
    driver.ok("console --clear")
    driver.ok("snapshot")
    driver.ok("click button:Break")
    driver.ok("open " + site + "/next")
    every = [m["level"] for m in driver.ok("console").data["messages"]]
    assert every == ["warning", "info", "debug", "error"]
    errors = driver.ok("console --level error").data["messages"]
    assert len(errors) == 1 and errors[0]["exception"] and errors[0]["text"].startswith("TypeError")
    assert [m["level"] for m in driver.ok("console --level warning").data["messages"]] == ["warning", "error"]
    driver.fail("console --level loud", "usage")


def test_workers_and_cross_origin_frames_are_heard(driver, site, shown):
    # (what such a target asks for in its first few milliseconds, before verdex has attached, is not)
    driver.ok("click button:Worker")
    driver.ok("wait text worker done")
    driver.ok("click button:Frame")
    driver.ok("wait 500")
    urls = [r["url"] for r in driver.ok("requests from-").data["requests"]]
    assert site + "/from-worker" in urls and any(u.endswith("/from-frame") and not u.startswith(site) for u in urls)
    assert any(m["text"] == "frame says" for m in driver.ok("console --level warning").data["messages"])


def test_what_a_new_frame_and_worker_ask_at_their_first_line_is_heard(driver, site):
    """A cross-origin frame and a dedicated worker that fetch in their first line (on load, and again
    made by a click): each fetch the server received is in `requests`, with its frame's origin."""
    other = site.replace("127.0.0.1", "localhost").rsplit(":", 1)[0]
    driver.ok("open " + site + "/at-once")
    driver.ok("wait text frame 1")
    driver.ok("wait text worker 1")
    driver.ok("snapshot")
    driver.ok("click button:Again")
    driver.ok("wait text frame 2")
    driver.ok("wait text worker 2")
    for n in (1, 2):
        assert f"/frame-asked?{n}" in Api.asked and f"/worker-asked?{n}" in Api.asked  # the page's own record
    urls = [r["url"] for r in driver.ok("requests asked").data["requests"]]
    for n in (1, 2):
        assert site + f"/worker-asked?{n}" in urls, urls
        assert any(u.startswith(other) and u.endswith(f"/frame-asked?{n}") for u in urls), urls


def test_what_a_new_frame_and_worker_log_at_their_first_line_is_heard(driver, site):
    """Issue 35: a cross-origin frame and a dedicated worker that log an error in their first line (on
    load, and again made by a click) are in `console`, and in the console of the click that made them."""
    driver.ok("open " + site + "/at-once")
    driver.ok("wait 1500")
    first = [m["text"] for m in driver.ok("console --level error").data["messages"]]
    assert "frame first 1" in first and "worker first 1" in first, first
    driver.ok("snapshot")
    clicked = driver.ok("click button:Again").data
    driver.ok("wait text frame 2")
    driver.ok("wait text worker 2")
    logged = [m["text"] for m in driver.ok("console --level error").data["messages"]]
    for n in (1, 2):
        assert logged.count(f"frame first {n}") == 1 and logged.count(f"worker first {n}") == 1, logged
    assert {"frame first 2", "worker first 2"} <= {m["text"] for m in clicked["console"]}, clicked["console"]


def test_a_new_frame_or_worker_runs_even_when_setting_it_up_fails(driver, site, monkeypatch):
    # every handler of the new target's attachment fails: it is told to run all the same (no hang)
    def broken(*_a, **_k):
        raise RuntimeError("set-up failed")
    monkeypatch.setattr(NetLog, "_attached", broken)
    monkeypatch.setattr(timer_watch, "_attached", broken)
    driver.ok("open " + site + "/at-once")
    driver.ok("wait text frame 1")
    driver.ok("wait text worker 1")


def test_a_service_worker_and_a_worker_in_a_frame_start_and_run(driver, site):
    """Each new target waits for verdex as it starts, and is always let go: a service worker's install
    (which waits on its own fetch) and a worker started by a cross-origin frame finish."""
    driver.ok("open " + site + "/with-sw")
    driver.ok("wait text sw ready")
    driver.ok("wait text worker 3")
    assert "/sw-asked" in Api.asked and "/worker-asked?3" in Api.asked
    urls = [r["url"] for r in driver.ok("requests asked").data["requests"]]
    assert site + "/sw-asked" in urls and any(u.endswith("/worker-asked?3") and not u.startswith(site) for u in urls), urls


def test_a_page_that_polls_keeps_a_bounded_log(driver, site):
    driver.ok("open " + site + "/poll")
    driver.ok("wait 800")
    ticks = driver.ok("requests tick").data["requests"]
    answered = [r for r in ticks if r["status"] is not None]
    assert len(answered) >= 5 and all(r["status"] == 404 for r in answered)  # every one heard, in order
    assert [r["n"] for r in ticks] == sorted(r["n"] for r in ticks)


def test_a_har_written_by_verdex_replays_in_playwright(driver, site, shown, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the test extra)")
    driver.ok("click button:Add")
    har = tmp_path / "shop.har"
    driver.ok(f"requests --har {har}")
    doc = json.loads(har.read_text())
    assert doc["log"]["version"] == "1.2" and doc["log"]["creator"]["name"] == "verdex-cli"
    for e in doc["log"]["entries"]:  # the fields HAR 1.2 requires
        assert {"startedDateTime", "time", "request", "response", "cache", "timings"} <= set(e)
        assert {"method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"} <= set(e["request"])
        assert {"status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize",
                "bodySize"} <= set(e["response"])
        assert {"size", "mimeType"} <= set(e["response"]["content"])
    posted = len(Api.posted)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], env=third_party_env())
        page = browser.new_page()
        page.route_from_har(str(har), not_found="abort")
        page.goto(site)
        page.get_by_role("button", name="Add").click()
        page.wait_for_function("document.getElementById('out').textContent.startsWith('items: ')")
        text = page.text_content("#out")
        browser.close()
    assert len(Api.posted) == posted  # answered from the HAR, not by the server
    assert text == f"items: {posted}"
