"""Navigation, eval, screenshots and dialogs against the demo site in real headless Chromium."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# -- open / back / forward / reload -------------------------------------------------------------

def test_open_returns_url_and_title(driver, demo):
    url = demo.url("index.html")
    res = driver.ok(f"open {url}")
    assert res.kind == "navigation"
    assert res.data["url"] == url
    assert res.data["title"] == "Verdex demo site"
    assert driver.js("document.readyState") == "complete"


def test_goto_alias(driver, demo):
    res = driver.ok(f"goto {demo.url('shop.html')}")
    assert res.data["title"] == "Demo Shop"


def test_back_forward_and_reload(driver, demo):
    index, shop = demo.url("index.html"), demo.url("shop.html")
    driver.ok(f"open {index}")
    driver.ok(f"open {shop}")
    res = driver.ok("back")
    assert res.data["url"] == index and res.data["title"] == "Verdex demo site"
    assert driver.js("location.href") == index
    res = driver.ok("forward")
    assert res.data["url"] == shop and res.data["title"] == "Demo Shop"
    driver.js("window.__marker = 'before reload'")
    res = driver.ok("reload")
    assert res.data["url"] == shop
    assert driver.js("typeof window.__marker") == "undefined"  # a fresh document


def test_back_with_no_history_is_a_clear_error(driver, demo):
    out = driver.fail("back", kind="navigation_failed")
    assert out.message == "There is no previous page in this tab's history."
    driver.ok(f"open {demo.url('index.html')}")
    out = driver.fail("forward", kind="navigation_failed")
    assert out.message == "There is no next page in this tab's history."


def test_local_file_paths(driver, monkeypatch):
    form = ROOT / "demo_pages" / "form.html"
    res = driver.ok(f"open {form}")
    assert res.data["url"] == form.as_uri()
    monkeypatch.chdir(ROOT)
    res = driver.ok("open demo_pages/shop.html")
    assert res.data["url"] == (ROOT / "demo_pages" / "shop.html").as_uri()
    assert res.data["title"] == "Demo Shop"
    res = driver.ok("open ./demo_pages/index.html")
    assert res.data["title"] == "Verdex demo site"


def test_quoted_path_with_spaces(driver, tmp_path):
    page = tmp_path / "a dir" / "my page.html"
    page.parent.mkdir()
    page.write_text("<title>Spaced</title><p>hi</p>")
    res = driver.ok(f'open "{page}"')
    assert res.data["title"] == "Spaced"


def test_missing_local_file(driver, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    out = driver.fail("open ./nope.html", kind="navigation_failed")
    assert out.message == "No such file: ./nope.html"


def test_unreachable_url(driver):
    out = driver.fail("open http://127.0.0.1:9/", kind="navigation_failed")
    assert out.message.startswith("Could not open http://127.0.0.1:9/: net::ERR_")
    assert "\n" not in out.message


def test_same_document_navigation(driver, demo):
    driver.ok(f"open {demo.url('index.html')}")
    res = driver.ok(f"open {demo.url('index.html')}#section")
    assert res.data["url"].endswith("index.html#section")


# -- screenshot -----------------------------------------------------------------------------------

def test_screenshot_writes_a_png(driver, demo, tmp_path):
    driver.ok(f"open {demo.url('shop.html')}")
    out = tmp_path / "shots" / "shop.png"
    res = driver.ok(f"screenshot {out}")
    data = out.read_bytes()
    assert data[:8] == PNG_MAGIC
    import struct

    assert res.data == {"path": str(out), "bytes": len(data), "width": struct.unpack(">I", data[16:20])[0],
                        "height": struct.unpack(">I", data[20:24])[0]}
    assert len(data) > 1000


def test_full_page_screenshot_is_taller(driver, tmp_path):
    import struct

    page = tmp_path / "tall.html"
    page.write_text("<title>Tall</title><div style='height: 3000px; background: linear-gradient(red, blue)'>x</div>")
    driver.ok(f"open {page}")
    view, full = tmp_path / "view.png", tmp_path / "full.png"
    driver.ok(f"screenshot {view}")
    driver.ok(f"screenshot {full} --full")

    def height(p: Path) -> int:
        return struct.unpack(">I", p.read_bytes()[20:24])[0]

    assert height(view) < 3000 < height(full)


def test_screenshot_jpeg_and_bad_extension(driver, demo, tmp_path):
    driver.ok(f"open {demo.url('index.html')}")
    jpg = tmp_path / "x.jpg"
    driver.ok(f"screenshot {jpg}")
    assert jpg.read_bytes()[:3] == b"\xff\xd8\xff"
    out = driver.fail(f"screenshot {tmp_path / 'x.txt'}", kind="usage")
    assert "must end in .png" in out.message
    assert not (tmp_path / "x.txt").exists()


# -- eval -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr,value", [
    ("1 + 2", 3),
    ("0.5 * 3", 1.5),
    ("'a' + 'b'", "ab"),
    ("[1, 'two', null]", [1, "two", None]),
    ("({n: 1, nested: {ok: true}})", {"n": 1, "nested": {"ok": True}}),
    ("null", None),
    ("true", True),
    ("await Promise.resolve(7)", 7),
    ("document.title", "Verdex demo site"),
    ('1 + "a b"', "1a b"),
])
def test_eval_values(driver, demo, expr, value):
    driver.ok(f"open {demo.url('index.html')}")
    res = driver.ok(f"eval {expr}")
    assert res.kind == "value"
    assert res.data == {"value": value}


def test_eval_keeps_state_between_lines(driver, demo):
    driver.ok(f"open {demo.url('index.html')}")
    driver.ok("eval let counter = 40")
    assert driver.ok("eval counter += 2").data["value"] == 42


@pytest.mark.parametrize("expr,start", [
    ("throw new Error('boom')", "Error: boom"),
    ("nosuchvariable", "ReferenceError: nosuchvariable is not defined"),
    ("null.x", "TypeError"),
    ("await Promise.reject(new RangeError('nope'))", "RangeError: nope"),
    ("(function () {", "SyntaxError"),
])
def test_eval_errors_are_js_error_in_one_line(driver, demo, expr, start):
    driver.ok(f"open {demo.url('index.html')}")
    out = driver.fail(f"eval {expr}", kind="js_error")
    assert out.message.startswith(start)
    assert "\n" not in out.message
    # the tab still works afterwards
    assert driver.ok("eval 1").data["value"] == 1


# -- dialogs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("button,result,note", [
    ("alert-btn", "Alert dismissed", "An alert was shown and accepted: 'Hello from the demo page!'"),
    ("confirm-btn", "Confirm result: false", "A confirm was shown and dismissed: 'Do you want to continue?'"),
    ("prompt-btn", "Prompt result: null", "A prompt was shown and dismissed: 'What is your name?'"),
])
def test_dialogs_do_not_hang(driver, demo, button, result, note):
    driver.ok(f"open {demo.url('dialogs.html')}")
    start = time.monotonic()
    res = driver.ok(f"eval document.querySelector('#{button}').click()")
    assert time.monotonic() - start < 5
    assert res.data["value"] is None
    assert driver.js("document.querySelector('#dialog-result').textContent") == result
    # the dialog is reported by the command during which it appeared
    assert note in res.notes


def test_dialog_during_page_load_does_not_hang(driver, tmp_path):
    page = tmp_path / "load-alert.html"
    page.write_text("<title>Loud</title><script>alert('hi while loading')</script><p>after</p>")
    start = time.monotonic()
    res = driver.ok(f"open {page}")
    assert time.monotonic() - start < 8
    assert res.data["title"] == "Loud"
    assert driver.js("document.querySelector('p').textContent") == "after"
