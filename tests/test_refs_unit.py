"""Refs without a browser: parsing/formatting, the name-change rule, and the RefStore's history and diff."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verdex_cli.base.errors import RefError
from verdex_cli.refs.store import Ref, RefStore, describe, name_change, parse_ref
from verdex_cli.snapshot.model import FrameInfo, RefInfo, Snapshot


def invalid_message(text: str) -> str:
    return f"Invalid ref '{text}'. Expected c{{context}}p{{page}}f{{frame}}e{{n}}, e.g. c0p0f0e3."


# -- parse / format ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, parts", [
    ("c0p0f0e1", (0, 0, 0, 1)),
    ("c0p0f0e3", (0, 0, 0, 3)),
    ("c2p13f4e120", (2, 13, 4, 120)),
    ("c10p0f7e99999", (10, 0, 7, 99999)),
    ("  c0p1f2e3\t", (0, 1, 2, 3)),  # surrounding whitespace from a command line is tolerated
])
def test_parse_valid(text, parts):
    ref = parse_ref(text)
    assert (ref.context, ref.page, ref.frame, ref.n) == parts
    assert str(ref) == text.strip()


@pytest.mark.parametrize("text", [
    "x", "", "c0p0f0", "c0p0f0e", "c0p0f0e0", "c0p0f0e00", "c0p0f0e-1", "p0f0e1", "c0f0e1", "c0p0e1",
    "C0P0F0E1", "c0p0f0e1x", "xc0p0f0e1", "c0 p0f0e1", "e3", "3", "c0p0f0e1.5", "c-1p0f0e1", "c0p0f0e1 e2",
    "ref=c0p0f0e1", "[ref=c0p0f0e1]", "c0p0f0e\u0663",
])
def test_parse_invalid_exact_message(text):
    with pytest.raises(RefError) as info:
        parse_ref(text)
    assert info.value.kind == "invalid_ref"
    assert info.value.message == invalid_message(text)


def test_e0_is_invalid():
    """Counters start at 1: e0 is never a ref."""
    with pytest.raises(RefError) as info:
        parse_ref("c0p0f0e0")
    assert info.value.kind == "invalid_ref"
    assert info.value.message == "Invalid ref 'c0p0f0e0'. Expected c{context}p{page}f{frame}e{n}, e.g. c0p0f0e3."


def test_ref_is_a_value():
    assert parse_ref("c1p2f3e4") == Ref(1, 2, 3, 4)
    assert {parse_ref("c1p2f3e4"), Ref(1, 2, 3, 4)} == {Ref(1, 2, 3, 4)}
    assert str(Ref(0, 0, 0, 3)) == "c0p0f0e3"


indices = st.integers(min_value=0, max_value=10**9)


@settings(max_examples=300, deadline=None)
@given(c=indices, p=indices, f=indices, n=st.integers(min_value=1, max_value=10**9))
def test_format_parse_round_trip(c, p, f, n):
    ref = Ref(c, p, f, n)
    text = str(ref)
    assert text == f"c{c}p{p}f{f}e{n}"
    assert parse_ref(text) == ref
    assert str(parse_ref(text)) == text


CANONICAL = re.compile(r"c(0|[1-9][0-9]*)p(0|[1-9][0-9]*)f(0|[1-9][0-9]*)e[1-9][0-9]*", re.ASCII)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="cpfe0123456789 x-", max_size=14) | st.text(max_size=12))
def test_parse_accepts_exactly_the_format(text):
    """Canonical refs round-trip; everything else is invalid_ref with the exact message."""
    core = text.strip()
    if CANONICAL.fullmatch(core):
        assert str(parse_ref(text)) == core
        return
    with pytest.raises(RefError) as info:
        parse_ref(text)
    assert info.value.kind == "invalid_ref"
    assert info.value.message == invalid_message(text)


@pytest.mark.parametrize("text", ["c00p0f0e1", "c0p01f0e1", "c0p0f00e1", "c0p0f0e01"])
def test_leading_zeros_are_invalid(text):
    with pytest.raises(RefError) as info:
        parse_ref(text)
    assert info.value.kind == "invalid_ref"


@pytest.mark.parametrize("text", ["c\u0660p0f0e1", "c0p\u0661f0e1", "c0p0f\u0662e1", "c0p0f0e1\u0663"])
def test_non_ascii_digits_are_invalid(text):
    with pytest.raises(RefError) as info:
        parse_ref(text)
    assert info.value.kind == "invalid_ref"


# -- the name-change rule ------------------------------------------------------------------------

@pytest.mark.parametrize("old, new", [("Save", "Save"), ("", ""), ("Add to cart", "Add to cart")])
def test_name_same(old, new):
    assert name_change(old, new) == "same"


@pytest.mark.parametrize("old, new", [
    ("Button 1", "Button  1"),        # whitespace
    ("Button 1", " Button 1 "),       # whitespace at the ends
    ("Button 1", "Button\n1"),        # newline is whitespace
    ("Save", "SAVE"),                 # case
    ("Add to cart", "add TO Cart"),   # case
    ("Submit", "Submit order"),       # old contained in new
    ("Submit order", "Submit"),       # new contained in old
    ("Cart", "Cart (3)"),
    ("Button 1", "button  1 (x)"),    # whitespace + case + containment together
    ("Add to cart", "Add to cart (2)"),  # an added count
    ("Add to cart", "Add to cart (1)"),
    ("Save", "Save!"),                # punctuation only
    ("Save draft", "save-draft"),
    ("E-mail", "e mail"),
    ("New messages", "3 new messages"),  # whole-word suffix
    ("Download", "Download report.pdf"),
    ("+", " + "),                     # symbols only, same symbols
    ("", "Close"),                    # an unnamed element got a name
    ("Größe", "GRÖSSE"),              # case folding beyond ASCII
])
def test_name_minor(old, new):
    assert name_change(old, new) == "minor"


@pytest.mark.parametrize("old, new", [
    ("Button 1", "Zebra"),
    ("Submit", "Loading..."),
    ("Save", "Saving..."),      # not contained: 'saving' does not contain 'save'
    ("Add to cart", "Added"),
    ("Button 1", "Button 2"),
    ("Item 1", "Item 12"),            # a number changed: a recycled row shows another item
    ("Item 12", "Item 1"),
    ("Row 3 of 10", "Row 4 of 10"),
    ("Add to cart (1)", "Add to cart (2)"),
    ("Button 1", "utton 1"),          # part of a word is not a word
    ("Submit", "Submitting"),
    ("Delete Alice", "Delete Bob"),
    ("Open settings menu", "Open menu"),  # a word in the middle went away
    ("+", "-"),                       # symbols only, another symbol
])
def test_name_significant(old, new):
    assert name_change(old, new) == "significant"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20), st.text(max_size=20))
def test_name_rule_properties(a, b):
    """Symmetric; case and whitespace never matter; a name plus an extra word is never significant."""
    assert name_change(a, b) in ("same", "minor", "significant")
    assert (name_change(a, b) == "significant") == (name_change(b, a) == "significant")
    assert name_change(a, a.upper() if a.upper().casefold() == a.casefold() else a) != "significant"
    assert name_change(a, " ".join(a.split())) != "significant"
    assert name_change(a, f"{a} extra") != "significant"
    assert name_change(a, f"(9) {a}") != "significant"


def test_describe():
    assert describe("button", "Submit") == 'button "Submit"'
    assert describe("main", "") == "main"


# -- RefStore: recording, statuses, history -----------------------------------------------------

def snap(no: int, refs: dict[str, tuple[str, str]], frames=(0,)) -> Snapshot:
    infos = {r: RefInfo(r, role, name, int(r.split("f")[1].split("e")[0]), 1) for r, (role, name) in refs.items()}
    fis = [FrameInfo(i, f"http://x/{i}", "", False) for i in frames]
    return Snapshot(no, "", {}, infos, fis)


def record(store: RefStore, refs: dict[str, tuple[str, str]], loaders=None):
    loaders = loaders or {0: "L0"}
    s = snap(store.next_number(), refs, tuple(loaders))
    store.record(s, loaders, set(loaders))
    return s


def test_store_issue_and_history():
    store = RefStore("c0p0")
    assert store.next_number() == 1
    record(store, {"c0p0f0e1": ("button", "Save"), "c0p0f0e2": ("link", "Home")})
    rec = store.get("c0p0f0e1")
    assert (rec.role, rec.name, rec.first_seen, rec.last_seen, rec.status) == ("button", "Save", 1, 1, "live")
    assert rec.history == ['issued in snapshot #1 as button "Save"']

    record(store, {"c0p0f0e1": ("button", "Saving..."), "c0p0f0e2": ("link", "Home")})
    rec = store.get("c0p0f0e1")
    assert (rec.name, rec.first_seen, rec.last_seen) == ("Saving...", 1, 2)
    assert "name 'Save' -> 'Saving...' in #2" in rec.history

    record(store, {"c0p0f0e1": ("link", "Saving..."), "c0p0f0e2": ("link", "Home")})
    assert "role button -> link in #3" in store.get("c0p0f0e1").history
    assert store.get("c0p0f0e2").history == ['issued in snapshot #1 as link "Home"']
    assert store.snapshot_no == 3
    assert store.get("c0p0f0e99") is None


def test_store_missing_then_removed_then_seen_again():
    store = RefStore("c0p0")
    record(store, {"c0p0f0e1": ("button", "A"), "c0p0f0e2": ("button", "B")})
    record(store, {"c0p0f0e1": ("button", "A")})
    rec = store.get("c0p0f0e2")
    assert rec.status != "live"  # not in the latest snapshot
    assert rec.last_seen == 1
    store.set_status("c0p0f0e2", "removed")
    assert rec.status == "removed"
    assert any(h.startswith("removed") for h in rec.history)
    store.set_status("c0p0f0e2", "removed")  # idempotent: one history line
    assert sum(h.startswith("removed") for h in rec.history) == 1
    record(store, {"c0p0f0e1": ("button", "A"), "c0p0f0e2": ("button", "B")})
    assert rec.status == "live" and rec.last_seen == 3
    assert "seen again in #3" in rec.history


def test_store_completions_and_live_count():
    store = RefStore("c0p0")
    record(store, {"c0p0f0e1": ("button", "Save"), "c0p0f0e2": ("link", "Home"), "c0p0f0e3": ("button", "Gone")})
    record(store, {"c0p0f0e1": ("button", "Save"), "c0p0f0e2": ("link", "Home"), "c0p0f0e3": ("button", "Gone")})
    store.set_status("c0p0f0e3", "removed")
    comps = dict(store.completions())
    assert comps == {"c0p0f0e1": 'button "Save"', "c0p0f0e2": 'link "Home"'}
    assert store.live_count() == 2


def test_store_frame_navigation_drops_only_that_frames_refs():
    store = RefStore("c0p0")
    numbers = store.numbers  # what the frames' bridges would tell it (browser/numbering.py)
    numbers.start(0, "L0", "L0"), numbers.start(1, "F1a", "L0")
    numbers.note(0, 1), numbers.note(1, 1)
    record(store, {"c0p0f0e1": ("button", "Top"), "c0p0f1e1": ("button", "Inner")}, {0: "L0", 1: "F1a"})
    # frame 1 now shows another document: it numbers on
    assert numbers.start(1, "F1b", "L0") == (1, True)
    numbers.note(1, 2)
    record(store, {"c0p0f0e1": ("button", "Top"), "c0p0f1e2": ("link", "Other")}, {0: "L0", 1: "F1b"})
    inner = store.get("c0p0f1e2")
    assert (inner.role, inner.name, inner.first_seen) == ("link", "Other", 2)
    assert inner.history == ['issued in snapshot #2 as link "Other"']
    old = store.get("c0p0f1e1")  # let go of, still known as of the earlier document
    assert (old.status, old.loader, old.retired, old.role, old.name) == ("navigated", "F1a", "L0", "button", "Inner")
    assert store.get("c0p0f0e1").first_seen == 1


def test_store_reset():
    store = RefStore("c0p0")
    record(store, {"c0p0f0e1": ("button", "Save")})
    record(store, {"c0p0f0e1": ("button", "Save")})
    store.reset()
    assert store.get("c0p0f0e1").status == "reset"  # its story is kept; it names nothing
    assert store.completions() == [] and store.records == {}


# -- RefStore: tombstones (bounded memory) --------------------------------------------------------

def record_gone(store: RefStore, refs: dict[str, tuple[str, str]], gone: list[int], loaders=None):
    loaders = loaders or {0: "L0"}
    s = snap(store.next_number(), refs, tuple(loaders))
    s.frames[0].gone = gone
    store.record(s, loaders, set(loaders))
    return s


def test_store_buries_dropped_refs_and_still_knows_them_as_removed():
    store = RefStore("c0p0")
    record(store, {"c0p0f0e1": ("button", "Keep"), "c0p0f0e2": ("button", "Old"), "c0p0f0e3": ("link", "Gone")})
    record_gone(store, {"c0p0f0e1": ("button", "Keep")}, gone=[2, 3])
    assert set(store.records) == {"c0p0f0e1"}
    assert store.tombstone_count == 2
    rec = store.get("c0p0f0e2")
    assert rec is not None and rec.status == "removed"
    assert (rec.role, rec.name, rec.frame, rec.loader) == ("button", "Old", 0, "L0")
    assert store.get("c0p0f0e4") is None          # never issued: unknown
    assert store.get("c0p0f1e2") is None          # another frame
    assert store.get("c0p1f0e2") is None          # another page's prefix


def test_store_tombstone_cleared_when_the_element_comes_back_or_the_document_changes():
    store = RefStore("c0p0")
    record(store, {"c0p0f0e1": ("button", "A"), "c0p0f0e2": ("button", "B")})
    record_gone(store, {"c0p0f0e1": ("button", "A")}, gone=[2])
    record(store, {"c0p0f0e1": ("button", "A"), "c0p0f0e2": ("button", "B again")})  # re-attached
    assert store.tombstone_count == 0 and store.get("c0p0f0e2").status == "live"
    record_gone(store, {"c0p0f0e1": ("button", "A")}, gone=[2])
    assert store.tombstone_count == 1
    record(store, {"c0p0f0e1": ("button", "New page")}, loaders={0: "L1"})  # a new document
    assert store.tombstone_count == 0 and store.get("c0p0f0e2").loader == "L0"  # its story, of the old document
    record_gone(store, {"c0p0f0e1": ("button", "New page")}, gone=[1], loaders={0: "L1"})
    store.reset()
    assert store.tombstone_count == 0 and store.get("c0p0f0e1").status == "removed"


def test_store_stays_bounded_across_many_rerenders():
    """500 new refs per snapshot, the page lets go of each after a few snapshots: records stay flat."""
    from verdex_cli.refs.store import GONE

    store = RefStore("c0p0")
    per, keep = 500, 5
    for k in range(60):
        refs = {f"c0p0f0e{k * per + i + 1}": ("button", f"Button {i}") for i in range(per)}
        gone = list(range((k - keep) * per + 1, (k - keep + 1) * per + 1)) if k >= keep else []
        record_gone(store, refs, gone)
    assert len(store.records) == keep * per  # the last `keep` rounds; older ones are buried
    assert len(store.gone) <= GONE
    assert store.tombstone_count == (60 - keep) * per
    assert len(store.tombs[0]) <= 60 * per // 8 + 1  # one bit per ref number
    assert store.get("c0p0f0e1").status == "removed"  # the oldest: name forgotten, still removed
    assert store.get(f"c0p0f0e{(60 - keep) * per}").name == f"Button {per - 1}"


def test_history_is_bounded():
    store = RefStore("c0p0")
    for i in range(200):
        record(store, {"c0p0f0e1": ("button", f"Count {i}")})
    hist = store.get("c0p0f0e1").history
    assert len(hist) <= 30
    assert hist[0] == 'issued in snapshot #1 as button "Count 0"'
    assert hist[-1] == "name 'Count 198' -> 'Count 199' in #200"
