"""A click on a main-document element while a child frame sweeps over it and away again (a page timer
moves the frame every few ms): a click checked while the element is free may meet the frame when the
input arrives. The events must then reach nothing: the frame's document is guarded for the click too,
so its button is never clicked, and the result says the target was not clicked; when the target did
get the click, the result says ok and the page counted it. Same-origin and cross-site (out-of-process)
frames."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote

import pytest

from verdex_cli.app.demo_server import serve

from conftest import ref_in, until

ROOT = Path(__file__).parent / "fixtures" / "frames"
CLICKS = 16


@pytest.fixture(scope="module")
def origins():
    server = serve(ROOT)
    yield {"same": server.a, "cross": server.b, "top": server.a}
    server.stop()


@pytest.mark.parametrize("kind", ["same", "cross"])
def test_a_frame_sweeping_over_the_target_never_gets_its_click(driver, origins, kind):
    catcher = quote(origins[kind] + "/catcher.html")
    driver.ok(f"open {origins['top']}/sweep.html?frame={catcher}")
    assert until(lambda: 'iframe "Sweeper"' in driver.ok("snapshot").data["text"], 10)
    ref = ref_in(driver.ok("snapshot").data["text"], 'button "Target"')
    _clicks(driver, ref)


@pytest.mark.parametrize("kind", ["same", "cross"])
def test_a_frame_put_in_after_the_snapshot_never_gets_the_click(driver, origins, kind):
    """The frame was never captured (no verdex engine in it): its document is guarded all the same."""
    catcher = quote(origins[kind] + "/catcher.html")
    driver.ok(f"open {origins['top']}/sweep.html?late=600&frame={catcher}")
    text = driver.ok("snapshot").data["text"]
    assert 'iframe "Sweeper"' not in text
    ref = ref_in(text, 'button "Target"')
    assert until(lambda: driver.js("!!document.getElementById('sweeper')"), 10)
    time.sleep(1.0)  # its document loaded
    _clicks(driver, ref)


@pytest.mark.parametrize("kind", ["same", "cross"])
def test_a_double_click_says_what_its_first_click_did(driver, origins, kind):
    """When the frame comes between the two clicks of a double click, the second is not sent; the result
    says the target was clicked once only when its own handler counted that click (it said so whatever
    the first click reached, before)."""
    catcher = quote(origins[kind] + "/catcher.html")
    driver.ok(f"open {origins['top']}/sweep.html?frame={catcher}")
    assert until(lambda: 'iframe "Sweeper"' in driver.ok("snapshot").data["text"], 10)
    ref = ref_in(driver.ok("snapshot").data["text"], 'button "Target"')
    said_ok = once = refused = 0
    for _ in range(CLICKS):
        out = driver.run(f"dblclick {ref}")
        if out.ok:
            said_ok += 1
        elif "was clicked once" in out.message:
            once += 1
        else:
            assert out.kind in ("not_actionable", "not_applied"), (out.kind, out.message)
            refused += 1
    time.sleep(0.3)  # the frame's reports (postMessage) arrive
    assert driver.js("window.caught.length") == 0
    hits = driver.js("window.hits")
    assert hits == 2 * said_ok + once, (hits, said_ok, once, refused)


def _clicks(driver, ref: str) -> None:
    said_ok = refused = 0
    for _ in range(CLICKS):
        out = driver.run(f"click {ref}")
        if out.ok:
            said_ok += 1
        else:
            assert out.kind in ("not_actionable", "not_applied"), (out.kind, out.message)
            refused += 1
    time.sleep(0.3)  # the frame's reports (postMessage) arrive
    caught = driver.js("window.caught.length")
    hits = driver.js("window.hits")
    assert caught == 0, f"the frame's button was clicked {caught} times ({said_ok} ok, {refused} refused)"
    assert hits == said_ok, (hits, said_ok, refused)
