"""Every row of the ref-resolution error table, through the real commands and a real browser.

Kinds and message shapes are contract (the README, "Errors" and "How refs work"). Every failing
action is also checked for having had no effect on the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Driver, click_reaches, clicks, open_checkout, ref_of, refs_named

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "refs"
ACTIONABLE = (FIXTURES / "actionable.html").as_uri()
INVALID = "Invalid ref '{}'. Expected c{{context}}p{{page}}f{{frame}}e{{n}}, e.g. c0p0f0e3."
MINOR_NOTE = "Element may have changed. Using current state."
REF_COMMANDS = ["click {}", "dblclick {}", "hover {}", "type {} abc", "fill {} abc", "select {} x",
                "check {}", "uncheck {}", "focus {}", "scroll {}"]


@pytest.fixture
def quick(chrome_http):
    """A driver whose action timeout is short, for not_actionable cases."""
    d = Driver(chrome_http, timeout=1)
    yield d
    d.close()


def refused(driver, ref: str, kind: str):
    """Clicks ``ref``: it fails with ``kind``, and the mutations page logs no click."""
    out = driver.fail(f"click {ref}", kind)
    assert clicks(driver) == []
    return out


def changed(mutations, name: str, change: str) -> tuple:
    """(the driver, the ref of button ``name`` as the first snapshot showed it) once ``change`` (script,
    window.demo's calls) has run in the page."""
    driver, snap = mutations
    ref = ref_of(snap, name)
    driver.js(change)
    return driver, ref


# -- invalid_ref --------------------------------------------------------------------------------------

def test_invalid_ref_every_command(mutations):
    driver, _ = mutations
    for template in REF_COMMANDS + ["inspect {}"]:
        for bad in ["x", "c0p0f0e0", "c0p0f0", "e3", "C0P0F0E1", "c0p0f0e3x"]:
            line = template.format(bad)
            if template == "scroll {}" and not bad.startswith("c"):
                # scroll also takes up/down: a word that does not even look like a ref is a usage error there
                out = driver.fail(line, "usage")
                assert out.message == "Usage: scroll REF | scroll up|down"
                continue
            out = driver.fail(line, "invalid_ref")
            assert out.message == INVALID.format(bad), line
    assert clicks(driver) == []


def test_invalid_ref_json(mutations):
    driver, _ = mutations
    out = driver.fail("click x", "invalid_ref")
    js = out.as_json()
    assert js["ok"] is False and js["command"] == "click x"
    assert js["error"] == {"kind": "invalid_ref", "message": INVALID.format("x")}
    assert isinstance(js["elapsed_ms"], (int, float))
    json.dumps(js)  # serialisable


# -- context / page mismatch --------------------------------------------------------------------------

def test_page_mismatch_exact_message(mutations):
    driver, _ = mutations
    driver.ok("tab new")
    driver.ok("tab 0")
    out = driver.fail("click c0p1f0e5", "page_mismatch")
    assert out.message == "Ref 'c0p1f0e5' is for page 1, but the current page is 0. Switch with 'tab 1'."
    assert out.as_json()["error"]["kind"] == "page_mismatch"
    assert clicks(driver) == []


def test_context_mismatch(mutations):
    driver, _ = mutations
    out = driver.fail("click c1p0f0e2", "context_mismatch")
    assert "'c1p0f0e2'" in out.message
    assert "context 1" in out.message and "current context is 0" in out.message
    assert out.as_json()["error"]["kind"] == "context_mismatch"
    assert clicks(driver) == []


def test_scope_is_checked_before_existence_and_format_before_scope(mutations):
    driver, _ = mutations
    driver.fail("click c0p3f0e999", "page_mismatch")        # would be unknown_ref on page 0
    driver.fail("click c2p3f0e1", "context_mismatch")       # context before page
    driver.fail("click c2p3f0e0", "invalid_ref")            # format before everything
    driver.fail("inspect c0p7f0e2", "page_mismatch")


# -- unknown_ref --------------------------------------------------------------------------------------

def test_unknown_ref_exact_message(mutations):
    driver, _ = mutations
    out = driver.fail("click c0p0f0e99", "unknown_ref")
    high = max(int(r.rsplit("e", 1)[1]) for r in driver.ctx.page_state().store.records)
    assert out.message == f"Ref 'c0p0f0e99' was never issued in this tab (the highest is c0p0f0e{high}). Get refs with 'snapshot' or 'find'."
    out = driver.fail("click c0p0f7e1", "unknown_ref")  # a frame index never seen
    assert out.message == (f"Ref 'c0p0f7e1' was never issued in this tab (none in frame f7; the highest is "
                           f"c0p0f0e{high}). Get refs with 'snapshot' or 'find'.")
    assert out.as_json()["error"] == {"kind": "unknown_ref", "message": out.message}
    assert clicks(driver) == []


def test_unknown_ref_before_any_snapshot(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    out = driver.fail("click c0p0f0e2", "unknown_ref")
    assert out.message == "Ref 'c0p0f0e2' was never issued in this tab (none yet). Get refs with 'snapshot' or 'find'."
    assert clicks(driver) == []


def test_unknown_ref_after_reset(mutations):
    driver, snap = mutations
    b1 = ref_of(snap, "Button 1")
    driver.ok("reset-refs")
    out = refused(driver, b1, "unknown_ref")
    assert out.message == f"Ref '{b1}' was dropped by 'reset-refs' (command 3). Take a new snapshot."


# -- navigated ----------------------------------------------------------------------------------------

def test_navigated_ref_is_never_given_to_the_new_page(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    snap = driver.ok("snapshot")
    assert snap.data["refs"]["c0p0f0e4"]["name"] == "Button 3"
    top = max(int(r.rsplit("e", 1)[1]) for r in snap.data["refs"])
    shop = demo.url("shop.html")
    driver.ok("open " + shop)
    out = driver.fail("click c0p0f0e4", "navigated")
    assert out.message == (f"Ref 'c0p0f0e4' is from a previous page (issued in snapshot #1 at "
                           f"{demo.url('mutations.html')}; 'open {shop}' (command 3) navigated to {shop}). "
                           "Take a new snapshot.")
    assert out.as_json()["error"]["kind"] == "navigated"
    assert driver.js("document.getElementById('cart').textContent").count("×") == 0  # nothing clicked

    snap = driver.ok("snapshot")  # the new page numbers on: the old string names nothing new
    assert "c0p0f0e4" not in snap.data["refs"]
    assert min(int(r.rsplit("e", 1)[1]) for r in snap.data["refs"]) == top + 1
    out = driver.fail("click c0p0f0e4", "navigated")
    assert out.message == (f"Ref 'c0p0f0e4' is from a previous page (issued in snapshot #1 at "
                           f"{demo.url('mutations.html')}; 'open {shop}' (command 3) navigated to {shop}). "
                           "Take a new snapshot.")
    assert driver.js("document.getElementById('cart').textContent").count("×") == 0
    lamp = refs_named(snap, "Add to cart")[2]
    driver.ok(f"click {lamp}")
    assert driver.js("document.getElementById('add-lamp').textContent") == "Added"


def test_navigated_after_reload(mutations):
    driver, snap = mutations
    b1 = ref_of(snap, "Button 1")
    url = driver.js("location.href")
    driver.ok("reload")
    out = refused(driver, b1, "navigated")
    assert out.message == (f"Ref '{b1}' is from a previous page (issued in snapshot #1 at {url}; the page was "
                           "reloaded by 'reload' (command 3)). Take a new snapshot.")
    driver.ok("snapshot")  # and after a snapshot of the reloaded page too
    out = refused(driver, b1, "navigated")
    assert out.message == (f"Ref '{b1}' is from a previous page (issued in snapshot #1 at {url}; the page was "
                           "reloaded by 'reload' (command 3)). Take a new snapshot.")


def test_navigated_precedes_unknown_for_issued_refs_only(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    driver.ok("snapshot")
    driver.ok("open " + demo.url("shop.html"))
    driver.fail("click c0p0f0e99", "unknown_ref")  # never issued: unknown, not navigated
    driver.fail("click c0p0f0e2", "navigated")


# -- removed ------------------------------------------------------------------------------------------

def test_removed_exact_message(driver, demo):
    driver.ok("open " + demo.url("form.html"))
    snap = driver.ok("snapshot")
    submit = ref_of(snap, "Submit", "button")
    driver.js("window.__submits = 0; document.getElementById('demo-form')"
              ".addEventListener('submit', () => window.__submits++, true)")
    driver.js("document.getElementById('submit').remove()")
    out = driver.fail(f"click {submit}", "removed")
    assert out.message == f'Element button "Submit" (ref {submit}) no longer exists. Take a new snapshot.'
    assert out.as_json()["error"]["kind"] == "removed"
    assert driver.js("window.__submits") == 0


def test_removed_every_command(mutations):
    driver, b2 = changed(mutations, "Button 2", "demo.remove('b2')")
    for template in REF_COMMANDS:
        out = driver.fail(template.format(b2), "removed")
        assert out.message == f'Element button "Button 2" (ref {b2}) no longer exists. Take a new snapshot.'
    assert clicks(driver) == []


def test_removed_even_if_a_twin_takes_its_place(mutations):
    """A re-rendered twin (same text, same position) is not the ref's element."""
    driver, b3 = changed(mutations, "Button 3", "demo.rerender()")
    refused(driver, b3, "removed")


# -- changed ------------------------------------------------------------------------------------------

def test_changed_role(mutations):
    driver, b2 = changed(mutations, "Button 2", "demo.setRole('b2', 'link')")
    out = refused(driver, b2, "changed")
    assert out.message == ('Element changed since you saw it: its role changed from button to link. '
                           'Was: button "Button 2"; now link "Button 2". Take a new snapshot.')
    driver.js("demo.setRole('b2', 'checkbox')")
    driver.fail(f"hover {b2}", "changed")
    driver.fail(f"focus {b2}", "changed")


@pytest.mark.parametrize("new_name", ["button 1", "BUTTON 1", "Button 1 (updated)", "Button", "Button-1!"])
def test_minor_rename_proceeds_with_note(mutations, new_name):
    driver, b1 = changed(mutations, "Button 1", f"demo.rename('b1', {json.dumps(new_name)})")
    out = driver.run(f"click {b1}")
    assert out.ok, out.message
    assert MINOR_NOTE in out.result.notes
    assert MINOR_NOTE in out.as_json()["result"]["notes"]
    assert clicks(driver) == ["b1"]


@pytest.mark.parametrize("new_name", ["Zebra", "utton 1", "Button 12", "Button 2", "Buttons 1"])
def test_a_significant_rename_is_changed_until_shown_again(mutations, new_name):
    driver, b1 = changed(mutations, "Button 1", f"demo.rename('b1', {json.dumps(new_name)})")
    out = refused(driver, b1, "changed")
    assert out.message == (f'Element changed since you saw it: its name changed from "Button 1" to "{new_name}". '
                           f'Was: button "Button 1"; now button "{new_name}". Take a new snapshot.')
    assert out.as_json()["error"]["kind"] == "changed"
    # after a new snapshot the ref (same element) works again
    assert driver.ok("snapshot").data["refs"][b1]["name"] == new_name
    click_reaches(driver, b1, "b1")


def test_unchanged_click_has_no_note(mutations):
    driver, snap = mutations
    out = driver.run(f"click {ref_of(snap, 'Button 4')}")
    assert out.ok
    assert MINOR_NOTE not in out.result.notes
    assert clicks(driver) == ["b4"]


# -- not_actionable ------------------------------------------------------------------------------------

@pytest.fixture
def actionable(quick):
    quick.ok("open " + ACTIONABLE)
    snap = quick.ok("snapshot")
    return quick, snap


def hits(driver):
    return driver.js("window.hits.slice()")


def test_not_actionable_hidden(actionable):
    d, snap = actionable
    ref = ref_of(snap, "Vanish")
    d.js("document.getElementById('vanish').style.display = 'none'")
    out = d.fail(f"click {ref}", "not_actionable")
    assert out.message == f'Element button "Vanish" ({ref}) is not actionable after 1.0 s: it is hidden.'
    assert out.as_json()["error"]["kind"] == "not_actionable"
    d.js("document.getElementById('vanish').style.display = ''; "
         "document.getElementById('vanish').style.visibility = 'hidden'")
    out = d.fail(f"click {ref}", "not_actionable")
    assert "hidden" in out.message
    assert hits(d) == []


@pytest.mark.parametrize("name, setup, message", [
    ("Disabled", "", 'Element button "Disabled" ({ref}) is not actionable after 1.0 s: it is disabled.'),
    # its own style keeps it at 0 by 0 and nothing of the page is about to run: refused without waiting
    ("Zero", "document.getElementById('zero').classList.add('squash')",
     'Element button "Zero" ({ref}) is not actionable: it has zero size (its own style makes it 0 by 0, and '
     'nothing on the page is about to change that).'),
    ("Covered", "", 'Element button "Covered" ({ref}) is not actionable after 1.0 s: it is covered by <div id="cover">.'),
    ("No pointer", "", "pointer-events: none"),
    # the hit test passes, then the page puts an overlay under the pointer: the click must not land on it
    ("Trap", "", "trap-overlay"),
])
def test_not_actionable_says_why_and_nothing_gets_the_click(actionable, name, setup, message):
    d, snap = actionable
    ref = ref_of(snap, name)
    if setup:
        d.js(setup)
    out = d.fail(f"click {ref}", "not_actionable")
    if message.startswith("Element"):
        assert out.message == message.format(ref=ref)
    else:
        assert message in out.message
    assert hits(d) == []  # neither the button nor a cover got a click


@pytest.mark.parametrize("name, setup, hit", [
    # actionability is waited for (up to the timeout), not just checked once
    ("Vanish", "const v = document.getElementById('vanish'); v.style.display = 'none';"
               "setTimeout(() => { v.style.display = ''; }, 300)", "vanish"),
    ("Disabled", "setTimeout(() => { document.getElementById('disabled').disabled = false; }, 300)", "disabled"),
    # a moving element is clicked once it is stable
    ("Plain", "const p = document.getElementById('plain'); p.style.transition = 'transform 0.4s linear';"
              "p.getBoundingClientRect(); p.style.transform = 'translateX(250px)'", "plain"),
])
def test_not_actionable_yet_is_waited_for(actionable, name, setup, hit):
    d, snap = actionable
    ref = ref_of(snap, name)
    d.js(setup)
    d.ok(f"click {ref}")
    assert hits(d) == [f"{hit}:click"]
    if name == "Plain":
        assert d.js("getComputedStyle(document.getElementById('plain')).transform") == "matrix(1, 0, 0, 1, 250, 0)"


def test_element_that_never_stops_moving_is_not_actionable(actionable):
    d, snap = actionable
    ref = ref_of(snap, "Plain")
    # moved in every animation frame and in every turn of a timer loop, each time to a place it was not
    # before: whatever verdex waits on between two measurements (a frame, or its own timer when the page
    # draws none) lets the page move it first, however loaded the machine. The page counts its moves.
    d.js("const p = document.getElementById('plain'); window.moves = 0;"
         "const step = () => { p.style.transform = `translateX(${++window.moves % 200 + window.moves / 1000}px)`; };"
         "(function frame() { if (window.moves >= 0) { step(); requestAnimationFrame(frame); } })();"
         "(function tick() { if (window.moves >= 0) { step(); setTimeout(tick); } })()")
    out = d.fail(f"click {ref}", "not_actionable")
    assert d.js("const m = window.moves; window.moves = -1; m") > 2  # it moved all along, by its own count
    assert "moving" in out.message
    assert hits(d) == []


def test_shop_checkout_modal_covers_the_page(quick, demo):
    d = quick
    d.ok("open " + demo.url("shop.html"))
    adds = open_checkout(d, d.ok("snapshot"))
    out = d.fail(f"click {adds[1]}", "not_actionable")
    assert 'covered by <div id="modal-backdrop">' in out.message
    assert out.message.startswith(f'Element button "Add to cart" ({adds[1]}) is not actionable')
    # the notebook was not added
    assert d.js("document.getElementById('add-notebook').textContent") == "Add to cart"
    assert "Notebook" not in d.js("document.getElementById('cart').textContent")
    js = d.run(f"click {adds[2]}").as_json()
    assert js["ok"] is False and js["error"]["kind"] == "not_actionable"
    assert "modal-backdrop" in js["error"]["message"]


def test_disabled_checkout_on_shop(quick, demo):
    d = quick
    d.ok("open " + demo.url("shop.html"))
    snap = d.ok("snapshot")
    checkout = ref_of(snap, "Checkout")
    out = d.fail(f"click {checkout}", "not_actionable")
    assert "disabled" in out.message
    assert d.js("document.getElementById('checkout-dialog').hidden") is True


# -- page_mismatch with real tabs --------------------------------------------------------------------------

@pytest.fixture
def two_tabs(chrome_http, demo):
    d = Driver(chrome_http, timeout=2)
    try:
        d.ok("open " + demo.url("mutations.html"))
        first = d.ok("snapshot")
        d.ok("tab new " + demo.url("shop.html"))
        second = d.ok("snapshot")
        yield d, first, second
    finally:
        d.run("tab close 1")
        d.close()


def test_page_mismatch_between_real_tabs(two_tabs):
    d, first, second = two_tabs
    b1 = ref_of(first, "Button 1")
    assert b1.startswith("c0p0f0e") and all(r.startswith("c0p1f0e") for r in second.data["refs"])
    out = d.fail(f"click {b1}", "page_mismatch")
    assert out.message == f"Ref '{b1}' is for page 0, but the current page is 1. Switch with 'tab 0'."
    adds = refs_named(second, "Add to cart")
    d.ok(f"click {adds[0]}")
    assert d.js("document.getElementById('add-mug').textContent") == "Added"
    d.ok("tab 0")
    out = d.fail(f"click {adds[1]}", "page_mismatch")
    assert out.message == f"Ref '{adds[1]}' is for page 1, but the current page is 0. Switch with 'tab 1'."
    assert d.js("window.demo.clicks.slice()") == []


def test_actions_work_after_switching_back_to_a_tab(two_tabs):
    d, first, _ = two_tabs
    d.ok("tab 0")
    d.ok(f"click {ref_of(first, 'Button 1')}")
    assert d.js("window.demo.clicks.slice()") == ["b1"]


# -- covered frames ------------------------------------------------------------------------------------------

OVERLAY_FRAMES = """(() => {
  window.__overlayClicks = [];
  for (const id of ['same-frame', 'cross-frame']) {
    const r = document.getElementById(id).getBoundingClientRect();
    const o = document.createElement('div');
    o.id = 'over-' + id;
    o.style.cssText = `position:absolute; z-index:10; background:rgba(255,0,0,.3); left:${r.left + scrollX}px;`
      + `top:${r.top + scrollY}px; width:${r.width}px; height:${r.height}px`;
    o.addEventListener('click', () => window.__overlayClicks.push(o.id));
    document.body.appendChild(o);
  }
  return true;
})()"""


@pytest.mark.parametrize("frame, covering", [(1, '<div id="over-same-frame">'),
                                             (2, '<div id="over-cross-frame">')])
def test_ref_in_a_covered_frame_is_not_clicked_through_the_cover(quick, demo, frame, covering):
    d = quick
    d.ok("open " + demo.url("frames.html"))
    snap = d.ok("snapshot")
    button = next(r for r, i in snap.data["refs"].items() if i["frame"] == frame and i["name"] == "Frame button")
    d.js(OVERLAY_FRAMES)
    out = d.run(f"click {button}")
    assert d.js("window.__overlayClicks") == [], "the click landed on the parent page's overlay"
    assert not out.ok and out.kind == "not_actionable"
    assert covering in out.message
