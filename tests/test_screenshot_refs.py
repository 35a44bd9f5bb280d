"""`screenshot PATH --refs`: each visible ref outlined and labelled on the image (frames included, in
the tab's coordinates), the boxes listed in image pixels, the page left as it was; the long side capped
at 2,000 px unless --full."""

from __future__ import annotations

import struct


def _png_size(path) -> tuple[int, int]:
    raw = open(path, "rb").read(24)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", raw[16:24])


def _inside(inner, outer, slack=1.0) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return x >= ox - slack and y >= oy - slack and x + w <= ox + ow + slack and y + h <= oy + oh + slack


def test_refs_are_drawn_where_they_show_frames_included(driver, demo, tmp_path):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    driver.js("window.__added = 0; new MutationObserver((m) => { for (const r of m) window.__added += "
              "r.addedNodes.length - r.removedNodes.length; }).observe(document.documentElement, "
              "{childList: true, subtree: true}); 1")
    before = driver.js("document.documentElement.outerHTML")
    shot = driver.ok(f"screenshot {tmp_path / 'a.png'} --refs").data
    assert (shot["width"], shot["height"]) == _png_size(tmp_path / "a.png")
    boxes = {r["ref"]: r["box"] for r in shot["refs"]}
    assert boxes and set(boxes) <= set(snap["refs"])
    for ref, (x, y, w, h) in boxes.items():
        assert w >= 1 and h >= 1 and x >= 0 and y >= 0 and x + w <= shot["width"] + 1 and y + h <= shot["height"] + 1
    frames = {f["index"]: f for f in snap["frames"]}
    cross = next(i for i, f in frames.items() if f["cross_origin"] and f["index"])
    owner = next(ref for ref, info in snap["refs"].items() if info["role"] == "iframe" and info["frame"] == 0
                 and ref in boxes and any(r.startswith(f"c0p0f{cross}e") for r in boxes)
                 and _inside(boxes[next(r for r in boxes if r.startswith(f"c0p0f{cross}e"))], boxes[ref]))
    inner = [r for r in boxes if r.startswith(f"c0p0f{cross}e")]
    assert inner and all(_inside(boxes[r], boxes[owner]) for r in inner)  # a cross-origin frame's refs sit in it
    # the page is as it was: the labels were there for the screenshot only
    assert driver.js("document.documentElement.outerHTML") == before
    assert driver.js("window.__added") == 0
    plain = driver.ok(f"screenshot {tmp_path / 'b.png'}").data
    assert "refs" not in plain
    assert (tmp_path / "a.png").read_bytes() != (tmp_path / "b.png").read_bytes()


def test_refs_scrolled_away_are_not_listed_and_full_pages_are_not_capped(driver, demo, tmp_path):
    driver.ok("open " + demo.url("table.html?rows=120"))
    snap = driver.ok("snapshot").data
    view = driver.ok(f"screenshot {tmp_path / 'v.png'} --refs").data
    assert 0 < len(view["refs"]) < len(snap["refs"])  # only what the viewport shows
    whole = driver.ok(f"screenshot {tmp_path / 'f.png'} --full --refs").data
    assert len(whole["refs"]) > len(view["refs"])
    assert _png_size(tmp_path / "f.png") == (whole["width"], whole["height"]) and whole["height"] > 2000


def test_the_long_side_is_capped(driver, demo, tmp_path):
    driver.ok("open " + demo.url("shop.html"))
    driver.ok("snapshot")
    page = driver.ctx.page
    data = page.screenshot(str(tmp_path / "c.png"), cap=500)
    assert max(_png_size(tmp_path / "c.png")) <= 500 == max(data["width"], data["height"])
    assert any("Scaled to 500 px" in n for n in data["notes"])
