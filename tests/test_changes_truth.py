"""What changed tells the truth (real browser): ref-less nodes pair by DOM identity only, a modal
dialog's inert background is not renamed, settling waits for smooth scrolling and late content,
and a password shows one fixed mask whatever its length. Every check reads back what the page
really did through its own script state."""

from __future__ import annotations

import http.server
import json
import re
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import until
from settle_server import FixtureHandler

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "changes"
MASK = "••••••"


class _Handler(FixtureHandler):
    folder = FIXTURES

    def do_GET(self):  # noqa: N802
        url = urlparse(self.path)
        if url.path != "/posts":
            super().do_GET()
            return
        q = {k: int(v[0]) for k, v in parse_qs(url.query).items()}
        time.sleep(q.get("delay", 0) / 1000.0)  # the server answers late: late content (simulated, no wait)
        start = q.get("from", 1)
        body = json.dumps([{"title": f"Post {i}", "body": f"Body of post {i}"}
                           for i in range(start, start + q.get("n", 20))]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def ref_of(snap: dict, role: str, name: str) -> str:
    return next(r for r, i in snap["refs"].items() if i["role"] == role and i["name"] == name)


def said(items: list) -> list[tuple]:
    return [(i["role"], i["name"], i.get("value", "")) for i in items]


def test_opening_a_modal_dialog_adds_the_dialog_and_renames_nothing(driver, site):
    driver.ok(f"open {site}/dialog.html")
    snap = driver.ok("snapshot").data
    ch = driver.ok("click " + ref_of(snap, "button", "Cancel plan")).data["changes"]
    assert driver.js("window.state.opened") == 1 and driver.js("document.getElementById('dlg').open") is True
    assert ch["changed"] == []  # nothing was renamed: the background only became inert
    assert said(ch["added"]) == [("dialog", "Cancel your plan?", ""), ("heading", "Cancel your plan?", ""),
                                 ("paragraph", "", "You keep access until 1 May."), ("button", "Yes, cancel", "")]
    # what left the snapshot is the inert background, each node still in the page, unchanged
    removed = said(ch["removed"])
    assert ("paragraph", "", "Your plan renews on 1 May.") in removed
    assert ("paragraph", "", "Two seats are in use.") in removed
    assert driver.js("[...document.querySelectorAll('body > p')].map(p => p.isConnected && p.textContent)") == [
        "Your plan renews on 1 May.", "Two seats are in use."]


def test_switching_tab_panels_is_one_removed_and_one_added(driver, site):
    driver.ok(f"open {site}/tabs.html")
    snap = driver.ok("snapshot").data
    ch = driver.ok("click " + ref_of(snap, "tab", "Billing")).data["changes"]
    assert driver.js("window.state.shown") == "p2"
    assert driver.js("document.getElementById('p1').hidden && !document.getElementById('p2').hidden") is True
    assert ("tabpanel", "Profile", "") in said(ch["removed"]) and ("tabpanel", "Billing", "") in said(ch["added"])
    assert ("paragraph", "", "Name: Ada") in said(ch["removed"])
    assert ("paragraph", "", "Card ending 4242") in said(ch["added"])
    assert all(c["ref"] for c in ch["changed"])  # only the tabs themselves (their selected state)
    assert not any(c["role"] in ("tabpanel", "paragraph") for c in ch["changed"])


def test_a_heading_whose_text_node_is_edited_in_place_is_changed(driver, site):
    driver.ok(f"open {site}/tabs.html")
    snap = driver.ok("snapshot").data
    ch = driver.ok("click " + ref_of(snap, "button", "Save")).data["changes"]
    # the same Text node in the same heading, with other text (read back through the page's own handle)
    assert driver.js("window.state.headingNode === document.getElementById('count').firstChild") is True
    assert driver.js("document.getElementById('count').textContent") == "Saved 1 time"
    assert [(c["role"], c["was"]["name"], c["name"], c["ref"]) for c in ch["changed"]] == [
        ("heading", "Saved 0 times", "Saved 1 time", None)]
    assert ch["added"] == [] and ch["removed"] == []


def test_press_end_on_a_smooth_infinite_feed_shows_the_posts_it_loaded(driver, site):
    driver.ok(f"open {site}/feed.html")
    driver.ok("snapshot")
    out = driver.ok("press End").data
    ch = out["changes"]
    # the page scrolled smoothly, fetched the next page late and appended its 20 posts
    assert driver.js("window.state.fetches") == 1
    assert driver.js("window.state.loaded") == 40
    added = said(ch["added"])
    for i in range(21, 41):
        assert ("heading", f"Post {i}", "") in added
        assert ("paragraph", "", f"Body of post {i}") in added
    assert ch["removed"] == [] and ch["changed"] == []


def _masks(text: str) -> list[str]:
    return re.findall("•+", text)


@pytest.mark.parametrize("secret", ["abc", "correct horse battery staple"])
def test_a_password_shows_one_fixed_mask_whatever_its_length(driver, site, secret):
    driver.ok(f"open {site}/password.html")
    first = driver.ok("snapshot").data
    pw = ref_of(first, "textbox", "Password")
    filled = driver.ok(f"fill {pw} {secret}")
    assert driver.js("document.getElementById('pw').value") == secret  # the page holds the real value
    ch = filled.data["changes"]
    assert [(c["ref"], c["was"].get("value", ""), c["value"]) for c in ch["changed"]] == [(pw, "", MASK)]
    pin = ref_of(first, "textbox", "PIN")
    driver.ok(f"fill {pin} {secret}")
    assert driver.js("document.getElementById('pin').value") == secret
    snap = driver.ok("snapshot").data
    assert f'textbox "Password" [ref={pw}]: {MASK}' in snap["text"]
    # a name that embeds the field (a checkbox labelled around it) shows the same mask
    assert f'checkbox "Remember {MASK}"' in snap["text"]
    diff = driver.ok("diff " + str(first["snapshot"])).data
    found = driver.ok("find Password").data
    text = driver.ok("text " + pw).data
    inspect = driver.ok("inspect " + pw).data
    for shown in (filled.data, ch, snap, diff, found, text, inspect):
        dumped = json.dumps(shown, ensure_ascii=False)
        assert secret not in dumped
        assert set(_masks(dumped)) <= {MASK}, dumped
    assert _masks(snap["text"]) and _masks(json.dumps(diff, ensure_ascii=False))


def test_a_page_that_polls_all_the_time_still_settles(driver, site):
    driver.ok(f"open {site}/poll.html")
    snap = driver.ok("snapshot").data
    start = driver.js("window.state.polls")
    out = driver.ok("hover " + ref_of(snap, "button", "Hello"))
    assert not any("still changing" in n for n in out.notes), out.notes  # settled between two requests
    ch = out.data["changes"]
    assert (ch["added"], ch["removed"], ch["changed"]) == ([], [], [])
    assert until(lambda: driver.js("window.state.polls") > start, 5)  # it really was polling meanwhile
