"""The snapshot cache: hits when nothing changed, misses after every kind of change, per frame."""

from __future__ import annotations

import pytest

from verdex_cli.snapshot import cache

SETTLE = "new Promise(r => requestAnimationFrame(() => setTimeout(() => r(1), 60)))"


def snap(driver, line="snapshot"):
    return driver.ok(line).data


def spy_captures(driver, monkeypatch) -> list[int]:
    """Frame indices the next snapshots capture (real captures, only counted)."""
    calls: list[int] = []
    frames = driver.ctx.page.frames
    real, real_start = frames.run, frames.start

    def is_capture(call):
        return [a["value"] for a in call.params["arguments"][:2]] == ["bridge", "snapshot"]

    def counting(fr, call, *a, **kw):
        sent = kw.get("sent", a[1] if len(a) > 1 else None)  # run(fr, call, timeout, sent): start() counted it
        if is_capture(call) and sent is None:
            calls.append(fr.index)
        return real(fr, call, *a, **kw)

    def counting_start(fr, call, *a, **kw):  # a capture sent ahead (snapshot/capture.py)
        started = real_start(fr, call, *a, **kw)
        if started is not None and is_capture(call):
            calls.append(fr.index)
        return started

    monkeypatch.setattr(frames, "run", counting)
    monkeypatch.setattr(frames, "start", counting_start)
    real_keep = cache.keep_ahead

    def counting_keep(page, ahead):  # captures the settle after an action took (act.js settleThen)
        calls.extend(i for i, (_l, _w, _d, answer) in sorted(ahead.frames.items()) if answer is not None)
        return real_keep(page, ahead)

    monkeypatch.setattr(cache, "keep_ahead", counting_keep)
    return calls


def in_frame(driver, index: int, expression: str):
    """Run page script inside frame ``index`` (its own main world), as the page itself would."""
    fr = driver.ctx.page.frames.get(index)
    if fr.oopif:
        return fr.target.call("Runtime.evaluate", expression=expression, returnByValue=True,
                              awaitPromise=True)["result"].get("value")
    return driver.js(f"(() => {{ const w = document.querySelector('#same-frame').contentWindow; "
                     f"return w.eval({expression!r}); }})()")


def test_unchanged_page_is_answered_from_the_cache(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    first = snap(driver)
    assert first["cached"] is False
    again = snap(driver)
    assert again["cached"] is True
    assert again["text"] == first["text"] and again["refs"] == first["refs"]
    fresh = snap(driver, "snapshot --fresh")
    assert fresh["cached"] is False and fresh["text"] == first["text"]


@pytest.mark.parametrize("change, shows", [
    ("document.body.append(Object.assign(document.createElement('button'), {textContent: 'Added now'}))",
     "Added now"),
    ("document.querySelector('h1').firstChild.data = 'Renamed heading'", "Renamed heading"),
    ("document.querySelector('h1').setAttribute('aria-label', 'Labelled heading')", "Labelled heading"),
])
def test_dom_changes_miss(driver, demo, change, shows):
    driver.ok("open " + demo.url("shop.html"))
    snap(driver)
    driver.js(change)
    out = snap(driver)
    assert out["cached"] is False and shows in out["text"]
    assert snap(driver)["cached"] is True


def test_user_input_focus_and_toggle_miss(driver, demo):
    driver.ok("open " + demo.url("form.html"))
    snap(driver)
    # a value typed by the user changes no attribute: the input event marks the frame
    driver.js("(() => { const el = document.querySelector('input[type=text], input:not([type])'); el.value = 'typed';"
              " el.dispatchEvent(new Event('input', {bubbles: true})); })()")
    out = snap(driver)
    assert out["cached"] is False and "typed" in out["text"]
    assert snap(driver)["cached"] is True
    driver.js("document.querySelector('input').focus()")
    assert snap(driver)["cached"] is False
    driver.js("document.querySelector('input').blur()")
    assert snap(driver)["cached"] is False
    driver.js("document.body.dispatchEvent(new Event('toggle'))")
    assert snap(driver)["cached"] is False


def test_resize_and_running_animation_miss(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    page = driver.ctx.page
    snap(driver)
    page.target.call("Emulation.setDeviceMetricsOverride", width=500, height=700, deviceScaleFactor=1, mobile=False)
    try:
        driver.js(SETTLE)
        assert snap(driver)["cached"] is False
    finally:
        page.target.call("Emulation.clearDeviceMetricsOverride")
    driver.js(SETTLE)
    snap(driver)
    driver.js("document.querySelector('h1').animate([{visibility: 'hidden'}, {visibility: 'visible'}], "
              "{duration: 60000})")
    assert snap(driver)["cached"] is False
    assert snap(driver)["cached"] is False  # an animation that can hide: never answered from the cache
    driver.js("document.getAnimations().forEach(a => a.cancel())")
    snap(driver)
    assert snap(driver)["cached"] is True
    # a spinner (opacity, transform) cannot change what a snapshot shows: the cache still answers
    driver.js("document.querySelector('h1').animate([{opacity: 0, transform: 'rotate(0)'}, "
              "{opacity: 1, transform: 'rotate(360deg)'}], {duration: 60000, iterations: Infinity})")
    assert snap(driver)["cached"] is True
    driver.js("document.getAnimations().forEach(a => a.cancel())")


def test_commands_and_modes_invalidate(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    first = snap(driver)
    driver.ok("refs")
    assert snap(driver)["cached"] is True
    assert snap(driver, "snapshot --all-refs")["cached"] is False
    assert snap(driver, "snapshot --all-refs")["cached"] is True
    assert snap(driver)["cached"] is False
    ref = next(r for r, i in first["refs"].items() if i["role"] == "link")
    driver.ctx.show_changes = False  # without the capture an action makes for its changes,
    driver.ok("hover " + ref)  # any command that may change the page invalidates, DOM change or not
    assert snap(driver)["cached"] is False
    driver.ctx.show_changes = True
    acted = driver.ok("hover " + ref).data["changes"]  # the action's own capture vouches for the page
    again = snap(driver)
    assert again["cached"] is True and again["snapshot"] == acted["snapshot"]
    driver.ok("reload")
    assert snap(driver)["cached"] is False


def test_hover_revealing_a_menu_through_css_is_seen(driver, demo):
    """A :hover rule that shows an element changes no DOM: the watcher knows such rules exist."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<style>.menu{display:none}.nav:hover .menu{display:block}</style>'
      + '<div class="nav"><a href="#">Products</a><ul class="menu"><li><a href="#x">Mugs</a></li></ul></div>'""")
    data = snap(driver)
    products = next(r for r, i in data["refs"].items() if i["name"] == "Products")
    changes = driver.ok("hover " + products).data["changes"]
    assert [(a["role"], a["name"]) for a in changes["added"] if a["ref"]] == [("link", "Mugs")]
    assert "Mugs" in snap(driver)["text"]


def _frame_indices(data):
    same = next(f["index"] for f in data["frames"] if f["index"] and not f["cross_origin"]
                and "frame-inner" in f["url"])
    cross = next(f["index"] for f in data["frames"] if f["cross_origin"] and "nested=1" in f["url"])
    return same, cross


@pytest.mark.parametrize("which", ["same", "cross"])
def test_a_changed_child_frame_is_the_only_one_captured(driver, demo, monkeypatch, which):
    driver.ok("open " + demo.url("frames.html"))
    data = snap(driver)
    same, cross = _frame_indices(data)
    index = same if which == "same" else cross
    assert snap(driver)["cached"] is True
    calls = spy_captures(driver, monkeypatch)
    in_frame(driver, index, "document.body.append(Object.assign(document.createElement('button'), "
                            "{textContent: 'Only in the child'})); 1")
    out = snap(driver)
    assert out["cached"] is False
    assert calls == [index]
    assert "Only in the child" in out["text"]
    # everything else is still there, stitched from the cache
    assert out["text"].count("\n") == data["text"].count("\n") + 1
    assert set(data["refs"]) <= set(out["refs"])
    new_ref = next(r for r, i in out["refs"].items() if i["name"] == "Only in the child")
    assert new_ref.startswith(f"c0p0f{index}e")
    calls.clear()
    driver.ok("click " + new_ref)  # focus moved into the child frame: its capture for the changes sees it
    assert index in calls and 0 not in calls[1:]
    calls.clear()
    assert snap(driver)["cached"] is True and calls == []
    driver.ctx.show_changes = False
    driver.ok("click " + new_ref)
    assert snap(driver)["cached"] is False  # without that capture, the click invalidates


def test_child_frame_input_in_cross_origin_frame_misses(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    _, cross = _frame_indices(snap(driver))
    in_frame(driver, cross, "(() => { const el = document.querySelector('#frame-input'); el.value = 'typed there';"
                            " el.dispatchEvent(new Event('input', {bubbles: true})); return 1; })()")
    out = snap(driver)
    assert out["cached"] is False and "typed there" in out["text"]


@pytest.mark.parametrize("change", [
    "document.querySelector('#frame-button').setAttribute('aria-label', 'Relabelled'); 1",
    "document.querySelector('p').firstChild && (document.querySelector('p').firstChild.data += ' more'); 1",
    "document.body.dispatchEvent(new Event('toggle')); 1",
    "document.querySelector('#frame-input').focus(); 1",
    "document.body.animate([{display: 'none'}, {display: 'block'}], {duration: 60000}); 1",
    "document.querySelector('#frame-input').dispatchEvent(new Event('change', {bubbles: true})); 1",
])
def test_each_kind_of_change_in_a_cross_origin_frame_misses(driver, demo, monkeypatch, change):
    driver.ok("open " + demo.url("frames.html"))
    _, cross = _frame_indices(snap(driver))
    assert snap(driver)["cached"] is True
    calls = spy_captures(driver, monkeypatch)
    in_frame(driver, cross, change)
    assert snap(driver)["cached"] is False
    # the other frames come from the cache (focus moving into the frame also moves the main document's
    # focus to the frame's owner element: the main frame changed too)
    assert calls == ([0, cross] if ".focus()" in change else [cross])


def test_cross_origin_frame_resize_misses(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    _, cross = _frame_indices(snap(driver))
    in_frame(driver, cross, "document.querySelector('#frame-input').blur(); 1")
    snap(driver)
    assert snap(driver)["cached"] is True
    driver.js("document.querySelector('#cross-frame').style.width = '123px'")  # resizes the frame's viewport
    driver.js(SETTLE)
    assert snap(driver)["cached"] is False
