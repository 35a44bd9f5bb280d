"""Pointer actions in quirks-mode documents (no doctype: legacy embeds, about:blank frames filled by
document.write). There `el.matches(':hover')` stays false while the pointer is on the element (the
hover quirk: a bare :hover matches only links), so the under-the-pointer checks refused every click
and hover in such a frame. Judged by what each button's own document told the page (its log)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ref_in, until
from verdex_cli.app.demo_server import serve

PAGES = Path(__file__).resolve().parent / "fixtures" / "quirks"
BUTTONS = {"top": "Top legacy", "same": "Legacy button", "cross": "Legacy button",
           "written": "Written button", "scripted": "Scripted button", "srcdoc": "Srcdoc button"}


@pytest.fixture(scope="module")
def legacy():
    server = serve(PAGES)
    yield server
    server.stop()


def open_legacy(driver, legacy) -> dict[str, str]:
    """The ref of each document's button (same and cross show the same button: told by frame)."""
    driver.ok("open " + legacy.url("outer.html"))
    assert until(lambda: driver.js("document.getElementById('cross').contentWindow.length === 0 && "
                                   "[...document.querySelectorAll('iframe')].length === 5"))
    frames = {r["index"]: r["url"] for r in driver.ok("frames").data["frames"]}
    text = until(lambda: (lambda t: t if t.count("Legacy button") == 2 else None)(driver.ok("snapshot --fresh").data["text"]))
    assert text, "the legacy frames did not load"
    refs = {"top": ref_in(text, 'button "Top legacy"'), "written": ref_in(text, 'button "Written button"'),
            "scripted": ref_in(text, 'button "Scripted button"'), "srcdoc": ref_in(text, 'button "Srcdoc button"')}
    for line in text.splitlines():
        if 'button "Legacy button"' in line:
            ref = line.split("[ref=")[1].rstrip("]:")
            url = frames[int(ref.split("f")[1].split("e")[0])]
            refs["same" if "n=same" in url else "cross"] = ref
    assert set(refs) == set(BUTTONS), (refs, text)
    return refs


def log(driver) -> list[str]:
    return driver.js("window.log.slice()")


def test_the_documents_really_are_in_quirks_mode(driver, legacy):
    open_legacy(driver, legacy)
    assert driver.js("document.compatMode") == "BackCompat"
    assert driver.js("document.getElementById('written').contentDocument.compatMode") == "BackCompat"
    assert driver.js("document.getElementById('same').contentDocument.compatMode") == "BackCompat"
    assert driver.js("document.getElementById('scripted').contentDocument.compatMode") == "BackCompat"


@pytest.mark.parametrize("which", list(BUTTONS))
def test_click_in_a_quirks_mode_document_lands(driver, legacy, which):
    refs = open_legacy(driver, legacy)
    out = driver.ok(f"click {refs[which]}")
    assert out.data["name"] == BUTTONS[which]
    assert until(lambda: f"{which}:click" in log(driver)), log(driver)
    assert [e for e in log(driver) if e.endswith(":click")] == [f"{which}:click"]  # nothing else was clicked


@pytest.mark.parametrize("which", list(BUTTONS))
def test_hover_in_a_quirks_mode_document_is_ok(driver, legacy, which):
    refs = open_legacy(driver, legacy)
    driver.ok(f"hover {refs[which]}")
    assert until(lambda: f"{which}:over" in log(driver)), log(driver)
    assert not [e for e in log(driver) if e.endswith(":click")]


def test_dblclick_in_a_quirks_mode_frame_sends_both_clicks(driver, legacy):
    refs = open_legacy(driver, legacy)
    driver.ok(f"dblclick {refs['same']}")
    assert until(lambda: log(driver).count("same:click") == 2), log(driver)
