"""Frame owners remembered by the bridge: the next capture skips the DOM lookup of each frame, and a
replaced or moved frame is still found (real browser, demo frames page)."""

from __future__ import annotations

from verdex_cli.browser.cdp import Target
from verdex_cli.snapshot import take


def spy(monkeypatch) -> list[str]:
    """Every call a target makes, waited for at once (call) or later (start). The suite's check of each
    snapshot against a whole capture (conftest) is left out: its calls are not the snapshot's."""
    monkeypatch.setattr(take, "CHECK_PATCHES", False)
    calls: list[str] = []
    real, real_start = Target.call, Target.start

    def call(self, method, *a, **k):
        calls.append(method)
        return real(self, method, *a, **k)

    def start(self, method, *a, **k):
        calls.append(method)
        return real_start(self, method, *a, **k)

    monkeypatch.setattr(Target, "call", call)
    monkeypatch.setattr(Target, "start", start)
    return calls


def test_second_capture_skips_the_owner_lookups(driver, demo, monkeypatch):
    driver.ok("open " + demo.url("frames.html"))
    first = driver.ok("snapshot").data["text"]
    # a change on the body itself: the main frame is captured whole again (no patch)
    driver.js("document.body.classList.add('x'); document.querySelector('h1').textContent = 'Frames!'")
    calls = spy(monkeypatch)
    again = driver.ok("snapshot").data["text"]
    assert again == first.replace('heading "Frames"', 'heading "Frames!"')
    assert "DOM.describeNode" not in calls and "Page.getFrameTree" in calls  # (the one refresh of the tree)
    assert calls.count("Page.getFrameTree") == 1


def test_a_replaced_iframe_is_looked_up_again(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    before = driver.ok("snapshot").data
    driver.js("""(() => { const old = document.getElementById('same-frame');
        const f = document.createElement('iframe'); f.id = 'same-frame'; f.title = 'Same-origin frame';
        f.srcdoc = '<button>Brand new frame</button>'; old.replaceWith(f);
        return new Promise(r => f.onload = () => r(1)); })()""")
    after = driver.ok("snapshot").data
    assert "Brand new frame" in after["text"]
    assert "Frame button" in before["text"]
    new_ref = next(r for r, i in after["refs"].items() if i["name"] == "Brand new frame")
    driver.ok("click " + new_ref)


def test_the_same_element_moved_in_the_dom_gets_its_new_frame(driver, demo):
    """Re-inserting an iframe element makes a new browsing context: the remembered id is not used."""
    driver.ok("open " + demo.url("frames.html"))
    driver.ok("snapshot")
    driver.js("""(() => { const f = document.getElementById('cross-frame'); const parent = f.parentNode;
        parent.removeChild(f); parent.appendChild(f); return new Promise(r => f.onload = () => r(1)); })()""")
    text = driver.ok("snapshot").data["text"]
    assert "Frame button" in text and "could not be captured" not in text
