"""The change watcher watches a shadow root from its attachment, not from the next capture: web
components attach theirs when their data comes, after the tab's snapshot, and keep rendering into
them. An action's "nothing moved for two frames" (actionability, hover's check after settle) must not
vouch for a page whose components are still rendering. Judged by the page: its log says what rendered,
and the Buy button's own box says that it moved."""

from __future__ import annotations

import pytest

from conftest import ref_in, until, world_eval
from settle_server import SettleServer


@pytest.fixture(scope="module")
def site():
    srv = SettleServer()
    yield srv
    srv.stop()


def _prepared(page, n: int) -> dict:
    """The bridge's wait cut short after one measurement (timeoutMs -1): ok only when the change watcher
    vouches that nothing moved for two frames' time."""
    return world_eval(page, page.frames.main, f"__verdex.bridge.prepare({n}, {{pointer: true, timeoutMs: -1}})")["value"]


BUY_Y = "document.getElementById('buy').getBoundingClientRect().y"


@pytest.mark.parametrize("push, rendered", [("offer", "offer"), ("price", "price 11")])
def test_a_change_inside_a_shadow_root_attached_after_the_snapshot_is_seen(driver, site, push, rendered):
    # offer: a change in the list's own root; price: in the root of an element the list rendered
    driver.ok("open " + site.url("late_shadow.html"))
    buy = ref_in(driver.ok("snapshot").data["text"], 'button "Buy"')
    driver.js("window.loadOffers()")  # the data comes after the snapshot (the page's own work)
    assert until(lambda: driver.js("window.log") == ["price 10", "attached"], 5), driver.js("window.log")
    page = driver.ctx.page
    n = int(buy.rsplit("e", 1)[1])
    assert until(lambda: _prepared(page, n)["status"] == "ok", 3)
    y = driver.js(BUY_Y)
    driver.js(f"window.push('{push}')")
    assert driver.js("window.log")[-1] == rendered and driver.js(BUY_Y) > y  # it rendered, and Buy moved
    moved = _prepared(page, n)
    assert moved["status"] == "not_actionable" and "moving" not in moved["reason"], moved
