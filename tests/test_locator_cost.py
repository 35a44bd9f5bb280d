"""The stable target an action records for `export` costs it no round trip: the action only starts the
engine's `locate` call (sent before the action's first check, so answered before its input can rename the element);
with several frames the cross-frame choice is made when `export` needs it."""

from __future__ import annotations

import pytest

from verdex_cli.commands import actions_cmd


def waves(driver) -> int:
    return driver.ctx.session.browser().conn.counters()[0]


def click_waves(driver, ref: str, times: int = 3) -> int:
    """The fewest sequential round trips of `click REF` over a few clicks (a late event may add one)."""
    counts = []
    for _ in range(times):
        before = waves(driver)
        driver.ok(f"click {ref}")
        counts.append(waves(driver) - before)
    return min(counts)


@pytest.mark.parametrize("page, pattern", [("shop.html", 'button "Save"'), ("frames.html", 'button "Leaf button"')])
def test_a_click_spends_no_round_trip_on_its_stable_target(driver, demo, monkeypatch, page, pattern):
    driver.ok("open " + demo.url(page))
    ref = driver.ref(pattern)
    driver.ok(f"click {ref}")  # worlds and caches warm
    logged = click_waves(driver, ref)
    assert driver.ctx.log[-1]["ref"] == ref
    with monkeypatch.context() as m:
        m.setattr(actions_cmd, "note_target", lambda ctx, res, raw, started=None: None)
        unlogged = click_waves(driver, ref)
    assert "ref" not in driver.ctx.log[-1]  # no target noted
    assert logged <= unlogged, (logged, unlogged)


RENAMES = "<button onclick=\"this.textContent='Unfollow'\">Follow</button>"


def test_a_name_the_click_changes_is_not_what_gets_exported(driver, demo, tmp_path):
    driver.ok("open " + demo.url("blank.html"))
    driver.ok(f"eval document.body.innerHTML = {RENAMES!r}")
    ref = driver.ref('button "Follow"')
    driver.ok(f"click {ref}")
    assert driver.js("document.querySelector('button').textContent") == "Unfollow"
    path = tmp_path / "follow.verdex"
    driver.ok(f"export {path}")
    assert "click button:Follow\n" in path.read_text()


def _framed_page(tmp_path, inner: str):
    page = tmp_path / "framed.html"
    page.write_text(f"<!doctype html><title>Framed</title>{RENAMES}<iframe srcdoc=\"{inner}\"></iframe>",
                    encoding="utf-8")
    return page


@pytest.mark.parametrize("inner, expected", [
    ("<p>Nothing to follow</p>", "click button:Follow\n"),  # alone on the page
    ("<button>Follow</button>", 'click "role=document >> button:Follow"\n'),  # its name repeats in the frame
])
def test_with_frames_the_choice_is_made_at_export_on_the_name_before_the_click(driver, tmp_path, inner, expected):
    driver.ok(f"open {_framed_page(tmp_path, inner)}")
    refs = driver.ok("snapshot").data["refs"]
    ref = next(r for r, i in refs.items() if i["name"] == "Follow" and "f0e" in r)
    driver.ok(f"click {ref}")
    assert "_later" in driver.ctx.log[-1]  # several frames: left for export
    path = tmp_path / "framed.verdex"
    driver.ok(f"export {path}")
    assert expected in path.read_text()
    assert "_later" not in driver.ctx.log[-1] and set(driver.ctx.log[-1]) == {
        "command", "args", "flags", "secret", "target", "playwright", "ref", "role", "name", "at"}
    assert driver.ctx.log[-1]["playwright"] == 'page.get_by_role("button", name="Follow", exact=True)'


def test_with_frames_a_document_no_longer_shown_gets_its_frame_scoped_target(driver, demo, tmp_path):
    driver.ok(f"open {_framed_page(tmp_path, '<p>Nothing to follow</p>')}")
    refs = driver.ok("snapshot").data["refs"]
    ref = next(r for r, i in refs.items() if i["name"] == "Follow" and "f0e" in r)
    driver.ok(f"click {ref}")
    driver.ok("open " + demo.url("blank.html"))
    path = tmp_path / "gone.verdex"
    assert driver.ok(f"export {path}").data["without_target"] == 0
    assert 'click "role=document >> button:Follow"\n' in path.read_text()
