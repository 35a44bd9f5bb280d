"""Frames: listing without a snapshot, framesets, frames that appear, navigate or go away."""

from __future__ import annotations

from conftest import refs_named


def test_frames_lists_every_frame_without_a_snapshot(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    rows = driver.ok("frames").data["frames"]
    urls = [r["url"] for r in rows]
    assert rows[0]["index"] == 0 and rows[0]["parent"] is None
    assert any("frame-inner.html?nested=1" in u for u in urls)  # the cross-origin frame
    assert any("frame-leaf.html" in u for u in urls)            # nested inside it (depth 2)
    cross = next(r for r in rows if "nested=1" in r["url"])
    assert cross["cross_origin"] is True
    leaf = next(r for r in rows if "frame-leaf" in r["url"])
    assert leaf["parent"] == cross["index"]
    # no ref was issued, no snapshot counted: the first snapshot starts at e1 in every frame
    store = driver.ctx.page_state().store
    assert store is None or store.snapshot_no == 0
    snap = driver.ok("snapshot").data
    assert snap["snapshot"] == 1
    assert "c0p0f0e1" in snap["refs"]
    # the snapshot uses the same frame indices 'frames' gave out
    by_url = {f["url"]: f["index"] for f in snap["frames"]}
    for r in rows:
        if r["url"] in by_url:
            assert by_url[r["url"]] == r["index"]


def test_an_iframe_inserted_after_load_appears_in_the_next_snapshot(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    driver.ok("snapshot")
    src = demo.url("frame-leaf.html")
    driver.js(f"new Promise(r => {{ const f = document.createElement('iframe'); f.title = 'Late frame'; "
              f"f.onload = () => r(1); f.src = {src!r}; document.body.append(f); }})")
    snap = driver.ok("snapshot").data
    assert snap["cached"] is False
    assert 'iframe "Late frame"' in snap["text"]
    assert refs_named(snap, "Leaf button")


def test_child_frame_navigation_drops_only_its_refs(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    same = next(f["index"] for f in snap["frames"] if f["url"].endswith("/frame-inner.html"))
    child_ref = next(r for r, i in snap["refs"].items() if i["frame"] == same)
    main_ref = next(r for r, i in snap["refs"].items() if i["frame"] == 0 and i["role"] == "link")
    leaf = demo.url("frame-leaf.html")
    driver.js(f"new Promise(r => {{ const f = document.querySelector('#same-frame'); f.onload = () => r(1); "
              f"f.contentWindow.location.href = {leaf!r}; }})")
    driver.fail("click " + child_ref, "navigated")
    after = driver.ok("snapshot").data  # current, cached or not (the refused click captured the page first)
    assert after["text"] == driver.ok("snapshot --fresh").data["text"]
    assert main_ref in after["refs"]          # the main frame's refs stay
    assert refs_named(after, "Leaf button")
    # the frame's numbering goes on: no old string names a new element, and the old ref stays navigated
    old_top = max(int(r.rsplit("e", 1)[1]) for r, i in snap["refs"].items() if i["frame"] == same)
    new_numbers = [int(r.rsplit("e", 1)[1]) for r, i in after["refs"].items() if i["frame"] == same]
    assert new_numbers and min(new_numbers) > old_top
    driver.fail("click " + child_ref, "navigated")


def test_a_removed_frame_s_refs_are_removed(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and "nested=1" in f["url"])
    cross_ref = next(r for r, i in snap["refs"].items() if i["frame"] == cross)
    driver.js("document.querySelector('#cross-frame').remove()")
    driver.fail("click " + cross_ref, "removed")
    after = driver.ok("snapshot").data  # current, cached or not (the refused click captured the page first)
    assert after["text"] == driver.ok("snapshot --fresh").data["text"]
    assert all(i["frame"] != cross for i in after["refs"].values())
    driver.fail("click " + cross_ref, "removed")


def test_frameset_pages_show_each_frame(driver, demo):
    driver.ok("open " + demo.url("frameset.html"))
    snap = driver.ok("snapshot").data
    assert 'iframe "Menu frame" [frame=f1]' in snap["text"]
    assert 'iframe "Content frame" [frame=f2]' in snap["text"]
    leaf = refs_named(snap, "Leaf button")[0]
    assert leaf.startswith("c0p0f1e")
    driver.ok("click " + leaf)
    names = {f["name"] for f in driver.ok("frames").data["frames"]}
    assert {"menu", "content"} <= names


def test_snapshot_no_frames_and_one_frame(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    bounds = driver.ok("snapshot --no-frames").data
    assert "[frame=f1]" in bounds["text"]
    assert all(i["frame"] == 0 for i in bounds["refs"].values())   # no frame content, no refs inside
    assert [f["index"] for f in bounds["frames"]] == [0]
    cross = next(r["index"] for r in driver.ok("frames").data["frames"] if "nested=1" in r["url"])
    one = driver.ok(f"snapshot --frame f{cross}").data
    assert one["text"].startswith('- document "Inner frame"')
    assert {i["frame"] for i in one["refs"].values()} >= {cross}
    assert all(i["frame"] != 0 for i in one["refs"].values())       # the main frame was not captured
    button = next(r for r, i in one["refs"].items() if i["name"] == "Frame button" and i["frame"] == cross)
    driver.ok("click " + button)
    driver.fail("snapshot --frame f99", "usage")
    driver.fail("snapshot --frame", "usage")
