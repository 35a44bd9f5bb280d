"""The snapshot text the pages render (text.js, stitched by views.py) on real pages: frames whose own
choice of compact mode differs from the whole page's, names that imitate ref markers, `find` on the tree
the page still holds, and what it says when the page no longer holds it. The suite's whole-capture
check (conftest: VERDEX_CHECK_PATCHES) compares every snapshot here with a Python render of the tree."""

from __future__ import annotations

import html

from conftest import world_eval

from verdex_cli.snapshot import take

# 60 links in the main document, a frame with a listbox of 50 options (tier 2) and 5 buttons: each
# document alone has at most 100 refs (the frame's page shows its options' refs), the whole page has
# more (compact: the options' refs are hidden, also those whose names imitate a ref marker).
OPTION = "Option {i} [ref=c0p0f1e{i}]: x [ref=c0p0f1e{j}]"
FRAME = ("<!doctype html><title>inner</title><div role=listbox aria-label=Pick>" +
         "".join(f"<div role=option>{html.escape(OPTION.format(i=i, j=i + 1))}</div>" for i in range(1, 51)) +
         "</div>" + "".join(f"<button>B{i}</button>" for i in range(5)))
PAGE = ("<!doctype html><title>outer</title><main>" +
        "".join(f"<a href='#a{i}'>Link {i}</a> " for i in range(60)) +
        f"<iframe title=Inner srcdoc=\"{html.escape(FRAME)}\"></iframe><p>after the frame</p></main>")


def _open(driver, tmp_path):
    assert take.CHECK_PATCHES, "the suite compares every page-rendered snapshot with a whole capture"
    path = tmp_path / "compact.html"
    path.write_text(PAGE, encoding="utf-8")
    driver.ok(f"open {path}")


def test_a_frame_shown_compact_because_the_whole_page_is(driver, tmp_path):
    _open(driver, tmp_path)
    data = driver.ok("snapshot").data
    text = data["text"]
    lines = text.split("\n")
    assert any(line.strip().startswith('- iframe "Inner" [frame=f1] [ref=') and line.endswith(":") for line in lines)
    options = [line for line in lines if line.strip().startswith("- option ")]
    assert len(options) == 50
    # the options' refs are hidden, the look-alike markers inside their names stay as the page wrote them
    assert all(line.rstrip().endswith(']"') for line in options), options[:3]
    assert '- option "Option 1 [ref=c0p0f1e1]: x [ref=c0p0f1e2]"' in text
    assert sum(1 for r in data["refs"] if r.startswith("c0p0f1")) == 5  # the shown ones: the frame's buttons
    assert "50 more" in " ".join(data["notes"]) or "more (list items" in " ".join(data["notes"])
    # the page is the same whole, captured again
    assert driver.ok("snapshot --fresh").data["text"] == text
    # and without compact mode every option shows its ref after its name
    full = driver.ok("snapshot --all-refs").data["text"]
    assert sum(1 for line in full.split("\n") if line.strip().startswith("- option ") and
               line.rstrip().endswith("]") and not line.rstrip().endswith(']"')) == 50


def test_changed_lines_in_a_frame_of_a_compact_page(driver, tmp_path):
    _open(driver, tmp_path)
    driver.ok("snapshot")
    page = driver.ctx.page
    inner = next(f for f in page.frames.all_frames() if f.index == 1)
    world_eval(page, inner, "document.querySelectorAll('[role=option]')[4].textContent = 'Changed [ref=c0p0f1e9]'; 1")
    data = driver.ok("snapshot").data
    assert '- option "Changed [ref=c0p0f1e9]"' in data["text"]
    assert data["cached"] is False


def test_find_searches_the_tree_the_page_holds(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    number = driver.ok("snapshot").data["snapshot"]
    found = driver.ok("find Leaf")
    assert found.data["snapshot"] == number and found.data["matches"], found.data
    assert any((m["ref"] or "").split("e")[0].endswith("f3") or m["ref"] for m in found.data["matches"])
    assert not any("no longer held" in n for n in found.notes), found.notes
    assert driver.ok("snapshot").data["cached"] is True  # find took no snapshot of its own


def test_find_after_the_page_let_go_of_the_tree_says_so(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    number = driver.ok("snapshot").data["snapshot"]
    page = driver.ctx.page
    world_eval(page, page.frames.main, "__verdex.bridge.reset(true); 1")  # the held tree let go of
    found = driver.ok("find Add to cart")
    assert found.data["snapshot"] == number + 1 and found.data["matches"], found.data
    assert any(f"Snapshot #{number} is no longer held" in n for n in found.notes), found.notes
