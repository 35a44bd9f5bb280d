"""A page that stays busy (a handler that never returns) and `--timeout`: every protocol call of a
launched or connected browser is bounded by it; the command that timed out stops the script that
kept the page (or one of its frames) busy and says so in words; the next command answers at once.

Page: fixtures/busy (a render-function app whose click handler or input handler loops, and a
cross-origin panel whose button loops), judged by the page's own log and timers."""

from __future__ import annotations

import json
import re

import pytest

from conftest import Driver, pages_site, run_verdex

BUSY = "The page was busy for 2 s (a script that did not return); it was stopped."
METHOD_NAME = re.compile(r"\b[A-Z][a-zA-Z]+\.[a-z][a-zA-Z]+\b")  # Input.dispatchMouseEvent and the like
TICKING = "new Promise(r => { const t = window.ticks; setTimeout(() => r(window.ticks > t), 200); })"


site = pages_site("busy")


@pytest.fixture
def busy_driver(chrome_http, site):
    d = Driver(chrome_http, timeout=2)
    d.ok("open " + site.url("app.html"))
    yield d
    d.close()


def value(driver, js: str):
    return driver.ok("eval " + js).data["value"]


def check_stopped(out) -> None:
    assert not out.ok and out.kind == "timeout", (out.kind, out.message)
    assert out.message == BUSY and not METHOD_NAME.search(out.message)


def test_a_launched_browser_obeys_timeout_and_a_frozen_click_is_stopped(site):
    proc = run_verdex("run", "--timeout", "2", "--keep-going", "--json", site.url("app.html"),
                      "click button:Freeze", "eval window.log", "eval " + TICKING)
    first, log, ticking = [json.loads(line) for line in proc.stdout.splitlines()]
    assert first["error"] == {"kind": "timeout", "message": BUSY}, first
    assert first["elapsed_ms"] < 15000  # the pipe's calls kept the launch's 20 s
    assert log["result"]["value"] == ["loop:click"]  # the handler ran, and never finished
    assert ticking["result"]["value"] is True  # the page's own timers run again: the loop was stopped


def test_an_eval_that_never_returns_is_stopped(busy_driver):
    check_stopped(busy_driver.run("eval while (true) {}"))
    assert value(busy_driver, TICKING) is True


def test_a_promise_that_never_settles_is_not_called_busy(busy_driver):
    out = busy_driver.fail("eval await new Promise(() => {})", "timeout")
    assert out.message == "The script's promise did not settle within 2 s."
    assert value(busy_driver, "1 + 1") == 2


def test_fill_into_a_field_whose_input_handler_loops(busy_driver):
    check_stopped(busy_driver.run("fill textbox:Query abcd"))
    assert value(busy_driver, "window.log") == ["loop:input"]  # the handler ran with the text, never finished
    assert value(busy_driver, TICKING) is True


def test_a_busy_cross_origin_frame_is_stopped(busy_driver):
    check_stopped(busy_driver.run('click "button:Spin panel"'))
    before = panel_status(busy_driver)  # the panel's document answers again
    busy_driver.ok("wait 300")
    after = panel_status(busy_driver)
    assert before[0] == after[0] == "loop:panel" and after[1] > before[1]  # its clock runs again


def panel_status(driver) -> tuple[str, int]:
    text = driver.ok("snapshot --fresh").data["text"]
    log, ticks = re.search(r"Log: ([^;]*); ticks (\d+)", text).groups()
    return log, int(ticks)
