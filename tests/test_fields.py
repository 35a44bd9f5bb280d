"""fill/type/upload/check/select on every field kind: the target gets the value, nothing else changes."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from conftest import Driver, ref_of
from verdex_cli.app.wiring import run_lines
from verdex_cli.act.fields import MASK
from verdex_cli.ui.render import Renderer

# every field's state, by id: value, text of the contenteditable, file names, checked
STATE = """(() => Object.fromEntries([...document.querySelectorAll('.f')].map(e => [e.id,
  e.type === 'file' ? [...e.files].map(f => f.name).join(',') : e.type === 'checkbox' ? String(e.checked)
  : e.localName === 'div' ? e.textContent : e.value])))()"""

EVENTS = """(() => { window.__ev = [];
  for (const t of ['keydown', 'beforeinput', 'input', 'change'])
    document.addEventListener(t, e => window.__ev.push([t, e.target.id, e.isTrusted]), true);
  return true; })()"""


@pytest.fixture
def page(driver, demo):
    driver.ok("open " + demo.url("fields.html"))
    driver.js(EVENTS)
    driver.js("document.getElementById('start').focus()")  # focus starts in another field
    return driver, driver.ok("snapshot")


def state(driver) -> dict:
    return driver.js(STATE)


def assert_only(before: dict, after: dict, field: str, expected) -> None:
    assert after[field] == expected, f"{field}: {after[field]!r}"
    others = {k: v for k, v in after.items() if k != field}
    assert others == {k: v for k, v in before.items() if k != field}, "another field changed"


# -- fill: every kind -----------------------------------------------------------------------------------

FILLS = [  # (label, id, text, expected value, set like a picker: no keys, one input + one change)
    ("Text", "text", "hello world", "hello world", False),
    ("Search", "search", "mugs", "mugs", False),
    ("Email", "email", "ada@example.com", "ada@example.com", False),
    ("Website", "url", "https://example.com/a", "https://example.com/a", False),
    ("Phone", "tel", "+1 555 0100", "+1 555 0100", False),
    ("Quantity", "number", "42", "42", False),
    ("Comments", "textarea", "two  spaces", "two  spaces", False),
    ("Notes", "notes", "rich notes", "rich notes", False),
    ("Fruit", "fruit", "Banana", "Banana", False),
    ("Volume", "range", "8", "8", True),
    ("Colour", "color", "#FF0000", "#ff0000", True),
    ("Date", "date", "2024-05-31", "2024-05-31", True),
    ("Time", "time", "13:45", "13:45", True),
    ("Appointment", "datetime", "2024-05-31T13:45", "2024-05-31T13:45", True),
    ("Month", "month", "2024-05", "2024-05", True),
    ("Week", "week", "2024-W22", "2024-W22", True),
]


@pytest.mark.parametrize("label, field, text, expected, picker", FILLS)
def test_fill_every_kind(page, label, field, text, expected, picker):
    driver, snap = page
    before = state(driver)
    out = driver.ok(f"fill {ref_of(snap, label)} {text}")
    assert out.data["value"] == expected
    assert_only(before, state(driver), field, expected)
    events = driver.js("window.__ev")
    if not picker:  # by trusted input, on the target only
        inputs = [e for e in events if e[0] == "input"]
        assert inputs and all(e[1] == field and e[2] for e in inputs)
        return
    assert any("Set like a picker would" in n for n in out.notes)
    assert [e[:2] for e in events] == [["input", field], ["change", field]]  # no keys anywhere
    assert driver.js("document.activeElement.id") == field


def test_fill_date_can_clear(page):
    driver, snap = page
    date = ref_of(snap, "Date")
    driver.ok(f"fill {date} 2024-01-02")
    driver.ok(f"fill {date}")
    assert state(driver)["date"] == ""


BAD_PICKER = [
    ("Date", "31/12/2024", "YYYY-MM-DD"),
    ("Date", "1999-12-31", "between 2000-01-01 and 2099-12-31"),
    ("Colour", "red", "#rrggbb"),
    ("Volume", "11", "from 0 to 10 in steps of 2"),
    ("Volume", "3", "from 0 to 10 in steps of 2"),
    ("Volume", "loud", "a number from 0 to 10"),
    ("Time", "1pm", "HH:MM"),
    ("Week", "2024-22", "YYYY-Www"),
    ("Month", "May", "YYYY-MM"),
]


@pytest.mark.parametrize("label, text, expected", BAD_PICKER)
def test_bad_picker_value_is_one_clear_usage_error(page, label, text, expected):
    driver, snap = page
    before = state(driver)
    out = driver.fail(f"fill {ref_of(snap, label)} {text}", "usage")
    assert expected in out.message and "\n" not in out.message
    assert state(driver) == before and driver.js("window.__ev") == []


def test_fill_reports_when_the_value_differs(page):
    driver, snap = page
    out = driver.ok(f"fill {ref_of(snap, 'Code')} ABCDEFG")
    assert out.data["value"] == "ABCD" == state(driver)["short"]
    assert any("now holds 'ABCD', not 'ABCDEFG'" in n for n in out.notes)


# -- type appends ---------------------------------------------------------------------------------------

TYPES = [
    ("Text", "text", "X"), ("Search", "search", "X"), ("Email", "email", "a@b.c"), ("Website", "url", "https://x.test"),
    ("Phone", "tel", "555"), ("Quantity", "number", "1"), ("Comments", "textarea", "X"), ("Notes", "notes", "X"),
    ("Fruit", "fruit", "X"),
]


@pytest.mark.parametrize("label, field, start", TYPES)
def test_type_appends_at_the_end(page, label, field, start):
    driver, snap = page
    before = state(driver)
    add = "7" if field == "number" else "more"
    out = driver.ok(f"type {ref_of(snap, label)} {add}")
    assert out.data["value"] == start + add
    assert_only(before, state(driver), field, start + add)
    keys = [e for e in driver.js("window.__ev") if e[0] == "keydown"]
    assert keys and all(e[1] == field and e[2] for e in keys)


def test_type_on_a_picker_points_at_fill(page):
    driver, snap = page
    out = driver.fail(f"type {ref_of(snap, 'Date')} 2024", "not_actionable")
    assert "fill" in out.message and "YYYY-MM-DD" in out.message
    assert driver.js("window.__ev") == []


# -- refusals: nothing typed anywhere ---------------------------------------------------------------------

@pytest.mark.parametrize("line, words", [
    ("fill {Agree} yes", ["checkbox", "use 'check"]),
    ("type {Sort} x", ["select element", "use 'select"]),
    ("fill {Save} x", ["button", "use 'click"]),
    ("fill {Attachment} /etc/hostname", ["file input", "use 'upload"]),
    ("type {Back to index} x", ["not an editable field (link)"]),
    ("fill {Fake box} x", ["not an editable field (textbox)"]),
    ("fill {Dial} 5", ["not an editable field (slider)"]),
    ("type {Custom picker} x", ["not an editable field (combobox)"]),
    ("fill {Reference} x", ["read-only"]),
    ("type {Locked field} x", ["disabled"]),
])
def test_refusals_are_one_line_and_touch_nothing(page, line, words):
    driver, snap = page
    for name in ("Agree", "Sort", "Save", "Attachment", "Back to index", "Reference", "Locked field", "Fake box",
                 "Dial", "Custom picker"):
        line = line.replace("{" + name + "}", ref_of(snap, name))
    before = state(driver)
    out = driver.fail(line, "not_actionable")
    for w in words:
        assert w in out.message, out.message
    assert "\n" not in out.message
    assert state(driver) == before and driver.js("window.__ev") == []


# -- focus thieves -------------------------------------------------------------------------------------------

def test_page_moving_focus_on_focus_is_refused(page):
    driver, snap = page
    before = state(driver)
    greedy, decoy = ref_of(snap, "Greedy"), ref_of(snap, "Decoy")
    out = driver.fail(f"fill {greedy} secret", "not_actionable")
    assert out.message == (f'Nothing was filled: could not focus textbox "Greedy" ({greedy}): '
                           f'focus is on textbox "Decoy" ({decoy}).')
    assert state(driver) == before
    assert [e for e in driver.js("window.__ev") if e[0] != "change"] == []
    driver.fail(f"type {greedy} x", "not_actionable")
    driver.fail(f"press {greedy} a", "not_actionable")
    assert state(driver) == before


def test_page_moving_focus_on_keydown_stops_the_keys(page):
    driver, snap = page
    before = state(driver)
    sticky, decoy = ref_of(snap, "Sticky"), ref_of(snap, "Decoy")
    out = driver.fail(f"type {sticky} abc", "not_actionable")
    assert f'could not focus textbox "Sticky" ({sticky}): focus is on textbox "Decoy" ({decoy})' in out.message
    assert state(driver) == before  # nothing typed into Decoy (nor Sticky)
    assert not [e for e in driver.js("window.__ev") if e[0] in ("beforeinput", "input")]


def test_press_without_target_names_the_focused_element(page):
    driver, snap = page
    out = driver.ok("press End")
    assert out.data["ref"] == ref_of(snap, "Start here") and out.data["role"] == "textbox"
    assert f'Sent to textbox "Start here" ({out.data["ref"]}).' in out.notes
    driver.js("document.activeElement.blur()")
    out = driver.ok("press Escape")
    assert out.data["ref"] is None and "Sent to the page itself (no element has focus)." in out.notes


def test_press_with_target_focuses_it_first(page):
    driver, snap = page
    before = state(driver)
    text = ref_of(snap, "Text")
    out = driver.ok(f"press {text} z")
    assert out.data["ref"] == text
    assert driver.js("document.activeElement.id") == "text"
    after = state(driver)
    assert after["text"] in ("zX", "Xz") and {k: v for k, v in after.items() if k != "text"} == \
        {k: v for k, v in before.items() if k != "text"}


# -- upload ---------------------------------------------------------------------------------------------------

def test_upload_one_and_two_files(page, tmp_path):
    driver, snap = page
    a, b = tmp_path / "a.txt", tmp_path / "b b.png"
    a.write_text("A")
    b.write_bytes(b"\x89PNG")
    before = state(driver)
    out = driver.ok(f"upload {ref_of(snap, 'Attachment')} {a}")
    assert out.data["files"] == ["a.txt"]
    assert_only(before, state(driver), "file", "a.txt")
    out = driver.ok(f"upload {ref_of(snap, 'Photos')} {a} '{b}'")
    assert out.data["files"] == ["a.txt", "b b.png"]
    assert driver.js("document.getElementById('files').files[1].size") == 4
    assert ["change", "files", True] in driver.js("window.__ev")


def test_upload_refusals(page, tmp_path):
    driver, snap = page
    a = tmp_path / "a.txt"
    a.write_text("A")
    before = state(driver)
    att = ref_of(snap, "Attachment")
    assert driver.fail(f"upload {att} {tmp_path / 'missing.txt'}", "usage").message == \
        f"No such file: {tmp_path / 'missing.txt'}"
    assert "is a directory" in driver.fail(f"upload {att} {tmp_path}", "usage").message
    assert "takes one file, not 2" in driver.fail(f"upload {att} {a} {a}", "usage").message
    assert "not a file input" in driver.fail(f"upload {ref_of(snap, 'Text')} {a}", "not_actionable").message
    assert state(driver) == before


# -- check / select verify their effect -------------------------------------------------------------------------

def test_check_reads_back_and_cancelled_click_is_not_applied(page):
    driver, snap = page
    out = driver.ok(f"check {ref_of(snap, 'Agree')}")
    assert out.data["checked"] is True
    stuck = ref_of(snap, "Stuck (the page cancels every click)")
    out = driver.fail(f"check {stuck}", "not_applied")
    assert "still unchecked" in out.message
    assert state(driver)["stuck"] == "false"


def test_select_values_starting_with_dashes(page):
    driver, snap = page
    sort = ref_of(snap, "Sort")
    out = driver.ok(f"select {sort} --asc")
    assert out.data["value"] == "--asc" and out.data["selected"] == ["Ascending (--asc)"]
    out = driver.ok(f'select {sort} "Descending (--desc)"')
    assert out.data["value"] == "--desc"
    out = driver.ok(f'select {sort} "-- choose --"')
    assert out.data["value"] == "" and state(driver)["sort"] == ""
    assert "Unknown option" in driver.fail("snapshot --bogus", "usage").message  # other commands keep options


def test_select_that_the_page_undoes_is_not_applied(page):
    driver, snap = page
    driver.js("document.getElementById('sort').addEventListener('change', e => { e.target.value = ''; })")
    out = driver.fail(f"select {ref_of(snap, 'Sort')} --asc", "not_applied")
    assert out.message.endswith(': the page changed the selection back to "-- choose --".')


# -- passwords never echo ---------------------------------------------------------------------------------------

def test_password_is_masked_in_results_text_and_json(page):
    driver, snap = page
    pw = ref_of(snap, "Password")
    out = driver.run(f"fill {pw} hunter2-secret")
    assert out.ok and out.result.data["value"] == MASK and out.result.data["masked"] is True
    assert driver.js("document.getElementById('password').value") == "hunter2-secret"
    console = Console(file=io.StringIO(), width=200, no_color=True)
    Renderer(console=console, err_console=console).show(out)
    text = console.file.getvalue()
    assert "hunter2" not in text and "Filled" in text
    buf = io.StringIO()
    json_renderer = Renderer(json_mode=True, console=Console(file=buf, width=10000))
    code = run_lines(driver.ctx, json_renderer, [f"type {pw} -more", f"fill {pw} x{'y' * 20}",
                                                  f"press {pw} Enter"], keep_going=True)
    assert code == 0
    raw = buf.getvalue()
    assert "more" not in raw and "yyyy" not in raw and "secret" not in raw
    lines = [json.loads(x) for x in raw.splitlines()]
    assert lines[0]["command"] == f"type {pw} {MASK}" and lines[0]["result"]["value"] == MASK
    assert "notes" not in lines[1]["result"]  # the value is what was asked: no note
    assert driver.js("document.getElementById('password').value") == "x" + "y" * 20
    driver.js("document.getElementById('password').maxLength = 8")
    out = driver.run(f"fill {pw} longer-than-eight")
    assert out.result.data["value"] == MASK
    assert out.result.notes == ["The field holds a different value than the one entered (maxlength, a mask or "
                                "the page changed it); not shown, it is a password."]
    assert "longer" not in json.dumps(out.as_json())


# -- waiting is visible -------------------------------------------------------------------------------------------

def test_waiting_reports_progress_and_the_final_message_says_how_long(chrome_http, demo):
    d = Driver(chrome_http, timeout=1)
    try:
        d.ok("open " + demo.url("fields.html"))
        snap = d.ok("snapshot")
        d.js("const c = document.createElement('div'); c.id = 'cover'; c.style.cssText = "
             "'position:fixed;inset:0;background:rgba(0,0,0,.2)'; document.body.appendChild(c)")
        heard = []
        d.ctx.progress = heard.append
        save = ref_of(snap, "Save")
        out = d.fail(f"click {save}", "not_actionable")
        assert out.message == f'Element button "Save" ({save}) is not actionable after 1.0 s: it is covered by <div id="cover">.'
        assert heard == [f'waiting for button "Save" ({save}): it is covered by <div id="cover">']
        d.js("setTimeout(() => document.getElementById('cover').remove(), 400)")
        heard.clear()
        d.ok(f"click {save}")
        assert heard and heard[0].startswith('waiting for button "Save"')
        assert d.js("document.getElementById('log').textContent") == "saved"
    finally:
        d.close()


def test_inspect_does_not_show_a_password(page):
    driver, snap = page
    pw = ref_of(snap, "Password")
    out = driver.ok(f"inspect {pw}")
    assert out.data["attributes"]["value"] == MASK
    assert "old-secret" not in json.dumps(out.data)


def test_check_waits_a_moment_for_a_widget_that_updates_later(page):
    driver, snap = page
    driver.js("const a = document.getElementById('agree'); a.addEventListener('click', e => {"
              " e.preventDefault(); setTimeout(() => { a.checked = true; }, 150); })")
    out = driver.ok(f"check {ref_of(snap, 'Agree')}")
    assert out.data["checked"] is True and state(driver)["agree"] == "true"


def test_fill_and_type_inside_a_shadow_root(page):
    driver, snap = page
    inner = "document.getElementById('shadow-host').shadowRoot.getElementById('inner')"
    before = state(driver)
    ref = ref_of(snap, "Shadow field")
    assert driver.ok(f"type {ref} more").data["value"] == "Smore"
    assert driver.ok(f"fill {ref} shadowed").data["value"] == "shadowed"
    assert driver.js(f"{inner}.value") == "shadowed"
    assert state(driver) == before
    out = driver.ok("press End")  # the focused element is found through the shadow root
    assert out.data["ref"] == ref
