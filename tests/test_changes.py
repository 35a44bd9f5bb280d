"""Every action shows what it changed; diff any two snapshots (real browser, demo pages)."""

from __future__ import annotations

import re

import pytest

from conftest import pages_site
from verdex_cli.sessions.outcomes import render_for
from verdex_cli.snapshot import capture

site = pages_site("changes")


def ref_named(data: dict, name: str, role: str = "button") -> str:
    return next(r for r, i in data["refs"].items() if i["name"] == name and i["role"] == role)


def items(changes: dict, key: str) -> list[tuple]:
    return [(i["role"], i["name"], i.get("value", ""), i["ref"] is not None) for i in changes[key]]


def test_add_to_cart_shows_the_renamed_button_the_new_line_and_the_total(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    mug = next(r for r, i in snap["refs"].items() if i["name"] == "Add to cart")
    out = driver.ok("click " + mug).data
    ch = out["changes"]
    assert ch["since"] == snap["snapshot"] and ch["snapshot"] == snap["snapshot"] + 1
    renamed = next(c for c in ch["changed"] if c["ref"] == mug)  # the same element: same ref
    assert (renamed["was"]["name"], renamed["name"]) == ("Add to cart", "Added")
    # the cart is re-rendered (innerHTML): its total is another DOM node, so removed and added, not changed
    assert ("strong", "", "Total: $0.00", False) in items(ch, "removed")
    assert ("strong", "", "Total: $12.00", False) in items(ch, "added")
    assert driver.js("document.querySelector('#cart-total strong').textContent") == "Total: $12.00"
    added = {(i["role"], i["name"]): i["ref"] for i in ch["added"]}
    assert ("text", "Coffee mug × 1 — $12.00") in added
    remove = added[("button", "Remove")]
    assert remove and remove.startswith("c0p0f0e")
    assert ("paragraph", "", "Your cart is empty.", False) in items(ch, "removed")
    # the refs it shows are usable at once: no snapshot in between
    again = driver.ok("click " + remove).data["changes"]
    assert ("button", "Remove", "", True) in items(again, "removed")
    assert ("paragraph", "", "Your cart is empty.", False) in items(again, "added")


def test_a_re_render_is_removed_plus_added_with_new_refs(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    old = ref_named(driver.ok("snapshot").data, "Re-render me")
    ch = driver.ok("click " + old).data["changes"]
    assert [(i["ref"], i["name"]) for i in ch["removed"] if i["ref"]] == [(old, "Re-render me")]
    new = [i["ref"] for i in ch["added"] if i["name"] == "Re-render me"]
    assert len(new) == 1 and new[0] != old
    assert [(c["was"]["name"], c["name"]) for c in ch["changed"]] == [("Re-rendered 0 times", "Re-rendered 1 time")]
    assert driver.ok("inspect " + old).data["status"] == "removed"  # staleness compares with that capture


def test_an_action_in_a_cross_origin_frame_reports_that_frames_changes(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and "nested=1" in f["url"])
    button = next(r for r, i in snap["refs"].items() if i["name"] == "Frame button" and f"f{cross}e" in r)
    ch = driver.ok("click " + button).data["changes"]
    counts = [c for c in ch["changed"] if "Clicked" in (c.get("value") or c["name"])]
    assert counts and all(not c["ref"] or f"f{cross}e" in c["ref"] for c in counts)
    field = next(r for r, i in snap["refs"].items() if i["name"] == "Frame input" and f"f{cross}e" in r)
    ch = driver.ok("fill " + field + " hello there").data["changes"]
    assert [(c["ref"], c["was"].get("value", ""), c["value"]) for c in ch["changed"] if c["ref"] == field] == \
        [(field, "", "hello there")]


def test_an_action_that_changes_nothing_captures_nothing(driver, demo, monkeypatch):
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    home = ref_named(snap, "Home", "link")
    driver.ok("focus " + home)  # focus moved: a capture
    calls = []
    real = capture.capture_tree
    monkeypatch.setattr("verdex_cli.snapshot.take.capture_tree", lambda *a, **k: calls.append(1) or real(*a, **k))
    ch = driver.ok("focus " + home).data["changes"]
    assert (ch["added"], ch["removed"], ch["changed"], calls) == ([], [], [], [])


def test_no_changes_turns_it_off(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    driver.ctx.show_changes = False
    mug = next(r for r, i in driver.ok("snapshot").data["refs"].items() if i["name"] == "Add to cart")
    assert "changes" not in driver.ok("click " + mug).data


def test_no_snapshot_means_no_changes_and_no_refs_made_behind_the_users_back(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    out = driver.ok('click "article:Coffee mug >> button:Add to cart"')
    told = "Changes are not shown until you take a 'snapshot' of this page (there is none to compare with)."
    assert out.data["changes"] is None and out.notes == [told]
    again = driver.ok('click "article:Desk lamp >> button:Add to cart"')  # said once per document, not per step
    assert again.data["changes"] is None and told not in again.notes
    driver.fail("click c0p0f0e9", "unknown_ref")  # no capture issued refs the user never saw
    snap = driver.ok("snapshot").data
    driver.ok("open " + demo.url("shop.html"))  # a new document: the old snapshot is no baseline
    out = driver.ok('click "article:Notebook >> button:Add to cart"')
    assert out.data["changes"] is None and out.notes == [told]  # (a new document: said again)
    assert snap["snapshot"] == driver.ctx.page_state().latest().number


def test_settling_waits_for_a_burst_of_changes_to_end(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><p id=out>idle</p>';
      document.getElementById('go').onclick = () => { let n = 0; const t = setInterval(() => {
        document.getElementById('out').textContent = 'step ' + (++n); if (n === 6) clearInterval(t); }, 40); }""")
    go = ref_named(driver.ok("snapshot").data, "Go")
    out = driver.ok("click " + go)
    assert [(c["was"]["value"], c["value"]) for c in out.data["changes"]["changed"]] == [("idle", "step 6")]
    assert not any("still changing" in n for n in out.notes)


def test_a_script_animating_inline_styles_does_not_hold_an_action_up(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<div id=spin>*</div><button id=go>Go</button><p id=out>idle</p>';
      document.getElementById('go').onclick = () => { document.getElementById('out').textContent = 'went'; };
      let a = 0; window.spin = setInterval(() => {
        document.getElementById('spin').style.transform = 'rotate(' + (a += 5) + 'deg)'; }, 10)""")
    go = ref_named(driver.ok("snapshot").data, "Go")
    out = driver.run("click " + go)
    driver.js("clearInterval(window.spin)")
    assert out.ok and not any("still changing" in n for n in out.result.notes)  # settled: not held up
    assert [(c["was"]["value"], c["value"]) for c in out.result.data["changes"]["changed"]] == [("idle", "went")]


def test_a_page_that_never_settles_is_said_so_within_the_timeout(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><p id=out>0</p>';
      document.getElementById('go').onclick = () => { let n = 0;
        window.busy = setInterval(() => { document.getElementById('out').textContent = String(++n); }, 15); }""")
    go = ref_named(driver.ok("snapshot").data, "Go")
    driver.ctx.page.timeout = 1.0
    out = driver.run("click " + go)
    driver.js("clearInterval(window.busy)")
    assert out.ok  # gave up at the limit (the note says so), once, not once per waiter
    assert [n for n in out.result.notes if "still changing" in n] == ["The page was still changing after 1 s; the changes are as of then."]
    assert out.result.data["changes"]["changed"]


def test_diff_reports_every_node_between_any_two_snapshots(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    first = driver.ok("snapshot").data["snapshot"]
    driver.js("document.querySelector('h1').textContent = 'Our Shop'")
    driver.ok("snapshot")
    driver.js("document.querySelector('#save').setAttribute('aria-pressed', 'true')")
    third = driver.ok("snapshot").data["snapshot"]
    d = driver.ok(f"diff {first} {third}").data
    changed = {(c["role"], c["was"]["name"], c["name"]) for c in d["changed"]}
    assert ("heading", "Demo Shop", "Our Shop") in changed
    save = next(c for c in d["changed"] if c["name"] == "Save")
    assert (save["was"].get("states"), save["states"]) == ([], ["pressed"])
    last_two = driver.ok("diff").data
    assert (last_two["from"], last_two["to"]) == (third - 1, third)
    assert [c["name"] for c in last_two["changed"]] == ["Save"]
    assert driver.ok(f"diff {first}").data["to"] == third  # N alone: N and the latest


def test_diff_errors_and_history_bound(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    driver.fail("diff one", "usage")
    for _ in range(22):
        driver.ok("snapshot --fresh")
    out = driver.fail("diff 1 2", "usage")
    assert "not kept" in out.message and "#3..#22" in out.message
    driver.ok("snapshot --no-frames")
    assert "same scope" in driver.fail("diff 22 23", "usage").message


@pytest.mark.parametrize("mode", ["--all-refs", ""])
def test_compact_options_keep_their_refs_in_changes(driver, demo, mode):
    """Compact mode does not print option refs; the changes still carry them (here what changed
    before the action, since the snapshot)."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<div role=listbox aria-label=Pick>' + Array.from({length: 120},
      (_, i) => `<div role=option tabindex=-1>Choice ${i}</div>`).join('') + '</div><button>Go</button>'""")
    snap = driver.ok(f"snapshot {mode}".strip()).data
    assert ("[ref=" in snap["text"].split("Choice 7")[1].split("\n")[0]) == (mode == "--all-refs")
    go = ref_named(snap, "Go")
    option = next(r for r, i in snap["refs"].items() if i["name"] == "Choice 7") if mode else None
    driver.js("document.querySelectorAll('[role=option]')[7].textContent = 'Renamed'")
    ch = driver.ok("focus " + go).data["changes_before"]
    renamed = [c for c in ch["changed"] if c["name"] == "Renamed"]
    assert len(renamed) == 1 and renamed[0]["ref"] and renamed[0]["was"]["name"] == "Choice 7"
    if option:
        assert renamed[0]["ref"] == option


def test_ctrl_c_while_capturing_changes_keeps_the_actions_result(driver, demo, monkeypatch):
    driver.ok("open " + demo.url("shop.html"))
    mug = next(r for r, i in driver.ok("snapshot").data["refs"].items() if i["name"] == "Add to cart")

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr("verdex_cli.act.changes.settle", interrupted)
    out = driver.ok("click " + mug)  # the click happened: it is reported, not 'cancelled'
    assert out.data["changes"] is None and any("Stopped before" in n for n in out.notes)
    assert driver.js("document.getElementById('add-mug').textContent") == "Added"


def test_a_list_rebuilt_under_an_action_is_one_line_with_its_new_refs_and_the_pick_is_shown(driver, site):
    # the page rebuilds its list with innerHTML after each pick (every item a new node, in a new
    # order); the action's text shows the status it changed and the new refs on one line, and a new ref
    # from that line picks what its name says (the page's own log)
    driver.ok("open " + site.url("fruit.html"))
    cherry = driver.ref('button "Cherry"')
    out = driver.run("click " + cherry)
    text, _ = render_for({"width": 120}, out)
    assert '~ status: "Picked: none" -> "Picked: Cherry"' in text
    redrawn = [line for line in text.splitlines() if "re-rendered" in line]
    assert len(redrawn) == 1 and redrawn[0].startswith("  ~ 8 re-rendered (old refs gone): button ")
    assert "more" not in text and "[ref=" not in text  # nothing left out; no line per item
    new = dict(re.findall(r'"(\w+)" (c0p0f0e\d+)', redrawn[0]))
    assert sorted(new) == sorted(driver.js("[...document.querySelectorAll('#list button')].map(b => b.dataset.name)"))
    assert cherry not in new.values()
    driver.ok("click " + new["Fig"])
    assert driver.js("window.log") == ["Cherry", "Fig"]
    assert driver.run("click " + cherry).kind == "removed"
