"""Every command reports the tabs it opened or closed (fill, select, eval, ...), in its notes."""

from __future__ import annotations

import re

from conftest import pages_site, until

OPENER = """<!DOCTYPE html><title>Opener</title>
<label>Name <input id="name"></label>
<label>Go to <select id="where"><option value="">-</option><option value="popup">Popup</option></select></label>
<script>
  document.getElementById('name').addEventListener('input', function () {
    if (!window.opened) { window.opened = window.open('about:blank#from-input', '_blank'); }
  });
  document.getElementById('where').addEventListener('change', function () {
    window.open('about:blank#from-select', '_blank');
  });
</script>"""


def _ref(text: str, pattern: str) -> str:
    return re.search(pattern + r".*?\[ref=(c\d+p\d+f\d+e\d+)\]", text).group(1)


def _opener(driver, tmp_path):
    page = tmp_path / "opener.html"
    page.write_text(OPENER)
    driver.ok(f"open {page}")
    return driver.ok("snapshot").data["text"]


def _new_tab_notes(result):
    return [n for n in result.notes if n.startswith("A new tab opened")]


def test_fill_that_opens_a_tab_says_so(driver, tmp_path):
    text = _opener(driver, tmp_path)
    res = driver.ok("fill " + _ref(text, 'textbox "Name"') + " Ada")
    assert _new_tab_notes(res) == ["A new tab opened: tab 1 (about:blank#from-input). Switch with 'tab 1'."]
    assert [t["index"] for t in driver.ok("tabs").data["tabs"]] == [0, 1]


def test_select_that_opens_a_tab_says_so(driver, tmp_path):
    text = _opener(driver, tmp_path)
    res = driver.ok("select " + _ref(text, 'combobox "Go to"') + " Popup")
    assert _new_tab_notes(res) == ["A new tab opened: tab 1 (about:blank#from-select). Switch with 'tab 1'."]


def test_eval_that_opens_a_tab_says_so_and_a_later_command_does_not_repeat_it(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    res = driver.ok(f"eval window.open('{demo.url('shop.html')}'); 1")
    assert res.data["value"] == 1
    assert _new_tab_notes(res) == [f"A new tab opened: tab 1 ({demo.url('shop.html')}). Switch with 'tab 1'."]
    assert not _new_tab_notes(driver.ok("eval 2"))
    # the user's own 'tab new' is not announced as a page-opened tab
    assert not _new_tab_notes(driver.ok("tab new"))


def test_current_tab_closing_itself_names_the_tab_now_current(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    driver.ok(f"eval window.open('{demo.url('popup.html')}'); 0")
    driver.ok("tab 1")
    notes = driver.ok("eval setTimeout(() => window.close(), 0); 'closing'").notes
    # closing takes a moment: the next command tells
    notes = notes or until(lambda: driver.ok("eval 0").notes, 3)
    assert notes == ["Tab 1 closed itself; tab 0 is now current."]
    tabs = driver.ok("tabs").data["tabs"]
    assert [(t["index"], t["current"]) for t in tabs] == [(0, True)]


def test_an_answer_that_comes_with_its_tab_closing_is_kept(driver, demo, monkeypatch):
    """The eval's answer and the end of its tab's session arrive before verdex waits for the answer
    (a loaded machine: the command's thread is descheduled right after sending): the answer counts."""
    driver.ok("open " + demo.url("dialogs.html"))
    driver.ok(f"eval window.open('{demo.url('popup.html')}'); 0")
    driver.ok("tab 1")
    conn = driver.ctx.page.target.conn
    send = conn.send_raw

    def descheduled(payload: str) -> None:
        send(payload)
        if "window.close" in payload:
            conn.stopped.wait(1.0)  # (never set: the browser stays) the answer and the detach arrive now

    monkeypatch.setattr(conn, "send_raw", descheduled)
    res = driver.ok("eval setTimeout(() => window.close(), 0); 'closing'")
    assert res.data["value"] == "closing"
    assert res.notes == ["Tab 1 closed itself; tab 0 is now current."]


def test_background_tab_closing_itself(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    driver.ok(f"eval window.w = window.open('{demo.url('popup.html')}'); 0")
    notes = driver.ok("eval window.w.close(); 0").notes
    notes = notes or until(lambda: driver.ok("eval 0").notes, 3)
    assert notes == ["Tab 1 closed itself."]


def test_click_note_comes_once(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    text = driver.ok("snapshot").data["text"]
    res = driver.ok("click " + _ref(text, 'link "Open in new tab"'))
    assert len(_new_tab_notes(res)) == 1 and "popup.html" in _new_tab_notes(res)[0]


nav_site = pages_site("nav")


def test_a_popup_that_closes_itself_at_once_is_reported_with_the_openers_changes(driver, nav_site):
    driver.ok("open " + nav_site.url("checkout.html"))
    driver.ok("snapshot")
    res = driver.ok('click "button:Pay with provider"')  # its window calls window.close() in its own script
    assert f"A popup opened ({nav_site.url('provider.html')}) and closed itself at once." in res.notes
    changed = [c for c in res.data["changes"]["added"] + res.data["changes"]["changed"]
               if "Payment window opened" in str(c)]
    assert changed, res.data["changes"]  # the opener's own change, captured as usual
    assert driver.ok("eval window.log").data["value"] == ["pay"]
    assert [t["index"] for t in driver.ok("tabs").data["tabs"]] == [0]
