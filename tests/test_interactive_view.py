"""`snapshot --interactive` keeps every ref of the full snapshot, with the headings and landmarks
that lead to it (a headline link, a button in a heading, a navigation whose only link is in a
heading): a property over seeded random trees, and the cases that were dropped, on a real page."""

from __future__ import annotations

import random

from random_trees import Gen

from verdex_cli.snapshot import filters


def _refs(tree: dict, compact: bool) -> list[int]:
    return [n["e"] for n in _nodes(tree) if n.get("e") and not (compact and n.get("t") == 2)]


def _nodes(tree: dict) -> list[dict]:
    """Every element below ``tree``, in document order."""
    out = []
    for k in tree.get("c") or ():
        if isinstance(k, dict):
            out += [k, *_nodes(k)]
    return out


def test_every_ref_of_the_full_tree_is_in_the_interactive_view():
    for seed in range(3000):
        rng = random.Random(seed)
        tree = Gen(rng).root(rng.randint(1, 6))
        compact = rng.random() < 0.3
        view = filters.interactive(tree, compact)
        assert _refs(view, compact) == _refs(tree, compact), seed
        for n in _nodes(view):  # nothing but refs, and what leads to them
            assert n.get("e") or n["r"] in filters.LANDMARKS or n["r"] == "heading" or "err" in n, seed


PAGE = """<!doctype html><title>t</title>
<nav><h2><a href="#n">Nav heading link</a></h2></nav>
<main><h1><a href="#a">Headline</a></h1><p>text</p>
<h3>Title <button>Edit</button></h3><h2>Plain</h2><p>no refs here</p>
<h2>Section</h2><a href="#b">After</a></main>"""


def test_refs_inside_headings_are_kept(driver, tmp_path):
    page = tmp_path / "h.html"
    page.write_text(PAGE)
    driver.ok(f"open {page}")
    full = driver.ok("snapshot").data
    view = driver.ok("snapshot --interactive").data
    assert set(view["refs"]) >= set(full["refs"]) and len(full["refs"]) == 4
    text = view["text"]
    for line in ('navigation:', 'heading "Nav heading link" [level=2]:', 'link "Headline"',
                 'button "Edit"', 'heading "Section" [level=2]', 'link "After"'):
        assert line in text, text
    assert "Plain" not in text  # a heading with nothing after it that has a ref
