"""The fuzzer's record oracle on fixed inputs: which record a snapshot line stands in, and how the judge
reads the page's log against it (the runner and the pages are exercised by test_truth_fuzz)."""

from __future__ import annotations

from fuzz_check import CORRECT, FALSE_FAILURE, FALSE_REFUSAL, REFUSED_OK, WRONG, Evidence, judge
from fuzz_run import records_of

GRID = """- document "Shop 0":
  - region "People":
    - button "Sort by name" [ref=c0p0f0e4]
    - table:
      - row:
        - cell "Zoe #g1"
        - cell:
          - button "Delete" [ref=c0p0f0e9]
      - row "Adam #g2 Delete":
        - button "Delete" [ref=c0p0f0e11]
    - list:
      - listitem:
        - text: Plums #lPlums
        - button "Remove Plums" [ref=c0p0f0e17]
      - listitem:
        - button "No token here" [ref=c0p0f0e18]
  - article:
    - heading "User Alice #u1" [level=2]
    - button "Delete user" [ref=c0p0f0e56]
  - iframe "Widget" [frame=f1] [ref=c0p0f0e7]:
    - button "Accept" [ref=c0p0f1e1]"""


def test_a_line_stands_in_the_record_of_its_nearest_row_item_or_article():
    refs = {r: {} for r in ("c0p0f0e4", "c0p0f0e9", "c0p0f0e11", "c0p0f0e17", "c0p0f0e18", "c0p0f0e56", "c0p0f0e7",
                            "c0p0f1e1")}
    assert records_of(GRID, refs) == {
        "c0p0f0e4": None, "c0p0f0e9": "g1", "c0p0f0e11": "g2", "c0p0f0e17": "lPlums", "c0p0f0e18": None,
        "c0p0f0e56": "u1", "c0p0f0e7": None, "c0p0f1e1": None}


def _did(kind: str, oid: str, rec: str | None) -> dict:
    return {"t": "did", "type": kind, "trusted": True, "oid": oid, "rec": rec, "path": [oid, "oid-3-1"], "doc": "3"}


def _ev(op: str, handled: list, probe: dict | None = None, **kw) -> Evidence:
    probe = probe or {"known": True, "connected": True, "rec": "g1", "text": "Delete"}
    return Evidence(op=op, line=f"{op} c0p0f0e9", ref="c0p0f0e9", oid="oid-3-9", ref_name="Delete", ref_role="button",
                    events=[dict(e, t="ev") for e in handled], handled=handled, probe=probe, shown_rec="g1", **kw)


OK = {"ok": True, "result": {"action": "click"}}


def test_an_ok_click_the_page_handled_in_another_row_is_a_wrong_record():
    # the grid was sorted by the page's own button; the same <button> node now stands in Adam's row
    verdict, detail = judge(_ev("click", [_did("click", "oid-3-9", "g2")]), OK)
    assert verdict == WRONG and "'g2'" in detail and "'g1'" in detail


def test_an_ok_click_in_the_row_shown_is_correct():
    assert judge(_ev("click", [_did("click", "oid-3-9", "g1")]), OK) == (CORRECT, "")


def test_changed_while_the_element_still_stands_in_the_record_shown_is_a_false_refusal():
    err = {"ok": False, "error": {"kind": "changed", "message": "Element changed since snapshot."}}
    assert judge(_ev("click", []), err)[0] == FALSE_REFUSAL
    moved = {"known": True, "connected": True, "rec": "g2", "text": "Delete"}
    assert judge(_ev("click", [], probe=moved), err) == (REFUSED_OK, "")


def test_an_error_after_the_page_handled_the_whole_click_is_a_false_failure():
    err = {"ok": False, "error": {"kind": "not_applied", "message": "was not clicked"}}
    assert judge(_ev("click", [_did("click", "oid-3-9", "g1")]), err)[0] == FALSE_FAILURE
    assert judge(_ev("dblclick", [_did("click", "oid-3-9", "g1")]), err)[0] != FALSE_FAILURE  # one click of two
    one = [_did("click", "oid-3-9", "g1"), _did("dblclick", "oid-3-9", "g1")]  # the first press went elsewhere
    assert judge(_ev("dblclick", one), err)[0] != FALSE_FAILURE
    assert judge(_ev("dblclick", [_did("click", "oid-3-9", "g1")] + one), err)[0] == FALSE_FAILURE


def test_a_type_error_is_a_false_failure_only_when_every_character_went_in():
    # seed 9793 action 2: the field went away after 2 of 4 characters; 'removed' was counted false
    err = {"ok": False, "error": {"kind": "removed", "message": "Element removed; no field like it took its place."}}
    gone = {"known": True, "connected": False, "rec": "g1", "text": ""}
    two = [_did("input", "oid-3-9", "g1")] * 2
    assert judge(_ev("type", two, probe=gone, arg="12ab"), err) == (REFUSED_OK, "")
    assert judge(_ev("type", two * 2, probe=gone, arg="12ab"), err)[0] == FALSE_FAILURE
    nav = {"ok": False, "error": {"kind": "navigated", "message": "Ref is from a previous page."}}
    assert judge(_ev("type", [], probe=gone, arg="", doc_gone=True), nav)[0] != FALSE_FAILURE  # seed 9920 action 14


def _ev_input(kind: str, oid: str) -> dict:
    return {"t": "ev", "type": kind, "trusted": True, "path": [oid, "oid-3-1"], "doc": "3"}


def test_a_click_whose_button_got_only_the_release_is_refused_correctly_when_the_refusal_says_so():
    # seeds 9764/238, 9767/235, 10004/34: a frame's button got only the release (the press went to what the
    # page moved away). No click happened on it: not_applied is true, when it says only the release came
    only_up = Evidence(op="click", line="click c0p0f1e2", ref="c0p0f1e2", oid="oid-3-9", ref_name="Next",
                       ref_role="button", events=[_ev_input("mouseup", "oid-3-9")],
                       probe={"known": True, "connected": True, "rec": None, "text": "Next"})
    said = {"ok": False, "error": {"kind": "not_applied", "message": "Element button \"Next\" got only the release of "
                                   "the click (pointerup, mouseup): the press went to another frame's document, so "
                                   "no click happened on the element."}}
    assert judge(only_up, said) == (REFUSED_OK, "")
    vague = {"ok": False, "error": {"kind": "not_applied", "message": "got only part of the click (mouseup)"}}
    assert judge(only_up, vague)[0] == FALSE_REFUSAL
    nothing = Evidence(**dict(only_up.__dict__, events=[]))
    assert judge(nothing, said)[0] == FALSE_REFUSAL
