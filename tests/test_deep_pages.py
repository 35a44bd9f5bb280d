"""Huge nesting: 5,000 levels give no recursion error in the page (walk, name computation) or in Python
(JSON decoding, text rendering); the snapshot stays usable and actions work."""

from __future__ import annotations

from pathlib import Path

import pytest

from verdex_cli.snapshot.render_text import TextRenderer

DEEP = (Path(__file__).resolve().parent / "fixtures" / "snapshot" / "deep.html").as_uri()
FLAT_NOTE = "are nested deeper than 200 levels: they are listed flat under their ancestor at that level."


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@pytest.mark.parametrize("kind, nodes_line", [("groups", "- group"), ("lists", "- list")])
def test_five_thousand_nested_landmarks(driver, kind, nodes_line):
    driver.ok(f"open {DEEP}?kind={kind}&depth=5000")
    snap = driver.ok("snapshot")
    lines = snap.data["text"].splitlines()
    assert len(lines) > 5000
    assert max(indent_of(ln) for ln in lines) <= 2 * 201 + 2  # nesting kept to 200 levels
    assert any(FLAT_NOTE in n for n in snap.data["notes"]), snap.data["notes"]
    deep = [r for r, i in snap.data["refs"].items() if i["name"] == "Deep"]
    field = [r for r, i in snap.data["refs"].items() if i["name"] == "Deep field"]
    assert len(deep) == 1 and len(field) == 1
    assert lines[-2].strip() == f'- button "Deep" [ref={deep[0]}]'  # document order kept
    driver.ok(f"click {deep[0]}")
    assert driver.js("window.clicked") == 1
    out = driver.ok(f"fill {field[0]} hello")
    assert out.data["value"] == "hello"
    assert driver.ok("snapshot").data["refs"] == snap.data["refs"]  # the same refs again


def test_five_thousand_plain_wrappers_collapse(driver):
    driver.ok(f"open {DEEP}?kind=spans&depth=5000")
    snap = driver.ok("snapshot")
    assert snap.data["text"].splitlines()[1:] == [
        f'  - button "Deep" [ref={r}]' if i["role"] == "button" else f'  - textbox "Deep field" [ref={r}]'
        for r, i in snap.data["refs"].items()]
    assert not any(FLAT_NOTE in n for n in snap.data["notes"])


def test_name_from_five_thousand_levels_of_content(driver):
    driver.ok(f"open {DEEP}?kind=button&depth=5000")
    snap = driver.ok("snapshot")
    (ref, info), = snap.data["refs"].items()
    # the text of every level, the deepest ones read flat
    assert info["name"] == "level0 level1000 level2000 level3000 level4000 bottom"
    driver.ok(f"click {ref}")
    assert driver.js("window.clicked") == 1


def test_renderer_has_no_recursion_limit():
    node: dict = {"r": "button", "n": "Bottom", "e": 1, "t": 1}
    for i in range(20000):
        node = {"r": "group", "n": f"g{i}", "c": [node]}
    root = {"r": "document", "n": "Deep", "c": [node], "fi": 0}
    r = TextRenderer("c0p0", compact=False)
    text = r.render(root)
    lines = text.splitlines()
    assert len(lines) == 20002
    assert lines[-1].strip() == '- button "Bottom" [ref=c0p0f0e1]'
    assert indent_of(lines[-1]) == 2 * 20001
    assert list(r.refs) == ["c0p0f0e1"]


@pytest.mark.parametrize("page", ["shop.html", "form.html", "frames.html", "shadow.html", "table.html?rows=300",
                                  "index.html"])
def test_bridge_counts_match_the_tree(driver, demo, page):
    """take.py trusts the bridge's per-frame ref counts (no extra walk over the tree): they must agree."""
    from verdex_cli.snapshot.capture import capture_tree

    driver.ok("open " + demo.url(page))
    root, frames, _ = capture_tree(driver.ctx.page)
    assert all(f.tiers is not None for f in frames)
    tiers, stack = [], [root]
    while stack:  # every ref of the stitched tree, by tier
        node = stack.pop()
        if node.get("e"):
            tiers.append(node.get("t", 1))
        stack.extend(k for k in node.get("c") or () if not isinstance(k, str))
        if "sub" in node:
            stack.append(node["sub"])
    assert (sum(f.tiers[0] for f in frames), sum(f.tiers[1] for f in frames)) == (tiers.count(1), tiers.count(2))
