"""Controls a page hides behind something a user clicks: the styled switch whose checkbox has zero
size inside the label that draws the slider (check acts through the label, verified by read-back), a
zero-size checkbox with no label (refused at once: no wait for a size its own style keeps at zero),
and a button that opens a hidden file input (the result says a file chooser opened and how to answer
it). Judged by the page's own log. Pages: fixtures/switches."""

from __future__ import annotations

import pytest

from conftest import Driver, pages_site, ref_in, until

site = pages_site("switches")


@pytest.mark.parametrize("name, role, key", [("Notifications", "checkbox", "notify"), ("Dark mode", "switch", "dark")])
def test_a_zero_size_styled_switch_is_checked_through_its_label(driver, site, name, role, key):
    driver.ok("open " + site.url("switches.html"))
    ref = driver.ref(f'{role} "{name}"')
    out = driver.ok(f"check {ref}")
    assert out.data["checked"] is True
    assert any("label" in n and "zero size" in n for n in out.notes), out.notes
    assert driver.js("log") == [f"{key}=true"]
    out = driver.ok(f"uncheck {ref}")
    assert out.data["checked"] is False
    assert driver.js("log") == [f"{key}=true", f"{key}=false"]


def test_a_zero_size_checkbox_without_a_label_is_refused_without_waiting(chrome_http, site):
    d = Driver(chrome_http, timeout=30)
    try:
        d.ok("open " + site.url("switches.html"))
        ref = d.ref('checkbox "Beta features"')
        heard = []
        d.ctx.progress = heard.append
        out = d.fail(f"check {ref}", "not_actionable")
        assert "zero size" in out.message and "after 30.0 s" not in out.message, out.message
        assert heard == []  # nothing was waited for
        assert d.js("log") == []
    finally:
        d.close()


def test_a_zero_size_switch_is_hovered_and_clicked_on_its_label(driver, site):
    driver.ok("open " + site.url("switches.html"))
    ref = driver.ref('checkbox "Notifications"')
    out = driver.ok(f"hover {ref}")
    assert any("label" in n for n in out.notes), out.notes
    driver.ok(f"click {ref}")
    assert driver.js("log") == ["notify=true"]


def test_a_button_that_opens_a_hidden_file_input_says_so_and_names_the_upload(driver, site, tmp_path):
    driver.ok("open " + site.url("photo.html"))
    out = driver.ok("click " + driver.ref('button "Choose photo"'))
    chooser = out.data["file_choosers"]
    assert len(chooser) == 1 and chooser[0]["multiple"] is False
    ref = chooser[0]["ref"]
    assert any(f"'upload {ref} PATH'" in n and "file chooser" in n and "(hidden)" in n for n in out.notes), out.notes
    photo = tmp_path / "me.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    out = driver.ok(f"upload {ref} {photo}")
    assert out.data["files"] == ["me.png"]
    assert driver.js("log") == ["chosen me.png"]


def test_a_file_chooser_opened_in_a_cross_origin_frame_is_told_too(driver, site, tmp_path):
    driver.ok("open " + site.url("photo_frame.html"))
    text = until(lambda: (lambda t: t if "Choose photo" in t else None)(driver.ok("snapshot --fresh").data["text"]))
    out = driver.ok("click " + ref_in(text, 'button "Choose photo"'))
    ref = out.data["file_choosers"][0]["ref"]
    assert any(f"'upload {ref} PATH'" in n for n in out.notes), out.notes
    doc = tmp_path / "me.txt"
    doc.write_text("me")
    driver.ok(f"upload {ref} {doc}")
    assert "Photo: me.txt" in driver.ok("snapshot").data["text"]
