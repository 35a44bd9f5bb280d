"""What a navigation command reports when no new document was loaded: a navigation the page's
leave-page (beforeunload) dialog cancelled, and a history step between entries of one document
(pushState routes). Pages: fixtures/nav (a draft editor that asks before leaving; a pushState
router), judged by the page's own log and location."""

from __future__ import annotations


import pytest

from conftest import pages_site


CANCELLED = ("The page asked to confirm leaving and the dialog was dismissed: the navigation was cancelled "
             "and the tab stays on {}.")


site = pages_site("nav")


@pytest.fixture
def editor(driver, site):
    """The editor with an unsaved draft (its beforeunload handler asks before leaving)."""
    driver.ok("open " + site.url("editor.html"))
    driver.ok("fill textbox:Text hello")
    return site.url("editor.html")


def where(driver) -> list:
    """The page's own account: its URL and how often it asked before leaving."""
    href, log = driver.ok("eval [location.href, window.log]").data["value"]
    return [href, log.count("asked")]


@pytest.mark.parametrize("line", ['click link:Leave', 'eval location.href = "other.html"'])
def test_a_navigation_cancelled_by_a_dismissed_leave_dialog_is_not_called_navigated(driver, editor, line):
    driver.ok("dialog dismiss")
    result = driver.ok(line)
    assert not any(n.startswith("Navigated to") for n in result.notes), result.notes
    assert CANCELLED.format(editor) in result.notes
    assert result.data["dialogs"][0]["type"] == "beforeunload"
    assert where(driver) == [editor, 1]


@pytest.mark.parametrize("line", ["open other.html", "reload", "back"])
def test_a_navigation_command_cancelled_by_the_leave_dialog_says_the_tab_stayed(driver, editor, line):
    driver.ok("dialog dismiss")
    out = driver.run(line)
    assert out.ok, out.message  # (it was 'Could not open ...: net::ERR_ABORTED', or a reload/back 'Opened')
    assert out.result.data["stayed"] is True and out.result.data["url"] == editor
    assert out.result.notes[0] == CANCELLED.format(editor)
    assert out.result.data["dialogs"][0]["accepted"] is False  # reported with this command, not the next
    assert where(driver) == [editor, 1]


def test_back_and_forward_between_pushstate_routes_load_nothing(driver, site):
    driver.ok("open " + site.url("users.html"))
    driver.ok("click link:Alice")
    driver.ok("click link:Bob")
    back = driver.ok("back").data
    assert back["url"] == site.url("users.html?u=alice")
    assert back["status"] is None and back["same_document"] is True  # it said 200: a load that never happened
    forward = driver.ok("forward").data
    assert forward["url"] == site.url("users.html?u=bob") and forward["status"] is None
    routes = driver.ok("eval [location.href, window.routes, performance.getEntriesByType('navigation').length]")
    assert routes.data["value"] == [site.url("users.html?u=bob"), ["nobody", "alice", "bob", "alice", "bob"], 1]
    driver.ok("open " + site.url("other.html"))
    back = driver.ok("back").data  # into another document: a real load, with its status
    assert back["url"] == site.url("users.html?u=bob") and back["status"] == 200
    assert "same_document" not in back


def test_open_of_a_fragment_of_the_same_document_has_no_status(driver, site):
    driver.ok("open " + site.url("users.html"))
    driver.ok("eval window.kept = 'the same document'")
    data = driver.ok("open " + site.url("users.html#top")).data
    assert data["status"] is None and data["same_document"] is True
    assert driver.ok("eval window.kept").data["value"] == "the same document"  # not loaded again
