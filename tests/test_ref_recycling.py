"""A recycled element is not the same thing; a refusal points to the way on.

recycling.html has virtual scrollers whose fixed pool of row nodes is rebound to other items, a list that
is re-rendered with new nodes, and two identical cards. A main-world click log records which item
received every click, so "the click hit the item the snapshot showed" is checked against the page itself.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from conftest import Driver

PAGE = (Path(__file__).resolve().parent / "fixtures" / "refs" / "recycling.html").as_uri()
SEED = 2024
STEPS = 160
REF = re.compile(r"\[ref=(c\d+p\d+f\d+e\d+)\]")
POOLS = ("plain", "keyed", "reorder")


def button_refs(snap) -> list[str]:
    """Refs of the page's buttons, in document order (the order of the snapshot text)."""
    refs = snap.data["refs"]
    return [r for r in REF.findall(snap.data["text"]) if refs[r]["role"] == "button"]


def ref_named(snap, name: str) -> str:
    hits = [r for r in button_refs(snap) if snap.data["refs"][r]["name"] == name]
    assert len(hits) == 1, (name, hits)
    return hits[0]


@pytest.fixture
def page(chrome_http):
    d = Driver(chrome_http, timeout=1)
    d.ok("open " + PAGE)
    yield d
    d.close()


def test_recycled_rows_are_refused_or_hit_the_item_the_snapshot_showed(page):
    """Random scrolls, snapshots and clicks of fresh and stale refs over three kinds of recycling list.

    A click must succeed exactly when the node still shows the item the snapshot saw (wherever its row
    node moved to), and then reach that item; otherwise it is refused as `changed` and reaches nothing.
    """
    rng = random.Random(SEED)
    print(f"\nrandom seed: {SEED}")
    d = page
    seen: dict[str, tuple[str, str, int, int]] = {}  # ref -> (list, uid, item, row index) at its snapshot
    starts = {"plain": 1, "keyed": 1}
    counts: Counter = Counter()

    def snapshot():
        snap = d.ok("snapshot")
        refs = button_refs(snap)
        live = d.js("lists.buttons()")
        assert len(refs) == len(live), (refs, live)
        for ref, b in zip(refs, live):
            if b["uid"] is None:
                continue  # re-rendered lists, covered by the tests below
            lst = d.js(f"document.querySelector('[data-uid={b['uid']}]').closest('section').querySelector('ul, "
                       "[role=list]').id")
            seen[ref] = (lst, b["uid"], d.js(f"lists.itemOf('{b['uid']}')"), b["index"])

    snapshot()
    for step in range(STEPS):
        for _ in range(rng.choice([0, 1, 1, 2])):
            which = rng.choice(POOLS)
            if which == "reorder":
                d.js(f"lists.scrollReorder({rng.choice([1, 1, 2])})")
            else:
                starts[which] = max(1, starts[which] + rng.choice([-3, -1, 0, 1, 2, 5]))
                d.js(f"lists.bind{which.capitalize()}({starts[which]})")
        if rng.random() < 0.2:
            snapshot()
        ref = rng.choice(sorted(seen))
        lst, uid, item, index = seen[ref]
        now_item = d.js(f"lists.itemOf('{uid}')")
        now_index = next(b["index"] for b in d.js("lists.buttons()") if b["uid"] == uid)
        out = d.run(f"click {ref}")
        got = d.js("window.log.splice(0)")
        where = f"step {step} (seed {SEED}): click {ref} ({lst} item {item} -> {now_item}, row {index} -> {now_index})"
        if now_item == item:
            assert out.ok, f"{where}: refused: {out.message}"
            assert got == [[lst, item]], f"{where}: clicks reached {got}"
            counts[f"{lst} ok"] += 1
            if out.result.data.get("changes") is not None:
                snapshot()  # the click's changes were a capture, shown to the user: the refs' new baseline
        else:
            assert not out.ok, f"{where}: succeeded, clicks reached {got}"
            assert out.kind == "changed", f"{where}: {out.kind}: {out.message}"
            assert got == [], f"{where}: refused but clicks reached {got}"
            counts[f"{lst} refused"] += 1
    print(f"outcomes: {dict(counts)}")
    for lst in POOLS:
        assert counts[f"{lst} refused"] > 0, counts
    assert counts["plain ok"] > 0 and counts["keyed ok"] > 0


def test_rebound_row_message_says_what_changed(page):
    d = page
    snap = d.ok("snapshot")
    item1 = ref_named(snap, "Item 1")
    select = button_refs(snap)[6]  # the keyed pool's first "Select"
    assert snap.data["refs"][select]["name"] == "Select"
    d.js("lists.bindPlain(11); lists.bindKeyed(11)")
    out = d.fail(f"click {item1}", "changed")
    assert out.message == ('Element changed since you saw it: its name changed from "Item 1" to "Item 11". '
                           'Was: button "Item 1"; now button "Item 11". Take a new snapshot.')
    out = d.fail(f"click {select}", "changed")
    assert out.message == ('Element changed since you saw it: its list item changed from "Item 1" (data-index 1) '
                           'to "Item 11" (data-index 11). Was: button "Select"; now the same button in another list '
                           'item. Take a new snapshot.')
    assert d.js("window.log") == []
    # after a new snapshot the same refs name the same nodes, now showing item 11
    snap = d.ok("snapshot")
    assert snap.data["refs"][item1]["name"] == "Item 11"
    d.ok(f"click {item1}")
    d.ok(f"click {select}")
    assert d.js("window.log") == [["plain", 11], ["keyed", 11]]


def test_keyed_rerender_removed_names_successor_that_then_works(page):
    d = page
    snap = d.ok("snapshot")
    old = ref_named(snap, "Entry 3")
    d.js("lists.render(1)")  # the same items, all new nodes
    out = d.fail(f"click {old}", "removed")
    m = re.fullmatch(r'Element button "Entry 3" \(ref (\S+)\) no longer exists\. '
                     r'A new button "Entry 3" is in its place: (c\d+p\d+f\d+e\d+)\. Take a new snapshot\.', out.message)
    assert m and m.group(1) == old, out.message
    successor = m.group(2)
    assert successor != old
    assert d.js("window.log") == []  # never acted on the successor unasked
    # the successor ref is usable at once, without a snapshot, and reaches item 3
    d.ok(f"click {successor}")
    assert d.js("window.log.splice(0)") == [["rendered", 3]]
    # it is a first-class ref: the next snapshot shows it under the same string
    snap = d.ok("snapshot")
    assert snap.data["refs"][successor]["name"] == "Entry 3"
    assert ref_named(snap, "Entry 3") == successor
    # and the old ref stays removed
    d.fail(f"click {old}", "removed")


def test_rerender_that_moves_the_item_still_names_the_same_record(page):
    d = page
    snap = d.ok("snapshot")
    old = ref_named(snap, "Entry 3")
    d.js("lists.render(2)")  # entry 3 (data-key 3, same text) is now the first row: the same record, moved
    out = d.fail(f"click {old}", "removed")
    m = re.fullmatch(r'Element button "Entry 3" \(ref (\S+)\) no longer exists\. '
                     r'A new button "Entry 3" is in its place: (c\d+p\d+f\d+e\d+)\. Take a new snapshot\.', out.message)
    assert m and m.group(1) == old, out.message
    assert d.js("window.log") == []
    d.ok(f"click {m.group(2)}")
    assert d.js("window.log.splice(0)") == [["rendered", 3]]


def test_several_successors_are_all_named(page):
    d = page
    snap = d.ok("snapshot")
    buys = [r for r in button_refs(snap) if snap.data["refs"][r]["name"] == "Buy"]
    assert len(buys) == 2
    d.js("lists.renderTwins()")
    out = d.fail(f"click {buys[0]}", "removed")
    m = re.fullmatch(r'Element button "Buy" \(ref (\S+)\) no longer exists\. New elements like it are in its place: '
                     r'button "Buy" (\S+), button "Buy" (\S+)\. Take a new snapshot\.', out.message)
    assert m and m.group(1) == buys[0], out.message
    new = [m.group(2), m.group(3)]
    assert not set(new) & set(buys)
    assert d.js("window.log") == []
    d.ok(f"click {new[1]}")
    assert d.js("window.log.splice(0)") == [["twins", "card 2"]]
    # the other old ref names the same two, with the same refs (issued once)
    out = d.fail(f"click {buys[1]}", "removed")
    assert new[0] in out.message and new[1] in out.message
