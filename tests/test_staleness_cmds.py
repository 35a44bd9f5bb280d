"""Staleness you can see: `refs`, `inspect`, `diff`, and REPL completion of refs."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from verdex_cli.commands import REGISTRY
from verdex_cli.ui.repl.completer import VerdexCompleter
from conftest import ref_of, refs_named


def rows(driver) -> dict[str, dict]:
    res = driver.ok("refs")
    return {row["ref"]: row for row in res.data["refs"]}


@pytest.fixture
def shop(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    return driver, driver.ok("snapshot")


# -- refs ----------------------------------------------------------------------------------------------

def test_refs_before_any_snapshot(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    res = driver.ok("refs")
    assert res.data["refs"] == []
    assert res.notes == ["No refs yet. Take a snapshot."]


def test_refs_table_statuses(shop, demo):
    """Statuses against the last explicit snapshot (--no-changes: actions capture nothing themselves)."""
    driver, s1 = shop
    driver.ctx.show_changes = False
    save, rerender = ref_of(s1, "Save"), ref_of(s1, "Re-render me")
    home = ref_of(s1, "Home", "link")
    table = rows(driver)
    assert set(table) == set(s1.data["refs"])
    assert table[save] == {"ref": save, "role": "button", "name": "Save", "status": "live", "first_seen": 1,
                           "last_seen": 1, "frame": 0}
    assert all(r["status"] == "live" for r in table.values())

    driver.ok(f"click {save}")       # Save -> Saving... : a significant rename, not yet snapshotted
    driver.ok(f"click {rerender}")   # replaced by a new element
    table = rows(driver)
    assert table[save]["status"] == "changed"
    assert table[save]["name"] == "Save"  # the table shows what the snapshot saw
    assert table[rerender]["status"] == "removed"
    assert table[home]["status"] == "live"

    s2 = driver.ok("snapshot")
    fresh = ref_of(s2, "Re-render me")
    assert fresh != rerender
    table = rows(driver)
    assert table[save]["status"] == "live"
    assert (table[save]["name"], table[save]["first_seen"], table[save]["last_seen"]) == ("Saving...", 1, 2)
    assert (table[fresh]["first_seen"], table[fresh]["last_seen"], table[fresh]["status"]) == (2, 2, "live")
    assert (table[rerender]["last_seen"], table[rerender]["status"]) == (1, "removed")
    assert driver.ok("refs").data["snapshot"] == 2

    driver.js("document.getElementById('save').hidden = true")
    assert rows(driver)[save]["status"] == "hidden"
    driver.js("document.getElementById('save').hidden = false")
    assert rows(driver)[save]["status"] == "live"

    driver.ok("open " + demo.url("mutations.html"))
    table = rows(driver)
    main_rows = [r for r in table.values() if r["frame"] == 0]
    assert main_rows and all(r["status"] == "navigated" for r in main_rows)


def test_refs_json(shop):
    driver, s1 = shop
    js = driver.run("refs").as_json()
    assert js["ok"] is True
    assert {r["ref"] for r in js["result"]["refs"]} == set(s1.data["refs"])
    assert {"ref", "role", "name", "status", "first_seen", "last_seen"} <= set(js["result"]["refs"][0])


# -- inspect ------------------------------------------------------------------------------------------------

def test_inspect_live_element(shop):
    driver, s1 = shop
    save = ref_of(s1, "Save")
    res = driver.ok(f"inspect {save}")
    d = res.data
    assert (d["ref"], d["role"], d["name"], d["status"], d["tag"]) == (save, "button", "Save", "live", "button")
    assert d["attributes"]["id"] == "save" and d["attributes"]["type"] == "button"
    assert d["box"]["width"] > 0 and d["box"]["height"] > 0
    assert d["history"] == ['issued in snapshot #1 as button "Save"']
    assert (d["first_seen"], d["last_seen"]) == (1, 1)


def test_inspect_history_rename_and_removal(shop):
    driver, s1 = shop
    save = ref_of(s1, "Save")
    driver.ok(f"click {save}")
    driver.ok("snapshot")                       # #2 sees "Saving..."
    d = driver.ok(f"inspect {save}").data
    assert d["status"] == "live" and d["name"] == "Saving..."
    assert d["history"] == ['issued in snapshot #1 as button "Save"', "name 'Save' -> 'Saving...' in #2"]

    driver.js("document.getElementById('save').textContent = 'Something else'")  # not yet snapshotted
    d = driver.ok(f"inspect {save}").data
    assert d["status"] == "changed"
    assert d["current"] == {"role": "button", "name": "Something else"}
    assert any("Something else" in h for h in d["history"])

    driver.js("document.getElementById('save').remove()")
    driver.ok("snapshot")                       # #3 no longer shows it
    d = driver.ok(f"inspect {save}").data
    assert d["status"] == "removed"
    assert "no longer exists" in d["reason"]
    assert d["history"][:2] == ['issued in snapshot #1 as button "Save"', "name 'Save' -> 'Saving...' in #2"]
    assert d["last_seen"] == 2
    assert any(h.startswith("removed") and "#3" in h for h in d["history"])


def test_inspect_first_call_after_removal_shows_removal_in_history(shop):
    driver, s1 = shop
    save = ref_of(s1, "Save")
    driver.js("document.getElementById('save').remove()")
    driver.ok("snapshot")
    d = driver.ok(f"inspect {save}").data
    assert d["status"] == "removed"
    assert any(h.startswith("removed") and "#2" in h for h in d["history"])


def test_inspect_navigated_and_unknown(shop, demo):
    driver, s1 = shop
    save = ref_of(s1, "Save")
    driver.ok("open " + demo.url("mutations.html"))
    d = driver.ok(f"inspect {save}").data
    assert d["status"] == "navigated"
    assert d["reason"].startswith(f"Ref '{save}' is from a previous page")
    out = driver.fail("inspect c0p0f0e999", "unknown_ref")
    assert out.message.startswith("Ref 'c0p0f0e999' was never issued in this tab (the highest is c0p0f0e")


# -- diff -----------------------------------------------------------------------------------------------------

def test_diff_needs_two_snapshots(shop):
    driver, _ = shop
    res = driver.ok("diff")
    assert res.data["from"] is None
    assert res.data["added"] == res.data["removed"] == res.data["changed"] == []
    assert res.notes == ["Need two snapshots to compare; take another snapshot."]
    assert driver.run("diff").as_json()["result"]["notes"] == res.notes


def test_diff_lists_added_removed_changed(shop):
    driver, s1 = shop
    adds = refs_named(s1, "Add to cart")
    old_checkout = ref_of(s1, "Checkout")
    driver.ok(f"click {adds[0]}")   # renames to "Added", re-renders the cart (new Remove + Checkout)
    s2 = driver.ok("snapshot")
    d = driver.ok("diff").data
    assert (d["from"], d["to"]) == (1, 2)
    added = {(a["ref"], a["role"], a["name"]) for a in d["added"] if a["ref"]}
    assert added == {(ref_of(s2, "Remove"), "button", "Remove"), (ref_of(s2, "Checkout"), "button", "Checkout")}
    assert [r for r in d["removed"] if r["ref"]] == [{"ref": old_checkout, "role": "button", "name": "Checkout",
                                                      "states": ["disabled"]}]
    assert [c for c in d["changed"] if c["ref"]] == [{"ref": adds[0], "role": "button", "name": "Added",
                                                      "was": {"role": "button", "name": "Add to cart"}}]
    assert ("text", "Coffee mug × 1 — $12.00") in {(a["role"], a["name"]) for a in d["added"] if not a["ref"]}
    # a third snapshot with no change: the diff is empty (only the last two count)
    driver.ok("snapshot --fresh")  # a capture (an unchanged page is otherwise answered from the cache)
    d = driver.ok("diff").data
    assert (d["from"], d["to"]) == (2, 3)
    assert d["added"] == d["removed"] == d["changed"] == []


def test_diff_role_change(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    s1 = driver.ok("snapshot")
    driver.js("demo.setRole('b3', 'link'); demo.remove('b5'); demo.insert()")
    s2 = driver.ok("snapshot")
    d = driver.ok("diff").data
    assert [c for c in d["changed"] if c["ref"]] == [{"ref": ref_of(s1, "Button 3"), "role": "link",
                                                      "name": "Button 3", "was": {"role": "button", "name": "Button 3"}}]
    assert [r["ref"] for r in d["removed"] if r["ref"]] == [ref_of(s1, "Button 5")]
    assert [(r["ref"], r["name"]) for r in d["added"] if r["ref"]] == [(ref_of(s2, "Button 6"), "Button 6")]


# -- completion ------------------------------------------------------------------------------------------------

def complete(driver, text: str):
    completer = VerdexCompleter(REGISTRY, refs=lambda: driver.ctx.page_state().store.completions())
    return list(completer.get_completions(Document(text), CompleteEvent()))


def test_completion_of_refs_with_role_and_name(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    assert complete(driver, "click ") == []  # no snapshot yet
    s1 = driver.ok("snapshot")
    got = {c.text: c.display_meta_text for c in complete(driver, "click ")}
    assert got == {r: f'{i["role"]} "{i["name"]}"' for r, i in s1.data["refs"].items()}
    b1 = ref_of(s1, "Button 1")
    assert got[b1] == 'button "Button 1"'

    for cmd in ("dblclick", "hover", "focus", "scroll", "inspect"):
        assert {c.text for c in complete(driver, f"{cmd} ")} >= {b1}, cmd
    for cmd in ("type", "fill", "select", "check", "uncheck"):  # refs filtered by what the command accepts
        assert b1 not in {c.text for c in complete(driver, f"{cmd} ")}, cmd

    partial = complete(driver, "click c0p0f0e")
    assert {c.text for c in partial} == set(s1.data["refs"])
    assert all(c.start_position == -len("c0p0f0e") for c in partial)
    assert [c.text for c in complete(driver, f"hover {b1}")] == [b1]

    assert {c.text for c in complete(driver, "press ")} >= {b1}  # press [REF] KEY: the ref is optional
    assert not {c.text for c in complete(driver, "open ")} & set(s1.data["refs"])  # open takes a URL (or path)
    assert complete(driver, f"type {b1} ") == []           # the TEXT of type is not a ref

    driver.js("demo.remove('b2'); demo.insert()")
    b2 = ref_of(s1, "Button 2")
    s2 = driver.ok("snapshot")
    got = {c.text: c.display_meta_text for c in complete(driver, "click ")}
    assert got[ref_of(s2, "Button 6")] == 'button "Button 6"'
    assert b2 not in got


def test_refs_table_after_navigation_agrees_with_click(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    s1 = driver.ok("snapshot")
    driver.ok("open " + demo.url("shop.html"))
    table = rows(driver)
    assert set(table) == set(s1.data["refs"])
    child = next(r for r, i in s1.data["refs"].items() if i["frame"] == 1)
    assert driver.fail(f"click {child}").kind == "navigated"
    assert {r["status"] for r in table.values()} == {"navigated"}


def test_diff_across_navigation_does_not_pair_different_elements(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    s1 = driver.ok("snapshot")
    driver.ok("open " + demo.url("shop.html"))
    s2 = driver.ok("snapshot")
    assert s1.data["refs"]["c0p0f0e2"]["name"] == "Button 1"
    assert not set(s1.data["refs"]) & set(s2.data["refs"])  # the new document numbers on: no string is shared
    d = driver.ok("diff").data
    assert d["changed"] == []  # another document: nothing pairs up, not even the headings
    assert {r["ref"] for r in d["added"] if r["ref"]} == set(s2.data["refs"])
    assert {r["ref"] for r in d["removed"] if r["ref"]} == set(s1.data["refs"])
    assert ("heading", "Demo Shop") in {(r["role"], r["name"]) for r in d["added"]}


# -- one verdict everywhere ------------------------------------------------------------------------------

def test_refs_inspect_and_actions_give_one_verdict(shop):
    """`refs`, `inspect` and an action ask the same classify(): they never disagree about a ref (and
    inspect, like a snapshot line, is what the user was shown)."""
    driver, s1 = shop
    mug, notebook, lamp, phones = (r for r, i in s1.data["refs"].items() if i["name"] == "Add to cart")
    driver.ok("eval document.getElementById('add-notebook').textContent = 'Sold out'")   # changed
    driver.ok("eval document.getElementById('add-lamp').remove()")                        # removed
    driver.ok("eval document.getElementById('add-headphones').style.display = 'none'")  # hidden
    table = rows(driver)
    want = {mug: "live", notebook: "changed", lamp: "removed", phones: "hidden"}
    assert {r: table[r]["status"] for r in want} == want
    assert driver.fail(f"click {notebook}").kind == "changed"
    for ref, status in want.items():
        assert driver.ok(f"inspect {ref}").data["status"] == status
    # inspect showed the notebook's button as it is now ('Sold out'): a ref acts on what you were shown
    assert driver.ok(f"click {notebook}").data["name"] == "Sold out"
    assert driver.fail(f"click {lamp}").kind == "removed"
    assert driver.fail(f"click {phones}").kind == "not_actionable"
    assert rows(driver)[lamp]["status"] == "removed"  # the action's verdict is the one recorded
