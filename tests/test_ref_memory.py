"""Bounded memory: the page-side registry lets go of long-gone elements, and their refs still say `removed`."""

from __future__ import annotations

from conftest import ref_of, world_eval



def registered(driver) -> int:
    page = driver.ctx.page
    return world_eval(page, page.frames.main, "__verdex.bridge.registered")["value"]


def test_dropped_ref_is_removed_not_unknown(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    snap = driver.ok("snapshot")
    b2 = ref_of(snap, "Button 2")
    before = registered(driver)
    driver.js("demo.remove('b2')")
    for _ in range(6):  # more than the 5 snapshots a gone element is kept for (captures: --fresh,
        driver.ok("snapshot --fresh")  # as an unchanged page is otherwise answered from the cache)
    assert registered(driver) == before - 1
    store = driver.ctx.page_state().store
    assert b2 not in store.records and store.tombstone_count == 1
    out = driver.fail(f"click {b2}", "removed")
    assert out.message == f'Element button "Button 2" (ref {b2}) no longer exists. Take a new snapshot.'
    driver.fail(f"hover {b2}", "removed")
    assert driver.js("window.demo.clicks") == []


def test_rerenders_keep_the_registry_flat(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    driver.ok("snapshot")
    sizes = []
    for _ in range(12):
        driver.js("demo.rerender()")
        driver.ok("snapshot")
        sizes.append(registered(driver))
    assert sizes[-1] == sizes[5] and sizes[-1] <= 6 * 6  # the page's 6 refs, for at most 6 snapshots
    assert len(driver.ctx.page_state().store.records) <= 6 * 6


def test_element_back_after_being_let_go_keeps_its_ref(driver, demo):
    driver.ok("open " + demo.url("mutations.html"))
    snap = driver.ok("snapshot")
    b3 = ref_of(snap, "Button 3")
    driver.js("window.kept = document.querySelector('[data-id=b3]'); window.kept.remove()")
    for _ in range(6):
        driver.ok("snapshot")
    driver.fail(f"click {b3}", "removed")
    driver.js("document.getElementById('playground').appendChild(window.kept)")
    snap = driver.ok("snapshot")
    assert ref_of(snap, "Button 3") == b3  # the same element, the same ref
    driver.ok(f"click {b3}")
    assert driver.js("window.demo.clicks") == ["b3"]
