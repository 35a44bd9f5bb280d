"""snapshot/delta.py: comparing two snapshot texts node by node (no browser)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from verdex_cli.snapshot import delta
from verdex_cli.snapshot.delta import Node, parse_line

BEFORE = """- document "Shop":
  - heading "Cart (0)" [level=2]
  - button "Add to cart" [ref=c0p0f0e1]
  - button "Re-render" [ref=c0p0f0e2]
  - checkbox "Gift wrap" [ref=c0p0f0e3]
  - textbox "Note" [ref=c0p0f0e4]
  - text: Total: $0.00"""

AFTER = """- document "Shop":
  - heading "Cart (1)" [level=2]
  - button "Added" [ref=c0p0f0e1]
  - button "Re-render" [ref=c0p0f0e5]
  - checkbox "Gift wrap" [checked] [ref=c0p0f0e3]
  - textbox "Note" [ref=c0p0f0e4]: hello
  - list:
    - listitem: Mug
  - text: Total: $12.00"""

K = 1 << 42  # frame 0's node identities (render_text.node_key)
# per line: the document, the heading (same DOM node), refs (0), the list and its item (new), the text run
BEFORE_IDS = [K, K | 1, 0, 0, 0, 0, K | 2]
AFTER_IDS = [K, K | 1, 0, 0, 0, 0, K | 7, K | 8, K | 2]


def test_parse_line_reads_every_part():
    assert parse_line('    - button "Say \\"hi\\" [ref=x]" [pressed] [ref=c1p2f3e4]: v: w') == \
        Node("button", 'Say "hi" [ref=x]', ("pressed",), "v: w", "c1p2f3e4")
    assert parse_line("  - text: a [b]: c") == Node("text", "a [b]: c", (), "", None)
    assert parse_line('- iframe "Ads" [frame=f2] [ref=c0p0f0e9]:') == Node("iframe", "Ads", ("frame=f2",), "", "c0p0f0e9")
    assert parse_line("  - row", hidden_ref="c0p0f0e7") == Node("row", "", (), "", "c0p0f0e7")
    assert parse_line("  - paragraph:") == Node("paragraph", "", (), "", None)


def test_compare_names_states_values_text_and_new_refs():
    d = delta.compare(BEFORE, {}, AFTER, {}, frozenset(), BEFORE_IDS, AFTER_IDS)
    changed = {(c["ref"], c["role"]): (c["was"], c["name"], c.get("states"), c.get("value")) for c in d["changed"]}
    assert changed[("c0p0f0e1", "button")][0]["name"] == "Add to cart"
    assert changed[("c0p0f0e1", "button")][1] == "Added"
    assert changed[("c0p0f0e3", "checkbox")][2] == ["checked"]
    assert changed[("c0p0f0e4", "textbox")][3] == "hello"
    assert changed[(None, "heading")][1] == "Cart (1)"
    assert changed[(None, "text")][0]["name"] == "Total: $0.00" and changed[(None, "text")][1] == "Total: $12.00"
    assert [(a["ref"], a["role"], a["name"]) for a in d["added"]] == [
        ("c0p0f0e5", "button", "Re-render"), (None, "list", ""), (None, "listitem", "")]
    assert [(r["ref"], r["name"]) for r in d["removed"]] == [("c0p0f0e2", "Re-render")]


def test_identical_texts_and_hidden_refs():
    assert delta.compare(BEFORE, {}, BEFORE, {}) == {"added": [], "removed": [], "changed": []}
    rows_a = "- document:\n  - row: a\n  - row: b"
    # the same text, but the second row is another element now (compact mode hid its ref)
    d = delta.compare(rows_a, {1: "c0p0f0e1", 2: "c0p0f0e2"}, rows_a, {1: "c0p0f0e1", 2: "c0p0f0e3"})
    assert [a["ref"] for a in d["added"]] == ["c0p0f0e3"] and [r["ref"] for r in d["removed"]] == ["c0p0f0e2"]


def test_nodes_without_refs_pair_by_identity_only():
    a = "- document:\n  - tabpanel \"One\":\n    - paragraph: first\n  - text: Status: idle"
    b = "- document:\n  - tabpanel \"Two\":\n    - paragraph: second\n  - text: Status: busy"
    # two other panels (other DOM nodes), the same text run edited in place
    d = delta.compare(a, {}, b, {}, frozenset(), [K, K | 1, K | 2, K | 3], [K, K | 4, K | 5, K | 3])
    assert [(x["role"], x["name"], x.get("value")) for x in d["removed"]] == [
        ("tabpanel", "One", None), ("paragraph", "", "first")]
    assert [(x["role"], x["name"], x.get("value")) for x in d["added"]] == [
        ("tabpanel", "Two", None), ("paragraph", "", "second")]
    assert [(c["was"]["name"], c["name"]) for c in d["changed"]] == [("Status: idle", "Status: busy")]
    # the same line, but another node: removed and added, never unchanged
    same = delta.compare(a, {}, a, {}, frozenset(), [K, K | 1, K | 2, K | 3], [K, K | 1, K | 9, K | 3])
    assert [x.get("value") for x in same["removed"]] == ["first"]
    assert [x.get("value") for x in same["added"]] == ["first"]
    # a frame that navigated: its identities name nodes of another document
    f1 = 2 << 42
    moved = delta.compare(a, {}, a, {}, frozenset({1}), [K, f1 | 1, f1 | 2, K | 3], [K, f1 | 1, f1 | 2, K | 3])
    assert delta.count(moved) == 0  # nothing differs between the lines, so nothing is compared
    c = "- document:\n  - paragraph: x"
    d = "- document:\n  - paragraph: y"
    moved = delta.compare(c, {}, d, {}, frozenset({1}), [K, f1 | 1], [K, f1 | 1])
    assert (len(moved["removed"]), len(moved["added"]), moved["changed"]) == (1, 1, [])


def test_a_navigated_frame_makes_its_refs_new_elements():
    a = '- document:\n  - button "Go" [ref=c0p0f1e1]'
    b = '- document:\n  - button "Go!" [ref=c0p0f1e1]'
    same = delta.compare(a, {}, b, {})
    assert [c["ref"] for c in same["changed"]] == ["c0p0f1e1"]
    moved = delta.compare(a, {}, b, {}, navigated=frozenset({1}))
    assert [x["name"] for x in moved["removed"]] == ["Go"] and [x["name"] for x in moved["added"]] == ["Go!"]


def test_a_page_rebuilt_wholesale_falls_back_to_multisets(monkeypatch):
    monkeypatch.setattr(delta, "MATCH_LIMIT", 10)
    a = "- document:\n" + "\n".join(f"  - text: line {i}" for i in range(20))
    b = "- document:\n" + "\n".join(f"  - text: line {i}" for i in range(5, 25))
    d = delta.compare(a, {}, b, {})
    assert [x["name"] for x in d["removed"]] == [f"line {i}" for i in range(5)]
    assert [x["name"] for x in d["added"]] == [f"line {i}" for i in range(20, 25)]


lines = st.lists(st.sampled_from(['  - button "A" [ref=c0p0f0e1]', '  - button "B" [ref=c0p0f0e2]',
                                  "  - text: x", "  - text: y", '  - heading "H" [level=1]', "  - row: r"]),
                 max_size=12, unique_by=lambda s: s if "ref=" in s else object())


@settings(max_examples=200, deadline=None)
@given(lines, lines)
def test_counts_balance(old, new):
    """Whatever the texts, every node of each side is accounted for exactly once."""
    a, b = "\n".join(["- document:"] + old), "\n".join(["- document:"] + new)
    d = delta.compare(a, {}, b, {})
    kept_old = len(old) - len(d["removed"]) - len(d["changed"])
    kept_new = len(new) - len(d["added"]) - len(d["changed"])
    assert kept_old == kept_new >= 0
    if old == new:
        assert delta.count(d) == 0


def test_change_lines_say_only_what_differs():
    from verdex_cli.ui.render_changes import lines

    d = delta.compare(BEFORE, {}, AFTER, {}, frozenset(), BEFORE_IDS, AFTER_IDS)
    text = [line for line, _ in lines(d)]
    assert '~ button "Add to cart" -> "Added" [ref=c0p0f0e1]' in text
    assert '~ checkbox "Gift wrap" -> [checked] [ref=c0p0f0e3]' in text
    assert '~ textbox "Note": "" -> "hello" [ref=c0p0f0e4]' in text
    assert "~ text: Total: $0.00 -> Total: $12.00" in text
    assert '+ button "Re-render" [ref=c0p0f0e5]' in text and '- button "Re-render" [ref=c0p0f0e2]' in text


def test_containers_without_a_name_share_one_line_under_an_action():
    from verdex_cli.ui.render_changes import lines

    d = {"added": [{"ref": None, "role": "list", "name": ""}, {"ref": "c0p0f0e9", "role": "button", "name": "Remove"},
                   {"ref": None, "role": "listitem", "name": ""}, {"ref": None, "role": "text", "name": "Mug"}],
         "removed": [{"ref": None, "role": "group", "name": ""}], "changed": []}
    folded = [line for line, _ in lines(d, fold=True)]
    assert folded == ['+ button "Remove" [ref=c0p0f0e9]', "+ text: Mug", "+ list, listitem (no name)",
                      "- group (no name)"]
    assert [line for line, _ in lines(d)][:2] == ["+ list", '+ button "Remove" [ref=c0p0f0e9]']  # diff: each


def test_nodes_drawn_anew_share_one_line_under_an_action_and_diff_lists_each():
    from verdex_cli.ui.render_changes import lines

    def button(ref, name):
        return {"ref": ref, "role": "button", "name": name}

    # a cart rebuilt after one more item came: two rows drawn anew, one new row, one row gone
    d = {"removed": [{"ref": None, "role": "listitem", "name": ""}, button("c0p0f0e1", "Remove"),
                     button("c0p0f0e2", "Remove"), {"ref": "c0p0f0e3", "role": "link", "name": "Mug"}],
         "added": [{"ref": None, "role": "listitem", "name": ""}, button("c0p0f0e4", "Remove"),
                   {"ref": "c0p0f0e5", "role": "link", "name": "Lamp"}, button("c0p0f0e6", "Remove"),
                   button("c0p0f0e7", "Remove")],
         "changed": [{"ref": None, "role": "text", "name": "3 items", "was": {"role": "text", "name": "2 items"}}]}
    folded = [line for line, _ in lines(d, fold=True)]
    assert folded == ['+ link "Lamp" [ref=c0p0f0e5]', '+ button "Remove" [ref=c0p0f0e7]', '- link "Mug" [ref=c0p0f0e3]',
                      "~ text: 2 items -> 3 items",
                      '~ 2 re-rendered (old refs gone): button "Remove" c0p0f0e4, "Remove" c0p0f0e6']
    assert len(lines(d)) == 10  # diff: each node


def test_history_keeps_twenty_snapshots_and_bounds_their_text(monkeypatch):
    from verdex_cli.refs import page_state
    from verdex_cli.snapshot.model import Snapshot

    numbers = iter(range(1, 100))

    def fake(page, store, **kw):
        n = next(numbers)
        return Snapshot(n, "- document:\n  - text: " + "x" * size, {}, {}, []), False

    monkeypatch.setattr(page_state, "cached_snapshot", fake)
    state = page_state.PageState("c0p0")
    size = 10
    for _ in range(25):
        state.snapshot(page=None)
    assert [s.number for s in state.history] == list(range(6, 26))
    monkeypatch.setattr(page_state, "HISTORY_CHARS", 1000)
    size = 400
    for _ in range(3):
        state.snapshot(page=None)
    assert [s.number for s in state.history] == [27, 28]  # never fewer than two
    assert state.diff()["from"] == 27
