"""Honest navigation: HTTP status, stopped slow navigations, Ctrl-C, reload reasons, tab hints."""

from __future__ import annotations

import _thread
import re
import threading
import time
from pathlib import Path

import pytest

from conftest import ref_in as _ref
from slow_server import SlowServer

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def slow():
    server = SlowServer()
    yield server
    server.stop()




# -- status ------------------------------------------------------------------------------------------

def test_open_carries_the_http_status(driver, demo):
    res = driver.ok("open " + demo.url("index.html"))
    assert res.data["status"] == 200
    assert not [n for n in res.notes if "server answered" in n]


def test_404_has_a_status_and_a_note(driver, demo):
    res = driver.ok("open " + demo.url("no-such-page.html"))
    assert res.data["status"] == 404
    assert "The server answered 404 Not Found." in res.notes


@pytest.mark.parametrize("path,code,phrase", [("/status/500", 500, "Internal Server Error"),
                                               ("/status/404?empty=1", 404, "Not Found"),
                                               ("/status/503?empty=1", 503, "Service Unavailable")])
def test_error_statuses_even_with_an_empty_body(driver, slow, path, code, phrase):
    res = driver.ok("open " + slow.url(path))
    assert res.data["status"] == code
    assert f"The server answered {code} {phrase}." in res.notes


def test_file_data_and_about_urls_have_no_status(driver):
    assert driver.ok(f"open {ROOT / 'demo_pages' / 'blank.html'}").data["status"] is None
    assert driver.ok("open data:text/html,<title>d</title>hi").data["status"] is None
    assert driver.ok("open about:blank").data["status"] is None


def test_back_forward_and_reload_carry_the_status(driver, demo):
    missing, index = demo.url("nope.html"), demo.url("index.html")
    driver.ok("open " + missing)
    driver.ok("open " + index)
    back = driver.ok("back")
    assert back.data["url"] == missing and back.data["status"] == 404
    assert "The server answered 404 Not Found." in back.notes
    fwd = driver.ok("forward")
    assert fwd.data["status"] == 200
    assert driver.ok("reload").data["status"] == 200


def test_same_document_open_has_no_status(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    data = driver.ok("open " + demo.url("index.html") + "#part").data  # nothing was loaded
    assert data["status"] is None and data["same_document"] is True


# -- slow and cancelled navigations ---------------------------------------------------------------

def test_timed_out_open_is_stopped_and_the_tab_stays(quick, slow):
    quick.ok("open " + slow.url("/home"))
    start = time.monotonic()
    out = quick.fail("open " + slow.url("/slow?s=3"), "timeout")
    assert time.monotonic() - start < 3
    assert "did not answer within 1.5 s" in out.message and "stopped" in out.message
    start = time.monotonic()
    assert quick.ok("eval 1").data["value"] == 1
    assert time.monotonic() - start < 1.4  # no waiting for a timeout
    slow.wait_answered("/slow?s=3")  # the slow answer went out: it must not replace the page
    quick.ok("wait 200")
    assert quick.ok("eval location.pathname").data["value"] == "/home"
    assert quick.ok("snapshot").data["text"]


def test_ctrl_c_during_open_stops_the_navigation(driver, slow):
    driver.ok("open " + slow.url("/before"))
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        out = driver.run("open " + slow.url("/slow?s=3"))
    finally:
        timer.cancel()
    assert not out.ok and out.kind == "cancelled"
    start = time.monotonic()
    assert driver.ok("eval 2").data["value"] == 2
    assert time.monotonic() - start < 3
    slow.wait_answered("/slow?s=3")
    driver.ok("wait 200")
    assert driver.ok("eval location.pathname").data["value"] == "/before"


def test_a_page_that_never_finishes_loading_is_stopped(quick, slow):
    res = quick.ok("open " + slow.url("/slow-image?s=4"))
    assert res.data["title"] == "Half" and res.data["status"] == 200
    assert "The page did not finish loading within 1.5 s; loading was stopped." in res.notes
    start = time.monotonic()
    assert quick.ok("eval document.readyState").data["value"] == "complete"
    assert time.monotonic() - start < 1.4


def test_a_ready_document_is_waited_for_five_seconds_at_most_and_goes_on_loading(driver, slow):
    # the document is ready at once, its one image comes after 7 s (the timeout is 10 s): as Playwright's
    # navigate, 'open' waits for the rest 5 s at most, says what is still out, and does not stop it
    res = driver.ok("open " + slow.url("/slow-image?s=7"))
    assert res.data["title"] == "Half" and res.data["status"] == 200
    assert ("The page was still loading 5 s after its document was ready (1 request still out); it goes on "
            "loading ('requests' lists them).") in res.notes
    slow.wait_answered("/slow.png?s=7")
    driver.ok("wait 300")
    assert driver.ok("eval document.readyState").data["value"] == "complete"


# -- reload and stale refs ---------------------------------------------------------------------------

def test_reload_names_the_reload_in_the_navigated_message(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    ref = _ref(driver.ok("snapshot").data["text"], 'button "Alert"')
    driver.ok("reload")
    out = driver.fail("click " + ref, "navigated")
    assert out.message == (f"Ref '{ref}' is from a previous page (issued in snapshot #1 at {demo.url('dialogs.html')}; "
                           "the page was reloaded by 'reload' (command 3)). Take a new snapshot.")
    # a real navigation keeps naming the new address
    ref = _ref(driver.ok("snapshot").data["text"], 'button "Alert"')
    driver.ok("open " + demo.url("shop.html"))
    out = driver.fail("click " + ref, "navigated")
    assert out.message.endswith(f"navigated to {demo.url('shop.html')}). Take a new snapshot.")


def test_reload_reason_for_refs_inside_frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    text = driver.ok("snapshot").data["text"]
    ref = next(r for r in re.findall(r"\[ref=(c0p0f[1-9]\d*e\d+)\]", text))
    driver.ok("reload")
    out = driver.fail("click " + ref, "navigated")
    assert "; the page was reloaded by 'reload' (command 3))" in out.message


def test_page_hint_never_names_a_missing_tab(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    out = driver.fail("click c0p7f0e1", "page_mismatch")
    assert "tab 7" not in out.message
    assert out.message == ("Ref 'c0p7f0e1' is for page 7, which does not exist (any more); the current page is 0. "
                           "Take a new snapshot.")


# -- the URL resolver through the commands --------------------------------------------------------

def test_open_resolves_host_port_and_relative_paths(driver, slow, demo, monkeypatch):
    res = driver.ok("open " + slow.base.removeprefix("http://") + "/plain")
    assert res.data["url"] == slow.url("/plain")
    driver.ok("open " + demo.url("index.html"))
    assert driver.ok("open shop.html").data["url"] == demo.url("shop.html")
    assert driver.ok("tab new form.html").data["switched_to"] == 1
    assert driver.ok("eval location.href").data["value"] == demo.url("form.html")
    monkeypatch.chdir(ROOT / "demo_pages")
    driver.ok(f"open {ROOT / 'demo_pages' / 'blank.html'}")
    assert driver.ok("open shop.html").data["url"] == (ROOT / "demo_pages" / "shop.html").as_uri()


def test_open_a_directory_is_an_error(driver):
    out = driver.fail(f"open {ROOT / 'demo_pages'}", "navigation_failed")
    assert out.message.endswith("is a directory, not a page.")


def _slow_link(driver, slow, seconds: int = 6):
    driver.ok("open " + slow.url("/start"))
    driver.ok("eval document.body.insertAdjacentHTML('beforeend', "
              f"'<a id=\"l\" href=\"/slow?s={seconds}\">Slow link</a>')")


def test_an_eval_that_starts_a_slow_navigation_stops_it(quick, slow):
    _slow_link(quick, slow, 3)
    res = quick.ok("eval document.getElementById('l').click()")
    assert "The navigation did not finish within 1.5 s; it was stopped." in res.notes
    assert not [n for n in res.notes if n.startswith("Navigated")]
    slow.wait_answered("/slow?s=3")
    quick.ok("wait 200")
    assert quick.ok("eval location.pathname").data["value"] == "/start"


def test_a_click_that_starts_a_slow_navigation_leaves_a_settled_page(quick, slow):
    _slow_link(quick, slow)
    out = quick.run("click " + _ref(quick.ok("snapshot").data["text"], 'link "Slow link"'))
    # the guard's read-back is held by the pending navigation; the navigation proves the click landed
    assert out.ok, f"{out.kind}: {out.message}"
    assert "The navigation did not finish within 1.5 s; it was stopped." in out.result.notes
    start = time.monotonic()
    assert quick.ok("eval location.pathname").data["value"] == "/start"
    assert time.monotonic() - start < 1.4


def test_command_line_url_uses_the_same_resolver(chrome_http, slow, tmp_path):
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def run(url):
        return subprocess.run([sys.executable, "-m", "verdex_cli", "run", "--connect", chrome_http, "--json", url,
                               "eval location.href"], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)

    proc = run(slow.base.removeprefix("http://") + "/cli")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["result"]["value"] == slow.url("/cli")
    (tmp_path / "here.html").write_text("<title>Here</title>")
    proc = run("here.html")
    assert json.loads(proc.stdout.splitlines()[-1])["result"]["value"] == (tmp_path / "here.html").as_uri()
    proc = run("nothere.html")
    assert proc.returncode == 1 and "No such file: nothere.html" in proc.stdout + proc.stderr
