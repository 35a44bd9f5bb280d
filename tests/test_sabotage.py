"""Main-world sabotage: the page breaks every builtin of its own world it can reach (prototypes, JSON,
getComputedStyle, attachShadow, Array.prototype.push, window.close, querySelector, contains,
addEventListener, Function.prototype.call, ...). Snapshot and actions run in an isolated world and stay
correct; the page's own logger (which kept the real builtins) sees every action land on its target."""

from __future__ import annotations

from pathlib import Path

import pytest

PAGE = (Path(__file__).resolve().parent / "fixtures" / "refs" / "sabotage.html").as_uri()


def refs_by_name(snap) -> dict[str, str]:
    out = {}
    for r, i in snap.data["refs"].items():
        assert i["name"] not in out, f"duplicate name {i['name']!r}"
        out[i["name"]] = r
    return out


@pytest.fixture
def page(driver):
    driver.ok("open " + PAGE)
    assert driver.js("typeof Array.prototype.push") == "function"
    assert driver.js("(() => { try { [].push(1); return 'works'; } catch (e) { return e.message; } })()") == "sabotaged"
    return driver


def test_snapshot_is_unaffected(page):
    snap = page.ok("snapshot")
    refs = refs_by_name(snap)
    assert {"Name", "I agree", "Size", "Notes", "Save", "Item A", "Item B", "Shadow button", "Done link"} <= set(refs)
    roles = {n: snap.data["refs"][r]["role"] for n, r in refs.items()}
    assert roles["Name"] == "textbox" and roles["I agree"] == "checkbox" and roles["Size"] == "combobox"
    assert roles["Shadow button"] == "button" and roles["Done link"] == "link"
    assert 'heading "Sabotage" [level=1]' in snap.data["text"]
    again = page.ok("snapshot")
    assert again.data["refs"] == snap.data["refs"]


def test_actions_land_on_their_targets(page):
    refs = refs_by_name(page.ok("snapshot"))
    page.ok(f"click {refs['Save']}")
    page.ok(f"click {refs['Item B']}")
    page.ok(f"click {refs['Shadow button']}")
    out = page.ok(f"fill {refs['Name']} Ada Lovelace")
    assert out.data["value"] == "Ada Lovelace"
    out = page.ok(f"type {refs['Notes']} hello")
    assert out.data["value"] == "hello"
    out = page.ok(f"check {refs['I agree']}")
    assert out.data["checked"] is True
    page.ok(f"select {refs['Size']} Large")
    log = page.js("window.log")
    assert log[:3] == ["click save", "click b", "click inner"]
    assert "change agree" in log and "change size" in log
    # read back through the isolated world: the values really are there
    snap = page.ok("snapshot")
    text = snap.data["text"]
    assert 'textbox "Name"' in text and "Ada Lovelace" in text
    assert 'checkbox "I agree" [checked]' in text
    page.ok(f"click {refs['Done link']}")
    assert page.ctx.page.info()["url"].endswith("#done")


def test_refs_still_classify_after_sabotage(page):
    """Staleness checks work too: the page's DOM is changed through CDP (its own JS is broken)."""
    refs = refs_by_name(page.ok("snapshot"))
    t = page.ctx.page.target
    doc = t.call("DOM.getDocument", depth=0)["root"]["nodeId"]

    def node(selector):
        return t.call("DOM.querySelector", nodeId=doc, selector=selector)["nodeId"]

    t.call("DOM.setAttributeValue", nodeId=node("[data-key=a]"), name="data-key", value="z")
    out = page.fail(f"click {refs['Item A']}", "changed")
    assert 'changed since you saw it: its data-key changed from "a" to "z".' in out.message
    t.call("DOM.removeNode", nodeId=node("#save"))
    out = page.fail(f"click {refs['Save']}", "removed")
    assert out.message == f'Element button "Save" (ref {refs["Save"]}) no longer exists. Take a new snapshot.'
    page.fail("click c0p0f0e99", "unknown_ref")
    page.ok(f"hover {refs['Item B']}")
    assert page.js("window.log") == []
