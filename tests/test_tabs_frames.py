"""frames, tabs, tab N / new / close, and popups getting page indices."""

from __future__ import annotations

import re


def _ref(text: str, pattern: str) -> str:
    return re.search(pattern + r".*?\[ref=(c\d+p\d+f\d+e\d+)\]", text).group(1)


def test_frames_lists_every_frame_with_parent(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    rows = driver.ok("frames").data["frames"]
    assert [r["index"] for r in rows] == list(range(6))
    assert rows[0]["parent"] is None and rows[0]["url"].endswith("/frames.html")
    leaf = next(r for r in rows if r["url"].endswith("frame-leaf.html"))
    cross = next(r for r in rows if r["url"].startswith(demo.b))
    assert leaf["parent"] == cross["index"] and cross["cross_origin"] and leaf["cross_origin"]
    # the same indices as the snapshot uses
    snap = driver.ok("snapshot").data
    assert [f["index"] for f in snap["frames"]] == [r["index"] for r in rows]


def test_popup_gets_next_page_index_and_its_own_refs(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    text = driver.ok("snapshot").data["text"]
    out = driver.ok("click " + _ref(text, 'button "Open popup"'))
    assert any("tab 1" in n for n in out.notes), out.notes
    tabs = driver.ok("tabs").data["tabs"]
    assert [(t["index"], t["current"]) for t in tabs] == [(0, True), (1, False)]
    assert tabs[1]["url"].endswith("popup.html")
    driver.ok("tab 1")
    popup = driver.ok("snapshot").data
    close_ref = _ref(popup["text"], 'button "Close popup"')
    assert close_ref.startswith("c0p1f0e")
    # a page-0 ref is refused on page 1, with the switch hint
    err = driver.fail("click c0p0f0e2", "page_mismatch")
    assert err.message == "Ref 'c0p0f0e2' is for page 0, but the current page is 1. Switch with 'tab 0'."
    # the popup closes itself: the tab disappears and page 0 becomes current again
    driver.ok("click " + close_ref)
    tabs = driver.ok("tabs").data["tabs"]
    assert [t["index"] for t in tabs] == [0] and tabs[0]["current"]


def test_tab_new_switch_close(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    data = driver.ok("tab new " + demo.url("shop.html")).data
    assert data["switched_to"] == 1
    assert driver.js("document.title") == "Demo Shop"
    text = driver.ok("snapshot").data["text"]
    assert "[ref=c0p1f0e1]" in text
    switched = driver.ok("tab 0").data
    assert driver.js("document.title") == "Verdex demo site"
    # the rows mark the tab now current (they marked the one switched from)
    assert switched["switched_to"] == 0
    assert [(t["index"], t["current"]) for t in switched["tabs"]] == [(0, True), (1, False)]
    driver.fail("tab 9999", "usage")  # (a browser tab of that number would be adopted: --connect)
    driver.fail("tab close x", "usage")
    driver.ok("tab close 1")
    assert [t["index"] for t in driver.ok("tabs").data["tabs"]] == [0]
    err = driver.fail("click c0p1f0e1", "page_mismatch")
    assert "has been closed" in err.message and "tab 1" not in err.message
    err = driver.fail("tab close 0", "usage")
    assert "last tab" in err.message
    # page indices are never reused (the shared test browser's other tabs, listed by 'tabs' as not
    # adopted, hold indices of their own)
    listed = driver.ok("tabs").data
    taken = {t["index"] for t in listed["tabs"] + listed.get("browser_tabs", [])} | {1}
    assert driver.ok("tab new").data["switched_to"] > max(taken)  # (other tabs may appear meanwhile)
