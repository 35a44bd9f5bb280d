"""Identity-based ref persistence: which changes keep a ref, which give a new one, and numbering."""

from __future__ import annotations

import re

import pytest

from conftest import click_reaches, clicks, until

REF_N = re.compile(r"^c(\d+)p(\d+)f(\d+)e(\d+)$")


def n_of(ref: str) -> int:
    return int(REF_N.match(ref).group(4))


def frame_of(ref: str) -> int:
    return int(REF_N.match(ref).group(3))


def by_name(snap, role: str = "button") -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for r, i in snap.data["refs"].items():
        if i["role"] == role:
            out.setdefault(i["name"], []).append(r)
    return out


def one(snap, name: str, role: str = "button") -> str:
    refs = by_name(snap, role).get(name, [])
    assert len(refs) == 1, f"{name!r}: {refs}"
    return refs[0]


# -- persistence ------------------------------------------------------------------------------------

def test_same_element_same_ref_across_snapshots(mutations):
    driver, s1 = mutations
    s2 = driver.ok("snapshot --fresh")  # a capture each time (an unchanged page is otherwise cached)
    s3 = driver.ok("snapshot --fresh")
    assert s1.data["refs"] == s2.data["refs"] == s3.data["refs"]
    assert s3.data["snapshot"] == s1.data["snapshot"] + 2
    assert len(by_name(s1)) == 5


def test_moved_element_keeps_ref(mutations):
    driver, s1 = mutations
    b1 = one(s1, "Button 1")
    driver.js("demo.move('b1')")       # to the end
    driver.js("demo.move('b5', 0)")    # to the front
    assert driver.js("demo.ids()") == ["b5", "b2", "b3", "b4", "b1"]
    s2 = driver.ok("snapshot")
    assert one(s2, "Button 1") == b1
    assert s2.data["refs"] == s1.data["refs"]  # same refs, only the order in the text changed
    lines = [ln for ln in s2.data["text"].splitlines() if "Button " in ln]
    assert "Button 5" in lines[0] and "Button 1" in lines[-1]
    click_reaches(driver, b1, "b1")


def test_moved_without_new_snapshot_still_clicks_same_element(mutations):
    driver, s1 = mutations
    b2 = one(s1, "Button 2")
    driver.js("demo.move('b2'); demo.move('b4', 0)")
    click_reaches(driver, b2, "b2")


@pytest.mark.parametrize("data_id, change, now", [
    ("b2", "demo.rename('b2', 'Totally different')", {"role": "button", "name": "Totally different", "frame": 0}),
    # (a role this lone button can take: tab or menuitem need a tablist / menu)
    ("b3", "demo.setRole('b3', 'switch')", {"role": "switch", "name": "Button 3", "frame": 0}),
])
def test_renamed_or_role_changed_element_keeps_ref(mutations, data_id, change, now):
    driver, s1 = mutations
    ref = one(s1, "Button " + data_id[1])
    driver.js(change)
    s2 = driver.ok("snapshot")
    assert s2.data["refs"][ref] == now
    assert set(s2.data["refs"]) == set(s1.data["refs"])
    click_reaches(driver, ref, data_id)


def test_hidden_then_shown_keeps_ref(mutations):
    driver, s1 = mutations
    b3 = one(s1, "Button 3")
    driver.js("document.querySelector('[data-id=b3]').hidden = true")
    s2 = driver.ok("snapshot")
    assert b3 not in s2.data["refs"]
    assert "Button 3" not in s2.data["text"]
    driver.js("document.querySelector('[data-id=b3]').hidden = false")
    s3 = driver.ok("snapshot")
    assert s3.data["refs"][b3]["name"] == "Button 3"
    assert set(s3.data["refs"]) == set(s1.data["refs"])  # no new number was spent on it
    click_reaches(driver, b3, "b3")


def test_clone_gets_new_ref(mutations):
    driver, s1 = mutations
    b4 = one(s1, "Button 4")
    top = max(n_of(r) for r in s1.data["refs"])
    cid = driver.js("demo.clone('b4')")
    s2 = driver.ok("snapshot")
    twins = by_name(s2)["Button 4"]
    assert len(twins) == 2 and b4 in twins
    clone = next(r for r in twins if r != b4)
    assert n_of(clone) == top + 1
    click_reaches(driver, clone, cid)
    click_reaches(driver, b4, "b4")


def test_rerender_gives_new_refs_and_old_ones_are_removed(mutations):
    driver, s1 = mutations
    old = {name: refs[0] for name, refs in by_name(s1).items()}
    top = max(n_of(r) for r in s1.data["refs"])
    driver.js("demo.rerender()")
    s2 = driver.ok("snapshot")
    new = {name: refs[0] for name, refs in by_name(s2).items()}
    assert set(new) == set(old)
    for name in old:
        assert new[name] != old[name]
        assert n_of(new[name]) > top
    for name, ref in old.items():
        out = driver.fail(f"click {ref}", "removed")
        # the re-rendered twin (same name, data-id and place) is named, with the ref it already has
        assert out.message == (f'Element button "{name}" (ref {ref}) no longer exists. '
                               f'A new button "{name}" is in its place: {new[name]}. Take a new snapshot.')
    assert clicks(driver) == []
    click_reaches(driver, new['Button 5'], "b5")


def test_refs_never_recycled_within_a_document(mutations):
    driver, s1 = mutations
    seen = dict(s1.data["refs"])
    top = max(n_of(r) for r in seen)
    ops = ["demo.remove('b1')", "demo.insert()", "demo.clone('b2')", "demo.rerender()", "demo.remove('b3')",
           "demo.insert()", "demo.insert()", "demo.rerender()", "demo.clone('b6')"]
    for op in ops:
        driver.js(op)
        snap = driver.ok("snapshot")
        fresh = [r for r in snap.data["refs"] if r not in seen]
        for r in sorted(fresh, key=n_of):
            assert n_of(r) > top, f"{r} reuses a number after {op}"
            top = n_of(r)
        seen.update(snap.data["refs"])
    # numbers issued are exactly 1..top: no gaps from double issuing, no reuse
    assert sorted(n_of(r) for r in seen) == list(range(1, top + 1))


def test_cross_document_navigation_numbers_on(mutations, demo):
    driver, s1 = mutations
    assert min(n_of(r) for r in s1.data["refs"]) == 1
    driver.js("demo.insert(); demo.insert()")
    s2 = driver.ok("snapshot")
    assert max(n_of(r) for r in s2.data["refs"]) == 8
    driver.ok("open " + demo.url("shop.html"))
    s3 = driver.ok("snapshot")
    numbers = sorted(n_of(r) for r in s3.data["refs"])
    assert numbers == list(range(9, 9 + len(numbers)))  # the tab's numbering goes on, never from 1
    assert s3.data["refs"]["c0p0f0e9"] == {"role": "link", "name": "Home", "frame": 0}
    for old in s2.data["refs"]:  # every old ref names its old document, for good
        assert driver.fail(f"click {old}", "navigated").message.startswith(f"Ref '{old}' is from a previous page")
    # and back to the first page: a new document again, numbered on
    driver.ok("open " + demo.url("mutations.html"))
    s4 = driver.ok("snapshot")
    assert min(n_of(r) for r in s4.data["refs"]) == 9 + len(numbers)
    assert sorted(i["name"] for i in s4.data["refs"].values()) == sorted(i["name"] for i in s1.data["refs"].values())
    assert clicks(driver) == []


# -- same-document (pushState) navigation --------------------------------------------------------------

def test_pushstate_keeps_refs_of_persistent_elements(driver, demo):
    driver.ok("open " + demo.url("spa.html"))
    s1 = driver.ok("snapshot")
    nav = {name: one(s1, name, "link") for name in ("Home", "About", "Items")}
    theme = one(s1, "Toggle theme")

    driver.ok(f"click {nav['Items']}")
    assert driver.js("location.search") == "?view=items"
    s2 = driver.ok("snapshot")
    for name, ref in nav.items():
        assert s2.data["refs"][ref]["name"] == name
    assert s2.data["refs"][theme]["name"] == "Toggle theme"
    details = by_name(s2)["Details"]
    assert len(details) == 5
    assert min(n_of(r) for r in details) > max(n_of(r) for r in s1.data["refs"])

    driver.ok(f"click {details[2]}")
    assert driver.js("document.getElementById('item-details').textContent") == "Details for Item 3: Cheese."

    driver.ok(f"click {nav['About']}")  # the view is re-rendered: the Details buttons are gone
    assert driver.js("location.search") == "?view=about"
    out = driver.fail(f"click {details[0]}", "removed")
    assert out.message == f'Element button "Details" (ref {details[0]}) no longer exists. Take a new snapshot.'
    # persistent shell elements still work without a new snapshot (no 'navigated')
    driver.ok(f"click {theme}")
    assert driver.js("document.body.classList.contains('dark')") is True

    s3 = driver.ok("snapshot")
    assert not set(details) & set(s3.data["refs"])
    assert one(s3, "Feedback", "textbox") not in s2.data["refs"]
    for name, ref in nav.items():
        assert s3.data["refs"][ref]["name"] == name

    driver.ok("back")  # popstate: still the same document
    assert driver.js("location.search") == "?view=items"
    driver.ok(f"click {theme}")
    assert driver.js("document.body.classList.contains('dark')") is False


# -- reset-refs -----------------------------------------------------------------------------------------

def test_reset_refs_restart_drops_refs_and_restarts_numbering(mutations):
    driver, s1 = mutations
    b1 = one(s1, "Button 1")
    driver.js("demo.insert()")
    s2 = driver.ok("snapshot")
    assert max(n_of(r) for r in s2.data["refs"]) == 7
    res = driver.ok("reset-refs --restart")
    assert res.data["dropped"] == 7 and res.data["restart"] is True
    out = driver.fail(f"click {b1}", "unknown_ref")
    assert out.message == f"Ref '{b1}' was dropped by 'reset-refs --restart' (command 4). Take a new snapshot."
    assert clicks(driver) == []
    s3 = driver.ok("snapshot")
    numbers = sorted(n_of(r) for r in s3.data["refs"])
    assert numbers == list(range(1, 8))
    assert s3.data["snapshot"] >= 1
    driver.ok(f"click {one(s3, 'Button 6')}")
    assert clicks(driver) == ["b6"]


def test_reset_refs_continues_numbering(mutations):
    driver, s1 = mutations
    top = max(n_of(r) for r in s1.data["refs"])
    b1 = one(s1, "Button 1")
    res = driver.ok("reset-refs")
    assert res.data["restart"] is False
    driver.fail(f"click {b1}", "unknown_ref")
    s2 = driver.ok("snapshot")
    numbers = sorted(n_of(r) for r in s2.data["refs"])
    assert numbers == list(range(top + 1, top + 1 + len(s1.data["refs"])))
    driver.fail(f"click {b1}", "unknown_ref")  # the old string is not reused
    driver.ok(f"click {one(s2, 'Button 1')}")
    assert clicks(driver) == ["b1"]


# -- frames ------------------------------------------------------------------------------------------------

def frame_status_lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if "status" in ln]


@pytest.fixture
def frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot")
    fr = {f["index"]: f for f in snap.data["frames"]}
    # f1 same-origin, f2 cross-origin, f3 nested inside f2 (and cross-origin to it)
    assert fr[1]["cross_origin"] is False and fr[1]["url"].endswith("/frame-inner.html")
    assert fr[2]["cross_origin"] is True and "nested=1" in fr[2]["url"]
    assert fr[3]["url"].endswith("/frame-leaf.html")
    return driver, snap


def test_frame_refs_are_stable(frames):
    driver, s1 = frames
    by_frame = {frame_of(r) for r in s1.data["refs"]}
    assert {0, 1, 2, 3} <= by_frame
    for r, info in s1.data["refs"].items():
        assert info["frame"] == frame_of(r)
    s2 = driver.ok("snapshot")
    assert s2.data["refs"] == s1.data["refs"]
    assert [f["index"] for f in s2.data["frames"]] == [f["index"] for f in s1.data["frames"]]


def test_frame_refs_are_clickable(frames):
    driver, s1 = frames
    refs = s1.data["refs"]
    f1_button = next(r for r, i in refs.items() if i["frame"] == 1 and i["name"] == "Frame button")
    f2_button = next(r for r, i in refs.items() if i["frame"] == 2 and i["name"] == "Frame button")
    leaf = next(r for r, i in refs.items() if i["frame"] == 3 and i["name"] == "Leaf button")
    assert (f1_button, f2_button, leaf) == ("c0p0f1e1", "c0p0f2e1", "c0p0f3e1")
    driver.ok(f"click {f1_button}")
    assert driver.js("document.getElementById('same-frame').contentDocument"
                     ".getElementById('frame-count').textContent") == "Clicked 1 time"
    driver.ok(f"click {f2_button}")
    driver.ok(f"click {f2_button}")
    driver.ok(f"click {leaf}")
    s2 = driver.ok("snapshot")
    assert s2.data["refs"] == refs
    statuses = frame_status_lines(s2.data["text"])
    assert statuses[:3] == ["- status: Clicked 1 time", "- status: Clicked 2 times", "- status: Leaf clicked"]


def test_frame_navigation_numbers_that_frame_on(frames):
    driver, s1 = frames
    main_refs = {r: i for r, i in s1.data["refs"].items() if i["frame"] == 0}
    old_f1 = {r for r, i in s1.data["refs"].items() if i["frame"] == 1}
    assert s1.data["refs"]["c0p0f1e1"]["name"] == "Frame button"
    driver.js("document.getElementById('same-frame').src = 'frame-leaf.html'")
    assert until(lambda: driver.js("(() => { const d = document.getElementById('same-frame').contentDocument;"
                                      " return !!(d && d.getElementById('leaf-button')); })()"))
    out = driver.fail("click c0p0f1e1", "navigated")
    assert out.message.startswith("Ref 'c0p0f1e1' is from a previous page (issued in snapshot #1 at ")
    assert 'frame f1 "Same-origin frame" navigated to ' in out.message
    assert "frame-leaf.html" in out.message
    s2 = driver.ok("snapshot")
    new_f1 = {r: i for r, i in s2.data["refs"].items() if i["frame"] == 1}
    top = max(n_of(r) for r in old_f1)
    assert sorted(n_of(r) for r in new_f1) == list(range(top + 1, top + 1 + len(new_f1)))
    assert not any(i["name"] == "Frame input" for i in new_f1.values())
    for r, i in main_refs.items():
        assert s2.data["refs"][r] == i  # other frames are untouched
    assert s2.data["refs"]["c0p0f2e1"]["name"] == "Frame button"
    out = driver.fail("click c0p0f1e1", "navigated")  # after the snapshot too: navigated for good
    assert "frame-leaf.html" in out.message
    leaf = next(r for r, i in new_f1.items() if i["name"] == "Leaf button")
    driver.ok(f"click {leaf}")
    assert driver.js("document.getElementById('same-frame').contentDocument"
                     ".getElementById('leaf-status').textContent") == "Leaf clicked"
