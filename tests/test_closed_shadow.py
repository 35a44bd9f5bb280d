"""Elements inside closed shadow roots are shown and acted on, in the main frame and in a
cross-origin frame: the roots are resolved through the protocol (browser/closed_roots.py).

The page (tests/fixtures/closed/) is a web-component library written the usual way: custom elements
whose constructor attaches a closed root and whose render() rewrites it with innerHTML on every
attribute change; the list app is itself such an element (closed roots inside a closed root); items
are created by the app's keyed render, some after the first snapshot. The page logs every event with
its model's item id; results are judged by that log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Driver, pages_site, ref_after, ref_in, until
from verdex_cli.browser import closed_roots

site = pages_site("closed")
GRID = (Path(__file__).resolve().parent / "fixtures" / "record" / "sort.html").as_uri() + "?star=element"
STAR = 'button "Star"'


@pytest.fixture
def d(chrome_http):
    drv = Driver(chrome_http, timeout=5)
    yield drv
    drv.close()


def log(d: Driver) -> list:
    return d.js("window.log")


def ref(text: str, role: str, name: str) -> str:
    return ref_in(text, f'{role} "{name}"')


@pytest.mark.parametrize("page", ["app.html", "outer.html"])
def test_closed_components_are_shown_and_act_on_their_own_item(d, site, page):
    d.ok("open " + site.url(page))
    text = d.ok("snapshot").data["text"]
    assert 'heading "This week"' in text
    for label in ("Milk", "Bread", "Tea"):
        assert f'button "Remove {label}"' in text and f'textbox "Note for {label}"' in text, text
    d.ok(f"click {ref(text, 'button', 'Remove Bread')}")
    assert until(lambda: "remove 2" in log(d))
    out = d.ok(f"fill {ref(text, 'textbox', 'Note for Tea')} two boxes")
    assert out.data["value"] == "two boxes"
    assert until(lambda: log(d)[-1] == "note 3 two boxes")
    out = d.ok(f"check {ref(text, 'checkbox', 'Milk')}")  # the item renders itself anew on 'done'
    assert out.data["checked"] is True
    assert "done 1 true" in log(d)
    d.ok(f"hover {ref(text, 'button', 'Remove Tea')}")
    assert until(lambda: log(d)[-1] == "hover 3")
    seen = d.ok(f"inspect {ref(text, 'button', 'Remove Tea')}").data
    assert (seen["role"], seen["name"]) == ("button", "Remove Tea")
    assert seen["locator"] and seen["playwright"] is None  # verdex reaches it; Playwright cannot
    assert d.ok("find Remove Tea").data["matches"], "find lists the button"
    events = log(d)
    assert [x for x in events if x.split()[0] in ("remove", "done", "add")] == ["remove 2", "done 1 true"]
    assert {x for x in events if x.startswith("note")} == {"note 3 two boxes"}


@pytest.mark.parametrize("page", ["app.html", "outer.html"])
def test_a_component_made_after_the_first_snapshot_is_shown_and_clicked(d, site, page):
    d.ok("open " + site.url(page))
    text = d.ok("snapshot").data["text"]
    d.ok(f"fill {ref(text, 'textbox', 'New item')} Eggs")
    d.ok(f"click {ref(text, 'button', 'Add item')}")
    assert until(lambda: "add 4 Eggs" in log(d))
    text = d.ok("snapshot").data["text"]
    assert 'button "Remove Eggs"' in text, text
    d.ok(f"click {ref(text, 'button', 'Remove Eggs')}")
    assert until(lambda: "remove 4" in log(d))
    d.ok('click "button:Remove Milk"')  # by meaning, found in the closed roots too
    assert until(lambda: "remove 1" in log(d))


def test_a_closed_root_a_cross_origin_frame_attaches_to_a_plain_element_at_once(d, site):
    # a widget's first script hides its markup in a closed root on a plain <div> (no custom element):
    # the frame's watcher is there before that script (the frame waits for verdex as it starts)
    d.ok("open " + site.url("plain.html"))
    text = d.ok("snapshot").data["text"]
    for team in range(1, 9):  # eight such frames at once
        assert f'button "Chat with Ana {team}"' in text and f'button "Chat with Ben {team}"' in text, text
    d.ok(f"click {ref(text, 'button', 'Chat with Ben 8')}")
    assert until(lambda: log(d) == ["chat 82"])


def test_a_closed_root_the_protocol_cannot_resolve_is_named_in_a_note(d, site, monkeypatch):
    # a root the protocol cannot resolve cannot be made for real: the look-up is made to find none
    monkeypatch.setattr(closed_roots, "_closed_in", lambda node, out: None)
    d.ok("open " + site.url("app.html"))
    data = d.ok("snapshot").data
    assert "Remove" not in data["text"]
    assert "The content of closed shadow roots could not be read, so it is not shown: <todo-app>." in data["notes"]


def test_a_closed_root_control_in_a_row_recycled_by_a_sort_keeps_its_row(d):
    # the star's row is found through its closed root's host: a sort that rewrites the rows in place
    # puts Zoe's star in Adam's row, and the old ref is refused instead of starring Adam
    d.ok("open " + GRID)  # each row's star is a component drawing its button in a closed root
    zoe = ref_after(d.ok("snapshot").data["text"], "Zoe", STAR)
    d.ok('click "button:Sort by name"')
    out = d.fail(f"click {zoe}", "changed")
    assert 'its row changed from "Zoe" (data-id 7) to "Adam" (data-id 3)' in out.message, out.message
    assert log(d) == []
    d.ok(f"click {ref_after(d.ok('snapshot').data['text'], 'Zoe', STAR)}")
    assert until(lambda: log(d) == ["star 7"])


@pytest.mark.parametrize("page", ["status.html", "outer.html?page=status.html"])
def test_wait_text_sees_a_closed_root_rendered_later(d, site, page):
    # an autosave sets a status inside a closed root inside another one, after a timer and a fetch
    d.ok("open " + site.url(page))
    d.js("(frames[0] || window).postMessage('save', '*')")  # (drawn at once; saved 0.5 s after this)
    d.ok("wait gone text=Saving draft")
    assert log(d) == ["saved"]  # the page's own log: it had saved when the wait said so
    d.ok("wait text Saved at 10:42")
    d.fail("wait text Not saved", "timeout")
