"""Every ref's story (issue 32, findings 3 and 4): inspect, `refs --stale`, `log`, and messages that
say where a ref came from and what made it stale. The page is a small app that renders its list
from its model and reloads or removes its own child frame."""

from __future__ import annotations

import io
import socket

import pytest
from prompt_toolkit.input import create_pipe_input
from rich.console import Console

from conftest import pages_site, ref_in, type_at_prompts, until
from test_repl import console, make_repl, run_loop  # noqa: F401  (a fixture too; ctx is conftest's)
from verdex_cli.commands.runner import execute
from verdex_cli.ui import painters
from verdex_cli.ui.render import Renderer

site = pages_site("story")


def page_log(driver) -> list[str]:
    return driver.js("window.log")


def opened(driver, site):
    driver.ok("open " + site.url("app.html"))
    return driver.ok("snapshot").data["text"]


def child_loaded(driver) -> bool:
    return driver.js("(() => { const f = document.getElementById('child');"
                     " return !!(f && f.contentDocument && f.contentDocument.getElementById('ping')); })()")


def test_a_frame_that_reloads_names_itself_and_the_refs_keep_their_story(driver, site):
    text = opened(driver, site)
    ping = ref_in(text, 'button "Ping"')
    driver.ok("click " + ref_in(text, 'button "Reload child"'))
    assert page_log(driver) == ["reload child"]
    assert until(lambda: child_loaded(driver))
    out = driver.fail("click " + ping, "navigated")
    assert f'frame f1 "Child frame" reloaded' in out.message, out.message
    assert "issued in snapshot #1 at " + site.url("child.html") in out.message
    d = driver.ok("inspect " + ping).data
    assert d["status"] == "navigated"
    story = d["story"]
    assert story["issued"] == {"snapshot": 1, "command": "snapshot", "command_n": 2, "url": site.url("child.html")}
    assert story["shown"] == {"snapshot": 1, "role": "button", "name": "Ping", "by": {"n": 2, "command": "snapshot"}}
    assert 'frame f1 "Child frame" reloaded' in story["cause"]


def test_a_removed_ref_keeps_its_last_known_element_locator_and_the_command(driver, site):
    text = opened(driver, site)
    zoe = ref_in(text, 'button "Delete Zoe"')
    before = driver.ok("inspect " + zoe).data
    assert before["locator"] == "label=Delete Zoe"
    driver.ok("click " + zoe)
    assert page_log(driver) == ["delete 7"]
    driver.fail("click " + zoe)  # its row is gone from the page's model
    d = driver.ok("inspect " + zoe).data
    assert d["status"] == "removed"
    story = d["story"]
    assert story["known"]["tag"] == "button" and story["known"]["attributes"]["aria-label"] == "Delete Zoe"
    assert story["known"]["box"]["width"] > 0
    assert story["known"]["locator"] == before["locator"]
    assert story["stale"]["status"] == "removed"
    assert story["stale"]["by"]["command"] == "click " + zoe  # the capture after that click missed it
    steps = driver.ok("log").data["commands"]
    assert [(s["command"], s["outcome"]) for s in steps[-3:]] == [("click " + zoe, "ok"), ("click " + zoe, "removed"),
                                                                  ("inspect " + zoe, "ok")]
    assert zoe in steps[-3]["stale"]


@pytest.mark.parametrize("what,prefix,kind", [("tab", "c0p1", "page_mismatch"), ("context", "c1p0", "context_mismatch")])
def test_a_closed_tabs_or_contexts_ref_still_has_its_story(driver, site, what, prefix, kind):
    opened(driver, site)
    driver.ok(f"{what} new " + site.url("other.html"))
    link = ref_in(driver.ok("snapshot").data["text"], 'link "Back to the team"')
    assert link.startswith(prefix)
    driver.ok(f"{what} close 1")
    d = driver.ok("inspect " + link).data
    assert d["status"] == kind and "closed" in d["reason"]
    assert (d["role"], d["name"]) == ("link", "Back to the team")
    # (the new tab's first command was that snapshot)
    assert d["story"]["issued"] == {"snapshot": 1, "command": "snapshot", "command_n": 1,
                                    "url": site.url("other.html")}


def test_refs_stale_lists_the_refs_of_a_frame_that_navigated(driver, site):
    text = opened(driver, site)
    ping = ref_in(text, 'button "Ping"')
    driver.ok("eval document.getElementById('child').src = 'other.html'")
    assert until(lambda: driver.js("document.getElementById('child').contentDocument.title") == "Other")
    driver.ok("snapshot")
    assert ping not in {r["ref"] for r in driver.ok("refs").data["refs"]}
    stale = {r["ref"]: r for r in driver.ok("refs --stale").data["refs"]}
    assert stale[ping]["status"] == "navigated" and stale[ping]["frame"] == 1
    # the frame navigates a moment after the eval returns: put down to the eval, or to the page itself
    by = stale[ping]["made_stale_by"]
    assert by is None or by["command"] == "eval document.getElementById('child').src = 'other.html'"
    cause = driver.ok("inspect " + ping).data["story"]["cause"]
    assert cause.startswith(f'frame f1 "Child frame" navigated to {site.url("other.html")}'), cause


def test_a_removed_iframe_is_named(driver, site):
    text = opened(driver, site)
    ping = ref_in(text, 'button "Ping"')
    driver.ok("click " + ref_in(text, 'button "Remove child"'))
    out = driver.fail("click " + ping, "removed")
    assert '(frame f1 "Child frame" removed during ' in out.message, out.message


def test_never_issued_reset_and_restart(driver, site):
    text = opened(driver, site)
    high = max(int(r["ref"].rsplit("e", 1)[1]) for r in driver.ok("refs").data["refs"] if r["frame"] == 0)
    out = driver.fail("click c0p0f0e999", "unknown_ref")  # (command 4)
    assert out.message == f"Ref 'c0p0f0e999' was never issued in this tab (the highest is c0p0f0e{high}). " \
                          "Get refs with 'snapshot' or 'find'."
    other = ref_in(text, 'link "Other page"')
    driver.ok("reset-refs")
    driver.ok("snapshot")
    out = driver.fail("click " + other, "unknown_ref")
    assert out.message == f"Ref '{other}' was dropped by 'reset-refs' (command 5). Take a new snapshot."
    driver.ok('click "label=Delete Zoe"')  # the page re-renders its list: one row less
    assert page_log(driver) == ["delete 7"]
    driver.ok("reset-refs --restart")  # (command 9)
    text = driver.ok("snapshot").data["text"]
    assert ref_in(text, 'link "Other page"') != other
    res = driver.ok("hover " + other)  # the old string names another element now: said so
    assert [n for n in res.notes if n.startswith(f"Ref '{other}' was issued again")] == [
        f"Ref '{other}' was issued again after 'reset-refs --restart' (command 9): it now names "
        f"{res.data['role']} \"{res.data['name']}\"; before, it named link \"Other page\"."]


def test_back_to_the_refs_own_page_is_not_called_elsewhere_and_the_status_agrees(driver, site):
    app = site.url("app.html")
    text = opened(driver, site)
    other = ref_in(text, 'link "Other page"')
    driver.ok("click " + other)
    driver.ok("back")
    assert driver.js("location.href") == app
    out = driver.fail("click " + other, "navigated")
    assert f"(now at {app})" not in out.message
    assert f"issued in snapshot #1 at {app}" in out.message
    assert ("from the back/forward cache" in out.message) or (f"loaded {app} again" in out.message), out.message
    assert driver.ctx.page_state().status(driver.ctx.page)["navigated"] is True


def test_a_click_that_navigates_reports_the_status_or_the_error(driver, site):
    text = opened(driver, site)
    res = driver.ok("click " + ref_in(text, 'link "Missing page"'))
    assert any("404" in n for n in res.notes), res.notes
    opened(driver, site)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    driver.ok(f"eval document.querySelector('a[href*=\":9/\"]').href = 'http://127.0.0.1:{port}/'")
    res = driver.run("click " + ref_in(driver.ok("snapshot").data["text"], 'link "Unreachable"'))
    notes = res.result.notes if res.ok else [res.message]
    assert any("ERR_" in n for n in notes), notes


def test_log_lists_commands_snapshots_outcomes_and_stale_refs(driver, site):
    opened(driver, site)
    driver.ok("open " + site.url("other.html"))
    driver.fail("click c0p0f0e1", "navigated")
    js = driver.run("log").as_json()
    assert js["ok"] is True
    steps = js["result"]["commands"]
    assert [s["command"] for s in steps] == ["open " + site.url("app.html"), "snapshot",
                                             "open " + site.url("other.html"), "click c0p0f0e1"]
    assert [(s["snapshot_before"], s["snapshot_after"]) for s in steps] == [(0, 0), (0, 1), (1, 1), (1, 1)]
    assert [s["outcome"] for s in steps] == ["ok", "ok", "ok", "navigated"]
    assert "c0p0f0e1" in steps[2]["stale"] and steps[2]["stale_count"] >= 5


def test_the_toolbar_agrees_with_a_click_after_a_back_forward_restore(ctx, console, site):  # noqa: F811
    """The REPL's toolbar says the refs are stale whenever a click on them would say `navigated`."""
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {site.url('app.html')}\r", "snapshot\r", 'click "link:Other page"\r',
                        "back\r", "quit\r")
        assert run_loop(repl) == 0
        bar = repl._toolbar()
    assert bar.startswith(" refs stale: new page since snapshot #1"), bar
    out = execute(ctx, "click c0p0f0e1")
    assert out.kind == "navigated", out.message


def test_a_ref_removed_by_another_command_keeps_what_it_was_last_shown_as(driver, site):
    """Never inspected nor acted on: its last-known element, box, record and locator are what the
    page's registry kept from when it was shown; the story names the command that removed it."""
    text = opened(driver, site)
    zoe, adam = ref_in(text, 'button "Delete Zoe"'), ref_in(text, 'button "Delete Adam"')
    driver.ok("click " + zoe)  # the page renders its whole list anew: Adam's button is another element
    assert page_log(driver) == ["delete 7"]
    d = driver.ok("inspect " + adam).data
    assert d["status"] == "removed"
    known = d["story"]["known"]
    assert known["tag"] == "button" and known["attributes"]["aria-label"] == "Delete Adam", known
    assert known["snapshot"] == 1 and "box" not in known  # (no layout read per ref at each snapshot)
    assert known["record"] == 'list item "Adam" (data-id 3)' and known["heading"] == "Team", known
    assert known["locator"] == "label=Delete Adam"
    assert d["story"]["stale"]["by"]["command"] == "click " + zoe
    adam = ref_in(driver.ok("snapshot").data["text"], 'button "Delete Adam"')
    driver.ok("eval state.people = []; render()")  # another script empties the list
    d = driver.ok("inspect " + adam).data
    assert d["status"] == "removed" and d["story"]["known"]["attributes"]["aria-label"] == "Delete Adam"
    stale = d["story"]["stale"]  # found by inspect; the eval (or the page itself) did it
    assert stale["by"]["command"] == "inspect" and [s["command"] for s in stale["since_seen"]] == ["eval state.people = []; render()"]


def painted_inspect(data: dict) -> str:
    out = Console(file=io.StringIO(), width=200, no_color=True)
    painters.inspect(Renderer(console=out, err_console=out), data)
    return out.file.getvalue()


def test_a_ref_issued_outside_a_snapshot_says_where_it_was_shown_and_only_what_ran_after(driver, site):
    driver.ok("open " + site.url("app.html"))  # (command 1; no snapshot is ever taken)
    driver.ok('click "button:Reload child"')  # (2) ran before the ref was issued
    adam = driver.ok('hover "text=Adam"').data["ref"]  # (3) issues and shows the name's ref
    driver.ok('click "label=Delete Zoe"')  # (4) the page renders its list anew: Adam's name is another node
    assert page_log(driver) == ["reload child", "delete 7"]
    driver.fail("hover " + adam, "removed")  # (5)
    d = driver.ok("inspect " + adam).data
    assert d["last_seen"] == 0 and d["story"]["shown"]["by"] == {"n": 3, "command": 'hover "text=Adam"'}
    assert d["story"]["stale"]["since_seen"] == [{"n": 4, "command": 'click "label=Delete Zoe"'}]
    text = painted_inspect(d)
    assert "seen in snapshots" not in text and "in no snapshot; shown by 3 'hover \"text=Adam\"'" in text, text
    assert "ran since it was last seen: 4 'click \"label=Delete Zoe\"'\n" in text, text
    assert "issued: by 'hover \"text=Adam\"' (command 3) at " in text, text
