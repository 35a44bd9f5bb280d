"""click, dblclick and hover on an iframe element: the events land in the document its frame shows
(same-origin and out-of-process), the result says so only when that document really got them, and a
covered or blank frame is refused truthfully. Pages: fixtures/iframe_click on the two loopback origins."""

from __future__ import annotations

import json
import re

import pytest

from conftest import pages_site, ref_in, run_verdex

pads = pages_site("iframe_click")


def counts(driver, name: str) -> tuple[int, int, int]:
    """(clicks, double clicks, pointer entries) the pad in frame ``name`` counted, read back through a
    snapshot of its own document."""
    text = driver.ok("snapshot").data["text"]
    m = re.search(rf"status: {name}: clicks (\d+) dbl (\d+) over (\d+)", text)
    assert m, text
    return tuple(int(g) for g in m.groups())


def open_pads(driver, pads) -> dict[str, str]:
    driver.ok("open " + pads.url("outer.html"))
    text = driver.ok("snapshot").data["text"]
    return {k: ref_in(text, f'iframe "{k.capitalize()} pad"') for k in ("same", "cross", "blank")}


def frame_of(driver, needle: str) -> int:
    return next(r["index"] for r in driver.ok("frames").data["frames"] if needle in r["url"])


@pytest.mark.parametrize("which", ["same", "cross"])
def test_click_on_an_iframe_lands_in_its_document(driver, pads, which):
    refs = open_pads(driver, pads)
    frames = driver.ok("frames").data["frames"]
    fr = next(r for r in frames if f"n={which}" in r["url"])
    assert fr["cross_origin"] is (which == "cross")
    out = driver.ok(f"click {refs[which]}")
    assert out.data["inside"] == {"frame": fr["index"], "reached": '<button id="pad">'}
    assert any(f"landed inside frame f{fr['index']}'s document (not on the iframe element itself)" in n
               and '<button id="pad">' in n for n in out.notes), out.notes
    assert counts(driver, which) == (1, 0, 1)
    out = driver.ok(f"dblclick {refs[which]}")
    assert any("double click landed inside" in n for n in out.notes), out.notes
    assert counts(driver, which)[:2] == (3, 1)
    other = "cross" if which == "same" else "same"
    assert counts(driver, other) == (0, 0, 0)  # nothing reached the other frame


def test_hover_on_an_iframe_puts_the_pointer_in_its_document(driver, pads):
    refs = open_pads(driver, pads)
    out = driver.ok(f"hover {refs['cross']}")
    assert out.data["inside"]["reached"] == '<button id="pad">'
    assert counts(driver, "cross") == (0, 0, 1)
    out = driver.ok(f"hover {refs['same']}")
    assert any("The pointer is inside frame" in n for n in out.notes), out.notes
    assert counts(driver, "same") == (0, 0, 1)


def test_click_on_a_covered_iframe_is_refused_and_nothing_lands(quick, pads):
    refs = open_pads(quick, pads)
    quick.js("(() => { const c = document.createElement('div'); c.id = 'banner'; c.textContent = 'Cookies';"
             "c.style.cssText = 'position:fixed;inset:0;background:rgba(255,255,0,.6)';"
             "document.body.append(c); })()")
    for which in ("same", "cross"):
        out = quick.fail(f"click {refs[which]}", "not_actionable")
        assert 'covered by <div id="banner">' in out.message, out.message
    quick.js("document.getElementById('banner').remove()")
    assert counts(quick, "same") == (0, 0, 0) and counts(quick, "cross") == (0, 0, 0)


def test_click_on_a_blank_iframe_is_refused_before_anything_is_sent(driver, pads):
    refs = open_pads(driver, pads)
    for action in ("click", "dblclick", "hover"):
        out = driver.fail(f"{action} {refs['blank']}", "not_actionable")
        assert "shows an empty document (about:blank)" in out.message and "no mouse event was sent" in out.message


def test_click_on_a_nested_out_of_process_iframe(driver, demo):
    """The demo's nested frame: an iframe in a cross-origin frame, showing a third document."""
    driver.ok("open " + demo.url("frames.html"))
    ref = driver.ref('iframe "Nested frame"')
    leaf = frame_of(driver, "frame-leaf.html")
    out = driver.ok(f"click {ref}")
    assert out.data["inside"]["frame"] == leaf


def test_iframe_click_json_in_one_shot_mode(chrome_http, pads):
    proc = run_verdex("run", "--connect", chrome_http, pads.url("outer.html"), "snapshot", "click c0p0f0e1",
                      "click c0p0f0e3", "--json", "--keep-going")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    snap, click, blank = lines[-3:]
    assert 'iframe "Same pad" [frame=f1] [ref=c0p0f0e1]' in snap["result"]["text"]
    assert 'iframe "Blank pad" [frame=f3] [ref=c0p0f0e3]' in snap["result"]["text"]
    assert click["ok"] is True, click
    assert click["result"]["inside"] == {"frame": 1, "reached": '<button id="pad">'}
    assert click["result"]["notes"] == ["The click landed inside frame f1's document (not on the iframe element "
                                        'itself): the press reached <button id="pad"> there.']
    assert blank["ok"] is False and blank["error"]["kind"] == "not_actionable"
    assert "about:blank" in blank["error"]["message"]
