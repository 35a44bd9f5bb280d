"""Settling follows the work an action started, as apps do it (issue 30, findings 3 and 5), and the
snapshot cache never answers with a page that changed since: a timer that fetches a script whose body
the page never reads, a debounced search (a timer restarted on every keystroke, then a fetch, then a
render), a text that changes after its 100th character. Each check reads the page's own model (the
log its script keeps) and compares a plain `snapshot` with `snapshot --fresh`."""

from __future__ import annotations

import pytest

from conftest import ref_in
from verdex_cli.ui.render_changes import lines
from settle_server import SettleServer


@pytest.fixture(scope="module")
def site():
    srv = SettleServer()
    yield srv
    srv.stop()


def texts(changes: dict) -> list[str]:
    return [c.get("value") or c.get("name") for c in changes["changed"] + changes["added"]]


def plain_is_fresh(driver) -> str:
    """A plain snapshot's text, checked against a fresh capture of the same page."""
    plain = driver.ok("snapshot").data["text"]
    assert plain == driver.ok("snapshot --fresh").data["text"]
    return plain


def test_a_timer_that_fetches_a_script_it_never_reads_is_followed_and_the_cache_is_never_stale(driver, site):
    # the button's handler waits 300 ms, then fetches a script whose body comes slowly and is never
    # read: the page renders when the headers come, the request is still loading after
    driver.ok("open " + site.url("lazy.html"))
    button = ref_in(driver.ok("snapshot").data["text"], 'button "Load B"')
    out = driver.ok("click " + button)
    assert driver.js("window.log") == ["loaded"]
    assert "B loaded" in texts(out.data["changes"])
    driver.ok("wait 500")
    assert "B loaded" in plain_is_fresh(driver)


@pytest.mark.parametrize("delay", [150, 900])
def test_a_debounced_search_shows_its_results(driver, site, delay):
    # 300 ms of debounce, then the back end: 900 ms ends more than a second after the keystroke
    driver.ok("open " + site.url(f"search.html?delay={delay}"))
    box = ref_in(driver.ok("snapshot").data["text"], 'searchbox "Search people"')
    out = driver.ok("fill " + box + " ada")
    assert driver.js("window.log") == ["ada"]  # one render, for the whole text
    assert '2 results for "ada"' in texts(out.data["changes"])
    assert {"Ada Lovelace", "Adam Smith"} <= set(texts(out.data["changes"]))
    # typed key by key: each keystroke restarts the timer; the last one's results are shown
    out = driver.ok("type " + box + " m")
    assert driver.js("window.log") == ["ada", "adam"]
    assert '1 results for "adam"' in texts(out.data["changes"])
    assert "Adam Smith" in plain_is_fresh(driver)


def test_a_text_that_changes_after_its_100th_character_is_a_change(driver, site):
    driver.ok("open " + site.url("long.html"))
    snap = driver.ok("snapshot").data["text"]
    out = driver.ok("click " + ref_in(snap, 'button "Update terms"'))
    assert driver.js("window.state.version") == 2
    changed = out.data["changes"]["changed"]
    assert [c["role"] for c in changed] == ["paragraph"]
    assert changed[0]["value"].endswith("they take effect on 1 June.")
    assert changed[0]["was"]["value"].endswith("they take effect on 1 May.")
    assert out.data["changes"]["added"] == [] and out.data["changes"]["removed"] == []
    # the REPL's line shows where the texts differ
    assert [line for line, _ in lines(out.data["changes"]) if "June" in line] == [
        '~ paragraph: "... of delivery, and they take effect on 1 May." -> "... of delivery, and they take effect on 1 June."']
    # again: the page patches the frame's last render (only the lines that changed cross)
    out = driver.ok("click " + ref_in(snap, 'button "Update terms"'))
    assert driver.js("window.state.version") == 3
    changed = out.data["changes"]["changed"]
    assert [(c["was"]["value"][-7:], c["value"][-7:]) for c in changed] == [("1 June.", "1 July.")]
    assert "1 July" not in plain_is_fresh(driver)  # (the snapshot text itself is cut at 100 characters)


def test_work_that_outlasts_the_bound_is_named_in_the_notes(driver, site):
    # the back end answers after 8 s: the wait ends at its bound (2 s) and says so (8 s: the page has not
    # logged its answer when the fill returns, also on a loaded machine)
    driver.ok("open " + site.url("search.html?delay=8000"))
    box = ref_in(driver.ok("snapshot").data["text"], 'searchbox "Search people"')
    out = driver.ok("fill " + box + " ada")
    assert driver.js("window.log") == []
    assert "The page was still changing after 2 s; the changes are as of then." in out.notes


def test_a_custom_element_upgraded_after_the_snapshot_is_captured_anew(driver, site):
    # no mutation says a shadow root was attached to an element already in the page
    driver.ok("open " + site.url("upgrade.html"))
    assert "Loading card" in driver.ok("snapshot").data["text"]
    driver.js("window.loadComponents()")  # the lazy chunk arrives (the page's own work, no command)
    driver.ok("wait 300")
    assert driver.js("window.log") == ["upgraded 7"]
    assert 'button "Message Zoe"' in plain_is_fresh(driver)
