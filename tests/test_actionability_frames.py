"""Actionability that is true in any nesting of frames and on tabs that are not in front.

Frames: 3-level nestings of same-origin, same-site but cross-origin (127.0.0.1, another port: the
same renderer, so no frame target of its own) and cross-site (localhost: an out-of-process frame)
frames in every position, with borders, padding, transforms and scrolled frames. The deepest frame's
own page script reports each click (with isTrusted) to the top page, where the test reads it.

Tabs: after a target=_blank link or window.open put another tab in front, every action on the first
tab brings it to the front first (and says so), and its effect is read back from the page's own script.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest

from verdex_cli.app.demo_server import serve

from conftest import ref_in, until, world_eval

ROOT = Path(__file__).parent / "fixtures" / "frames"


@pytest.fixture(scope="module")
def origins():
    """a and c: 127.0.0.1 on two ports (same site, cross-origin); b: localhost (another site)."""
    one, two = serve(ROOT), serve(ROOT)
    yield {"a": one.a, "b": one.b, "c": two.a}
    one.stop()
    two.stop()


def _chain_url(origins, chain: str, **extra) -> str:
    query = "&".join(f"{k}={v}" for k, v in extra.items())
    return f"{origins['a']}/chain.html?chain={chain}&origins={quote(json.dumps(origins))}" + ("&" + query if query else "")


def _open_chain(d, origins, chain: str, **extra) -> str:
    """Open the nesting and snapshot until the deepest frame's button is there (bounded)."""
    d.ok("open " + _chain_url(origins, chain, **extra))
    seen = []

    def deep_button_there():
        seen.append(d.ok("snapshot").data["text"])
        return 'button "Deep button"' in seen[-1]

    assert until(deep_button_there, 10), seen[-1]
    return seen[-1]


def _poll(fn, want, timeout: float = 5.0):
    """fn() once it gives ``want`` (or its last answer at the time-out)."""
    seen = []
    until(lambda: (seen.append(fn()) or seen[-1]) == want, timeout)
    return seen[-1]


def _deep(d) -> dict:
    """What the deepest frame's own script reported to the top page (not verdex's bridge)."""
    return json.loads(d.js("JSON.stringify(window.deep || {})"))


def _site(origin: str) -> str:
    return urlparse(origin).hostname


def _assert_renderers(d, origins, chain: str) -> None:
    """The nesting is what it claims: per the protocol, a frame has a target of its own exactly
    when its site differs from its parent's (same-site cross-origin frames share the renderer)."""
    keys = ["a"] + chain.split(",")
    frames = d.ctx.page.frames
    by_level = {0: frames.main}
    for fr in frames.all_frames():
        m = re.search(r"[?&]level=(\d+)", fr.url)
        if m and "chain.html" in fr.url:
            by_level[int(m.group(1))] = fr
    assert sorted(by_level) == list(range(len(keys))), [f.url for f in frames.all_frames()]
    for level in range(1, len(keys)):
        fr, parent = by_level[level], by_level[level - 1]
        assert fr.parent == parent.index
        assert urlparse(fr.url).port == urlparse(origins[keys[level]]).port
        own_target = fr.target is not parent.target
        assert own_target == (_site(origins[keys[level]]) != _site(origins[keys[level - 1]])), (chain, level)


# every kind of frame (same origin, same site, cross site: relative to its parent) at every depth
NESTINGS = [
    ("a,a,a", "thick"),          # same-origin, same-origin, same-origin
    ("c,c,c", "thick"),          # same-site, same-origin, same-origin
    ("b,b,b", "scale"),          # cross-site, same-origin, same-origin
    ("a,c,a", "shift,thick"),    # same-origin, same-site, same-site
    ("c,a,b", "thick"),          # same-site, same-site, cross-site
    ("b,c,a", "scale,thick"),    # cross-site, cross-site, same-site
    ("a,b,c", ""),               # same-origin, cross-site, cross-site
    ("c,b,b", "rotate"),         # same-site, cross-site, same-origin
]


@pytest.mark.parametrize("chain,style", NESTINGS)
def test_click_in_the_deepest_frame_of_any_nesting(driver, origins, chain, style):
    text = _open_chain(driver, origins, chain, style=style)
    _assert_renderers(driver, origins, chain)
    button = ref_in(text, 'button "Deep button"')
    res = driver.ok("click " + button)
    assert res.data["ref"] == button
    assert _poll(lambda: _deep(driver).get("clicks"), 1) == 1
    assert _deep(driver) == {"clicks": 1, "trusted": True, "level": 3}
    driver.ok("click " + button)  # the same again: still its own element
    assert _poll(lambda: _deep(driver).get("clicks"), 2) == 2


@pytest.mark.parametrize("chain,style", NESTINGS)
def test_clicks_in_the_deepest_frame_of_a_still_page_land_on_it(driver, origins, chain, style):
    """A page that stands still: the click's check and the owners' measurement go with the resolution,
    no frame is scrolled, and press and release go together once the element is under the pointer
    (actionability._still_in_frame). Every click lands on the deepest button, trusted, and nowhere
    else -- and the still path is the one taken."""
    text = _open_chain(driver, origins, chain, style=style)
    button = ref_in(text, 'button "Deep button"')
    conn = driver.ctx.session.browser().conn
    fast = 0
    for n in range(1, 4):
        time.sleep(0.1)  # the page left alone: what is tested is the path a still page takes
        before = conn.counters()[0]
        driver.ok("click " + button)
        fast += conn.counters()[0] - before <= 8  # the still path (6, the capture before the action, the suite's patch check)
        assert _poll(lambda: _deep(driver).get("clicks"), n) == n
        assert _deep(driver) == {"clicks": n, "trusted": True, "level": 3}
    assert fast >= 2, f"the still path was taken {fast} times in 3"


@pytest.mark.parametrize("chain", ["c,b,a", "a,c,c", "b,a,c"])
def test_click_in_frames_that_must_scroll_at_every_level(driver, origins, chain):
    # every level puts its iframe (the deepest its button) below a tall spacer: each frame scrolls
    text = _open_chain(driver, origins, chain, scroll=1, style="thick")
    driver.ok("click " + ref_in(text, 'button "Deep button"'))
    assert _poll(lambda: _deep(driver).get("clicks"), 1) == 1
    assert _deep(driver)["trusted"] is True


def test_select_several_options_in_a_nested_frame(driver, origins):
    text = _open_chain(driver, origins, "c,b,a", style="thick,shift")
    res = driver.ok("select " + ref_in(text, 'listbox "Toppings"') + " Cheese Basil")
    assert res.data["selected"] == ["Cheese", "Basil"]
    assert _poll(lambda: _deep(driver).get("selected"), ["Cheese", "Basil"]) == ["Cheese", "Basil"]


def test_a_covered_button_in_a_nested_frame_names_its_cover(quick, origins):
    text = _open_chain(quick, origins, "c,a,b", cover=3)
    button = ref_in(text, 'button "Deep button"')
    out = quick.fail("click " + button, kind="not_actionable")
    assert out.message == (f'Element button "Deep button" ({button}) is not actionable after 1.5 s: '
                           'it is covered by <div id="cover">.')
    assert _deep(quick) == {}  # nothing reached the page


@pytest.mark.parametrize("chain,level", [("a,c,a", 1), ("c,c,b", 2), ("b,c,a", 2), ("c,b,a", 0)])
def test_a_covered_frame_names_the_cover_in_its_parent(quick, origins, chain, level):
    text = _open_chain(quick, origins, chain, cover=level)
    button = ref_in(text, 'button "Deep button"')
    frames = quick.ctx.page.frames
    where = "the page" if level == 0 else \
        f"frame {next(f.index for f in frames.all_frames() if f'level={level}&' in f.url + '&')}"
    out = quick.fail("click " + button, kind="not_actionable")
    assert out.message == (f'Element button "Deep button" ({button}) is not actionable after 1.5 s: '
                           f'its frame is covered by <div id="cover"> in {where}.')
    assert _deep(quick) == {}


# -- tabs that are not in front ------------------------------------------------------------------

FRONT = "Brought tab 0 to the front."


def _visibility(d) -> str:
    return d.js("document.visibilityState")


def _effects(d) -> list:
    return json.loads(d.js("JSON.stringify(window.effects)"))


def _background_page(d, origins, opener: str) -> str:
    d.ok("open " + origins["a"] + "/background.html")
    text = d.ok("snapshot").data["text"]
    res = d.ok("click " + ref_in(text, opener))
    assert any(n.startswith("A new tab opened: tab 1") for n in res.notes), res.notes
    assert _poll(lambda: _visibility(d), "hidden") == "hidden"  # the new tab took the front
    return text


def _hide_tab0(d) -> None:
    """Put tab 1 (the one the page opened) in front again, as the browser did when it opened."""
    d.ctx.session.pages[(0, 1)].target.call("Page.bringToFront")
    assert _poll(lambda: _visibility(d), "hidden") == "hidden"


def test_every_action_on_a_tab_behind_a_target_blank_tab(driver, origins):
    text = _background_page(driver, origins, 'link "Open a tab"')
    steps = [
        ("click " + ref_in(text, 'button "Count"'), lambda: driver.js("window.clicks") == 1, "click"),
        ("fill " + ref_in(text, 'textbox "Name"') + " Ada", lambda: driver.js("document.getElementById('name').value") == "Ada", "input"),
        ("check " + ref_in(text, 'checkbox "Agree"'), lambda: driver.js("document.getElementById('agree').checked") is True, "check"),
        ("select " + ref_in(text, 'combobox "Size"') + " Large", lambda: driver.js("document.getElementById('size').value") == "Large", "select"),
        ("hover " + ref_in(text, 'button "Hover me"'), lambda: driver.js("window.hovers") == 1, "hover"),
    ]
    for line, effect, what in steps:
        _hide_tab0(driver)
        res = driver.ok(line)
        assert res.notes[0] == FRONT, (line, res.notes)
        assert _visibility(driver) == "visible"
        assert effect(), line
        assert {"what": what, "trusted": True} in _effects(driver), (line, _effects(driver))
    # in front now: no note
    res = driver.ok("click " + ref_in(text, 'button "Count"'))
    assert FRONT not in res.notes and driver.js("window.clicks") == 2


def test_an_action_behind_a_window_open_popup(driver, origins):
    text = _background_page(driver, origins, 'button "Open a popup"')
    res = driver.ok("click " + ref_in(text, 'button "Count"'))
    assert res.notes[0] == FRONT
    assert driver.js("window.clicks") == 1 and _visibility(driver) == "visible"


def test_an_action_beside_a_popup_window(driver, origins):
    # a popup with window features opens a window of its own: the first tab stays visible, no note
    driver.ok("open " + origins["a"] + "/background.html")
    text = driver.ok("snapshot").data["text"]
    res = driver.ok("click " + ref_in(text, 'button "Open a window"'))
    assert any(n.startswith("A new tab opened: tab 1") for n in res.notes), res.notes
    res = driver.ok("click " + ref_in(text, 'button "Count"'))
    assert FRONT not in res.notes
    assert driver.js("window.clicks") == 1 and _visibility(driver) == "visible"


def test_tab_new_then_tab_0_then_act(driver, origins):
    driver.ok("open " + origins["a"] + "/background.html")
    text = driver.ok("snapshot").data["text"]
    driver.ok("tab new")
    assert driver.ctx.session.pages[(0, 0)].evaluate("document.visibilityState") == "hidden"
    driver.ok("tab 0")
    res = driver.ok("fill " + ref_in(text, 'textbox "Name"') + " Grace")
    assert FRONT not in res.notes  # 'tab 0' already brought it to the front
    assert driver.js("document.getElementById('name').value") == "Grace"
    # a tab in front of the current one: keys (press without a ref) and page scrolls bring it back too
    _hide_tab0_by_new_tab(driver)
    res = driver.ok("press End")
    assert res.notes[0] == FRONT and _visibility(driver) == "visible"


def _hide_tab0_by_new_tab(d) -> None:
    other = [p for k, p in d.ctx.session.pages.items() if k != (0, 0)][0]
    other.target.call("Page.bringToFront")
    assert _poll(lambda: _visibility(d), "hidden") == "hidden"


def test_a_refusal_on_a_background_tab_is_about_the_element(quick, origins):
    # a truly hidden element on a tab behind another: the reason is about the element, never "moving"
    text = _background_page(quick, origins, 'link "Open a tab"')
    quick.js("document.getElementById('count').style.visibility = 'hidden'")
    _hide_tab0(quick)
    out = quick.fail("click " + ref_in(text, 'button "Count"'), kind="not_actionable")
    assert out.message.endswith("is not actionable after 1.5 s: it is hidden.")
    assert quick.js("window.clicks") == 0


def test_stability_on_a_page_that_draws_no_frames_is_judged_on_two_real_measurements(driver, origins):
    # the core's wait, asked directly on a tab left behind (no animation frames run there): a still
    # element is found still (two measurements, across the wait's slices), never "moving"
    from verdex_cli.act import actionability
    from verdex_cli.act.targets import resolve_target

    text = _background_page(driver, origins, 'link "Open a tab"')
    page = driver.ctx.page
    res = resolve_target(driver.ctx.session, page, driver.ctx.page_state().store, ref_in(text, 'button "Count"'))
    assert _visibility(driver) == "hidden"
    x, y = actionability.prepare(page, res, pointer=True)
    box = json.loads(driver.js("JSON.stringify(document.getElementById('count').getBoundingClientRect())"))
    assert (x, y) == (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert _visibility(driver) == "hidden"  # the core's wait did not need the tab in front


def test_one_measurement_is_never_called_moving(driver, origins):
    # the bridge's wait cut short after a single measurement says so, and hands the box on; the next
    # slice, given it, finds the element still (a still element is never "moving")
    driver.ok("open " + origins["a"] + "/background.html")
    text = driver.ok("snapshot").data["text"]
    page = driver.ctx.page
    n = int(ref_in(text, 'button "Count"').rsplit("e", 1)[1])
    # timeoutMs -1: the deadline has passed when the first measurement is done (never a second one);
    # the document just changed, so the change watcher cannot vouch that it is still (act.js stillFor)
    first = world_eval(page, page.frames.main, "document.body.dataset.touched = String(performance.now()); "
                       f"__verdex.bridge.prepare({n}, {{pointer: true, timeoutMs: -1}})")["value"]
    assert first["status"] == "not_actionable" and "moving" not in first["reason"], first
    assert first["reason"] in ("its position was measured only once",
                               "the page draws no frames, so whether it is still could not be checked"), first
    opts = json.dumps({"pointer": True, "timeoutMs": -1, "last": first["last"]})
    second = world_eval(page, page.frames.main, f"__verdex.bridge.prepare({n}, {opts})")["value"]
    assert second["status"] == "ok" and second["box"] == first["last"], (first, second)


def test_a_still_element_is_actionable_without_waiting_for_frames(driver, origins):
    """The change watcher vouches that nothing moved for two frames' time: one measurement is enough
    (timeoutMs -1 leaves no time for a second); a change just now takes that away."""
    driver.ok("open " + origins["a"] + "/background.html")
    text = driver.ok("snapshot").data["text"]
    page = driver.ctx.page
    n = int(ref_in(text, 'button "Count"').rsplit("e", 1)[1])
    quiet = until(lambda: (lambda out: out if out["status"] == "ok" else None)(world_eval(
        page, page.frames.main, f"__verdex.bridge.prepare({n}, {{pointer: true, timeoutMs: -1}})")["value"]), 3)
    assert quiet["status"] == "ok", quiet
    moved = world_eval(page, page.frames.main, "document.body.dataset.touched = String(performance.now()); "
                       f"__verdex.bridge.prepare({n}, {{pointer: true, timeoutMs: -1}})")["value"]
    assert moved["status"] == "not_actionable" and "moving" not in moved["reason"], moved


def _prepared(page, n: int) -> dict:
    """The bridge's wait, cut short after one measurement (timeoutMs -1): ok only when the change watcher
    vouches that nothing moved for two frames' time."""
    return world_eval(page, page.frames.main, f"__verdex.bridge.prepare({n}, {{pointer: true, timeoutMs: -1}})")["value"]


@pytest.mark.parametrize("shadow", [False, True])
def test_a_still_element_is_actionable_without_waiting_for_frames_before_any_snapshot(driver, demo, shadow):
    """Issue 35 (the first action, as a one-shot run takes it, waited for frames an action after a
    snapshot does not): the change watcher watches from the engine's set-up, not from the first capture,
    so it vouches for a still page before any snapshot as after one; a change just now takes that away,
    in an open shadow root too (watched before any snapshot walked it)."""
    from verdex_cli.act.targets import resolve_target

    driver.ok("open " + demo.url("blank.html"))
    driver.js("""const host = document.createElement('div'); document.body.append(host);
      const root = host.attachShadow({ mode: 'open' }); root.innerHTML = '<button id=go>Go</button>';""")
    page = driver.ctx.page
    n = resolve_target(driver.ctx.session, page, driver.ctx.page_state().store, "button:Go").ref.n
    assert driver.ctx.page_state().last_seen() is None  # no snapshot taken
    quiet = until(lambda: (lambda out: out if out["status"] == "ok" else None)(_prepared(page, n)), 3)
    assert quiet and quiet["status"] == "ok", quiet
    where = "document.body.firstElementChild.shadowRoot.getElementById('go')" if shadow else "document.body"
    driver.js(f"{where}.dataset.touched = String(performance.now())")
    moved = _prepared(page, n)
    assert moved["status"] == "not_actionable" and "moving" not in moved["reason"], moved
