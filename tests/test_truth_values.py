"""Action results tell the truth about values: fields are read back after the page settled, and the
click guard stops only stray trusted input, never the page's own script-made clicks.

Each page keeps its own log (window.__log, a plain page script in the main world) of what its
handlers did; the tests compare verdex's results with it and with the fields' real state.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from conftest import ref_of, until
from verdex_cli.act.fields import MASK

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "truth"
VALUES = (FIXTURES / "values.html").as_uri()
SCRIPTED = (FIXTURES / "scripted.html").as_uri()


def log(driver) -> list:
    return driver.js("window.__log")


def value(driver, element_id: str):
    return driver.js(f"document.getElementById({json.dumps(element_id)}).value")


@pytest.fixture(params=[True, False], ids=["changes", "no-changes"])
def values(request, driver):
    driver.ctx.show_changes = request.param
    driver.ok("open " + VALUES)
    return driver, driver.ok("snapshot")


# -- fill / type: the value the field holds once the page settled -------------------------------------

def test_plain_field_has_no_note(values):
    driver, snap = values
    out = driver.ok(f"fill {ref_of(snap, 'Plain')} hello")
    assert out.data["value"] == "hello" == value(driver, "plain")
    assert not [n for n in out.notes if "value" in n]


@pytest.mark.parametrize("verb", ["fill", "type"])
def test_digits_filter_in_the_input_handler(values, verb):
    driver, snap = values
    out = driver.ok(f"{verb} {ref_of(snap, 'Digits')} 12ab")
    assert value(driver, "digits") == "12" and log(driver)[-1] == ["digits", "12"]
    assert out.data["value"] == "12"
    assert 'The page changed the value to "12".' in out.notes


@pytest.mark.parametrize("label, field, text, final", [
    ("Cleared later", "cleared", "keep me", ""),  # cleared by a timer later
    ("Formatted", "formatted", "1234567", "1,234,567"),  # reformatted in an animation frame
    ("Day", "day", "2024-05-31", "2024-01-01"),  # a picker's value changed by the page
])
def test_value_the_page_changed_after_the_fill_is_reported(values, label, field, text, final):
    driver, snap = values
    out = driver.ok(f"fill {ref_of(snap, label)} {text}")
    assert [field, final] in log(driver) and value(driver, field) == final
    assert out.data["value"] == final
    assert f'The page changed the value to "{final}".' in out.notes


def test_password_changed_by_the_page_is_never_echoed(values):
    driver, snap = values
    out = driver.run(f"fill {ref_of(snap, 'Secret')} hunter2")
    assert out.ok and ["secret"] in log(driver)
    assert value(driver, "secret") == "rewritten-by-page"
    assert out.result.data["value"] == MASK and out.result.data["masked"] is True
    assert f'The page changed the value to "{MASK}".' in out.result.notes
    raw = json.dumps(out.as_json())
    assert "rewritten" not in raw and "hunter2" not in raw and "•" * len("rewritten-by-page") not in raw


# -- select / check / uncheck: a state the page undid is not_applied --------------------------------------

@pytest.mark.parametrize("label, field, pick, logged, was", [
    ("Currency", "currency", "USD", ["currency", "USD"], "EUR"),  # reverted in onchange
    ("Region", "region", "West", ["region reverted"], "North"),  # reverted by a timer
])
def test_select_reverted_by_the_page(values, label, field, pick, logged, was):
    driver, snap = values
    out = driver.fail(f"select {ref_of(snap, label)} {pick}", "not_applied")
    assert logged in log(driver) and value(driver, field) == was
    assert out.message.endswith(f': the page changed the selection back to "{was}".'), out.message


@pytest.mark.parametrize("verb, label, field, state, undone", [
    ("check", "Newsletter", "newsletter", False, "is unchecked: the page undid the check."),
    ("uncheck", "Terms", "terms", True, "is checked: the page undid the uncheck."),
])
def test_check_undone_by_a_timer(values, verb, label, field, state, undone):
    driver, snap = values
    out = driver.fail(f"{verb} {ref_of(snap, label)}", "not_applied")
    assert log(driver)[:2] == [[field, not state], [f"{field} undone"]]
    assert driver.js(f"document.getElementById('{field}').checked") is state
    assert out.message.endswith(undone), out.message


def test_read_back_is_of_the_refs_own_element_in_a_shadow_root_and_a_frame(driver):
    """The same digits filter on a field inside an open shadow root, inside an iframe."""
    driver.ok("open " + VALUES)
    driver.js("""(() => {
      const f = document.createElement('iframe');
      f.srcdoc = '<div id=host></div><label>Digits <input id=digits></label>';
      document.body.append(f);
      return new Promise(r => f.onload = () => {
        const d = f.contentDocument;
        const root = d.getElementById('host').attachShadow({mode: 'open'});
        root.innerHTML = '<label>Inner digits <input id=inner></label>';
        root.getElementById('inner').addEventListener('input', function () {
          setTimeout(() => { this.value = this.value.replace(/\\D/g, ''); }, 20); });
        r(true);
      });
    })()""")
    snap = driver.ok("snapshot")
    ref = ref_of(snap, "Inner digits")
    assert re.fullmatch(r"c\d+p\d+f[1-9]\d*e\d+", ref), ref  # the field is in the child frame
    out = driver.ok(f"fill {ref} 9x8y7")
    inner = "document.querySelector('iframe').contentDocument.getElementById('host').shadowRoot"
    assert driver.js(inner + ".getElementById('inner').value") == "987"
    assert out.data["value"] == "987" and 'The page changed the value to "987".' in out.notes
    # the main page's own Digits field, with the same label, was not touched
    assert value(driver, "digits") == ""


# -- the click guard stops only stray trusted input -----------------------------------------------------

@pytest.fixture
def scripted(driver):
    driver.ok("open " + SCRIPTED)
    return driver, driver.ok("snapshot")


def test_a_handler_that_clicks_another_button(scripted):
    driver, snap = scripted
    out = driver.ok(f"click {ref_of(snap, 'Proxy')}")
    assert out.data["action"] == "click"
    assert log(driver) == [["proxy", True], ["other", False]]


def test_a_styled_button_that_opens_a_hidden_file_input(scripted):
    driver, snap = scripted
    driver.ok(f"click {ref_of(snap, 'Choose a file')}")
    got = until(lambda: len(log(driver)) >= 3 and log(driver))
    assert got == [["choose", True], ["file", False], ["file default prevented", False]]


def test_a_handler_that_clicks_a_download_link(scripted):
    driver, snap = scripted
    out = driver.ok(f"click {ref_of(snap, 'Save')}")
    got = until(lambda: len(log(driver)) >= 3 and log(driver))
    assert got == [["save", True], ["link", False], ["link default prevented", False]]
    downloads = out.data.get("downloads") or driver.ok("snapshot").data.get("downloads") or []
    assert downloads and downloads[0]["name"] == "hello.txt", out.data


def test_a_stray_trusted_click_on_another_element_is_still_stopped(scripted):
    driver, snap = scripted
    out = driver.fail(f"click {ref_of(snap, 'Jumpy')}", "not_applied")
    # the press did reach it (its handler ran): said so, and that the rest was stopped
    assert "got the press (pointerdown, mousedown)" in out.message and "cover" in out.message, out.message
    assert log(driver) == [["jumpy down", True]]  # neither the cover nor the button got the rest


def test_a_double_click_on_a_button_its_first_click_replaces(scripted):
    driver, snap = scripted
    out = driver.fail(f"dblclick {ref_of(snap, 'Swap')}", "not_applied")
    assert "was clicked once" in out.message, out.message
    assert log(driver) == [["swap", True]]  # the new button got nothing: the second click was stopped


def test_a_page_that_never_settles_is_read_when_the_time_runs_out(quick):
    """A page that changes its text every few milliseconds: the read-back waits --timeout (1.5 s here)
    at most and says the value is as of then."""
    quick.ok("open " + VALUES)
    snap = quick.ok("snapshot")
    quick.js("window.__tick = setInterval(() => { document.querySelector('h1').textContent = 'Tick ' + "
             "performance.now(); }, 10), true")
    # a page that keeps changing by itself is known as one after a few of its changes (BUSY_BEATS in the
    # last second, act.js): a ticker started a moment before the input may not have shown that yet
    time.sleep(0.2)
    try:
        out = quick.run(f"fill {ref_of(snap, 'Plain')} steady")
        assert out.ok, out.message
        assert out.result.data["value"] == "steady" == value(quick, "plain")
        assert "The page was still changing after 1.5 s; the value is as of then." in out.result.notes
    finally:
        quick.js("clearInterval(window.__tick), true")


def test_a_double_click_whose_first_click_navigates_sends_no_second_click(driver):
    """The first click of a dblclick on a link navigates; the new page has a link in the same place.
    The second click is not sent (it would land on the new page's link) and the result says so."""
    driver.ok("open " + (FIXTURES / "dbl_a.html").as_uri())
    snap = driver.ok("snapshot")
    out = driver.fail(f"dblclick {ref_of(snap, 'Deals')}", "not_applied")
    assert "clicked once" in out.message and "second click was not sent" in out.message, out.message
    assert until(lambda: driver.js("document.title") == "Deals B")
    assert driver.js("window.__clicks") == 0


def test_a_double_click_whose_first_click_was_stopped_does_not_say_it_clicked(driver):
    """In a frame, the button covers itself on the press: the release and the click would reach the
    cover and are stopped, and the button is no longer under the pointer, so the second click is not
    sent. The result says the button got the press only (it said 'was clicked once' before, from no
    evidence), and the button's click handler never ran."""
    driver.ok("open " + (FIXTURES / "dbl_cover.html").as_uri())
    snap = driver.ok("snapshot")
    out = driver.run(f"dblclick {ref_of(snap, 'Hide me')}")
    assert not out.ok and "clicked once" not in out.message, out.message
    assert "got the press" in out.message and "cover" in out.message, out.message
    assert driver.js("document.getElementById('inner').contentWindow.clicks") == 0
