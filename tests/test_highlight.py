"""highlight: the overlay call succeeds (headless: drawn but invisible, and the result says so)."""

from __future__ import annotations


def test_highlight_outlines_an_element_and_says_it_is_invisible_headless(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    ref = next(r for r, i in snap["refs"].items() if i["role"] == "button")
    out = driver.run("highlight " + ref)
    assert out.ok, out.message
    assert out.result.kind == "highlight"
    assert out.result.data["target"] == ref and out.result.data["seconds"] == 2
    assert out.result.data["visible"] is False
    assert any("headless" in n for n in out.result.notes)
    assert driver.ok("snapshot").data["cached"] is True  # highlighting changes nothing on the page


def test_highlight_in_a_cross_origin_frame_and_bad_refs(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"])
    ref = next(r for r, i in snap["refs"].items() if i["frame"] == cross)
    assert driver.ok("highlight " + ref).data["target"] == ref
    driver.fail("highlight nonsense", "invalid_ref")
    driver.fail("highlight c0p0f0e999", "unknown_ref")
