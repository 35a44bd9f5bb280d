"""The snapshot engine against real Chromium: format, tiers, compact mode, frames, isolation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import Driver, target_title, until

FIX = Path(__file__).parent / "fixtures" / "snapshot"


def snap(driver, line="snapshot"):
    return driver.ok(line).data


def open_fixture(driver, name):
    driver.ok(f"open {FIX / name}")


def test_format_lines_states_and_values(driver):
    open_fixture(driver, "format.html")
    text = snap(driver)["text"]
    lines = text.splitlines()
    assert lines[0] == '- document "Format cases":'
    assert '  - banner:' in lines
    assert '    - link "Home" [ref=c0p0f0e1]' in lines
    # generic wrappers collapse: the deep button sits directly under main
    assert '    - button "Deep button" [ref=c0p0f0e2]' in lines
    assert '    - heading "Sub heading" [level=2]' in lines
    assert '    - paragraph: A paragraph with plain text only.' in lines
    assert '      - link "inline link" [ref=c0p0f0e3]' in lines
    assert re.search(r'- checkbox "Mixed box" \[checked=mixed\] \[ref=c0p0f0e\d+\]', text)
    assert re.search(r'- button "Pressed" \[pressed\] \[ref=', text)
    assert re.search(r'- button "Off" \[disabled\] \[ref=', text)
    assert re.search(r'- textbox "Needed" \[required\] \[ref=c0p0f0e\d+\]: typed value', text)
    # names are quoted JSON-style
    assert '- button "Say \\"hi\\" \\\\ bye" [ref=' in text
    # names over 100 characters are cut with ...
    long_line = next(ln for ln in lines if "very long name" in ln)
    name = re.search(r'"(.*)"', long_line).group(1)
    assert name.endswith("...") and len(name) <= 103
    # passwords are never printed
    assert "hunter22" not in text and re.search(r'textbox "Secret" \[ref=c0p0f0e\d+\]: •+', text)


def test_native_names_of_containers(driver, demo):
    driver.ok("open " + demo.url("form.html"))
    text = snap(driver)["text"]
    assert '- group "Shipping":' in text and '- group "Toppings":' in text
    assert '- form "Demo form":' in text
    assert '- heading "Form controls" [level=1]' in text


def test_hidden_content_is_left_out(driver):
    open_fixture(driver, "format.html")
    text = snap(driver)["text"]
    for hidden in ("Hidden button", "Aria hidden", "Inside closed"):
        assert hidden not in text
    assert 'button "Closed details"' in text


def test_tiers(driver):
    open_fixture(driver, "format.html")
    data = snap(driver)
    text = data["text"]
    # tier 2 (option) inside an interactive container gets a ref; a plain listitem does not
    assert re.search(r'- option "Chosen" \[selected\] \[ref=c0p0f0e\d+\]', text)
    assert "- listitem: Plain item" in text
    # tabindex >= 0 makes anything tier 1; tabindex=-1 does not
    assert re.search(r'\[ref=c0p0f0e\d+\]: Focusable div', text)
    assert "Not in tab order" in text and not re.search(r"Not in tab order.*\[ref", text)
    # headings and paragraphs never get refs
    assert not re.search(r"- (heading|paragraph).*\[ref=", text)


def test_json_result_shape(driver):
    open_fixture(driver, "format.html")
    data = snap(driver)
    assert set(data) >= {"text", "refs", "frames", "notes"}
    assert data["refs"]["c0p0f0e1"] == {"role": "link", "name": "Home", "frame": 0}
    # refs carry full, uncut names
    long = [r for r in data["refs"].values() if "very long name" in r["name"]][0]
    assert len(long["name"]) > 100 and not long["name"].endswith("...")
    # every ref in the text is in the map and vice versa
    in_text = set(re.findall(r"\[ref=(c\d+p\d+f\d+e\d+)\]", data["text"]))
    assert in_text == set(data["refs"])
    assert data["frames"][0]["index"] == 0 and data["frames"][0]["cross_origin"] is False


def test_compact_mode_and_all_refs(driver):
    open_fixture(driver, "compact.html")
    data = snap(driver)
    text = data["text"]
    assert re.search(r'- button "First button" \[ref=', text)
    assert re.search(r'- button "Last button" \[ref=', text)
    assert '- option "Fruit 1"\n' in text + "\n"  # shown, but without a ref
    assert len(data["refs"]) == 2
    assert any("150 more" in n and "snapshot --all-refs" in n for n in data["notes"])
    full = snap(driver, "snapshot --all-refs")
    assert len(full["refs"]) == 152
    assert re.search(r'- option "Fruit 150" \[ref=c0p0f0e\d+\]', full["text"])
    assert not any("--all-refs" in n for n in full["notes"])


@pytest.mark.parametrize("page", ["blank.html", None])
def test_blank_pages_give_document_and_note(driver, demo, page):
    if page:
        driver.ok("open " + demo.url(page))
    else:
        open_fixture(driver, "blank-hidden.html")
    data = snap(driver)
    assert data["text"].splitlines()[0].startswith("- document")
    assert len(data["text"].splitlines()) == 1
    assert data["refs"] == {}
    assert any("no accessible content" in n for n in data["notes"])


def test_about_blank(driver):
    driver.ok("open about:blank")
    data = snap(driver)
    assert data["text"] == "- document"
    assert data["notes"]


def test_page_cannot_break_or_forge_the_bridge(driver):
    open_fixture(driver, "hostile.html")
    data = snap(driver)
    text = data["text"]
    assert "HACKED" not in text and "forged" not in text
    assert re.search(r'- textbox "Query" \[ref=c0p0f0e1\]: abc', text)
    assert re.search(r'- button "Go" \[ref=c0p0f0e2\]', text)
    assert "- listitem: One" in text and "- listitem: Two" in text
    # page scripts cannot see the isolated world's registry
    assert driver.js("typeof window.__verdex.bridge.describe") == "undefined"
    driver.ok("click c0p0f0e2")


def test_frames_nested_and_cross_origin(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    data = snap(driver)
    text = data["text"]
    frames = {f["index"]: f for f in data["frames"]}
    assert frames[0]["url"].endswith("/frames.html")
    assert len(frames) == 6
    cross = [f for f in data["frames"] if f["cross_origin"]]
    assert any(f["url"].startswith(demo.b) for f in cross), data["frames"]
    # every iframe node carries [frame=fN]; its content is nested under it
    iframe_lines = [ln for ln in text.splitlines() if "- iframe " in ln]
    assert len(iframe_lines) == 5 and all(re.search(r"\[frame=f\d+\]", ln) for ln in iframe_lines)
    nested = re.search(r'( *)- iframe "Nested frame" \[frame=f(\d+)\] \[ref=c0p0f(\d+)e\d+\]:\n\1  ', text)
    assert nested, text
    leaf_frame = nested.group(2)
    assert re.search(rf'- button "Leaf button" \[ref=c0p0f{leaf_frame}e1\]', text)
    # refs in each frame start at 1
    assert re.search(r'- button "Frame button" \[ref=c0p0f1e1\]', text)
    # frame indices are stable across snapshots
    again = snap(driver)
    assert again["frames"] == data["frames"]
    assert again["text"] == text


def test_shadow_dom_in_flat_tree_order(driver, demo):
    driver.ok("open " + demo.url("shadow.html"))
    text = snap(driver)["text"]
    follow = text.index('button "Follow"')
    profile = text.index('link "Profile"')
    notify = text.index('checkbox "Notify"')
    assert follow < profile < notify or follow < notify
    assert text.index('button "Hidden inside closed root"') > follow  # a closed root is walked too


def test_busy_page_times_out_and_session_survives(chrome_http):
    d = Driver(chrome_http, timeout=2)
    try:
        d.ok(f"open {FIX / 'busy.html'}")
        looping = lambda: target_title(chrome_http, d.ctx.page.target.id) == "Busy page (looping)"  # noqa: E731
        assert until(looping, 10)  # the page's endless loop has started
        out = d.run("snapshot")
        assert not out.ok and out.kind == "timeout"
        assert "2 s" in out.message and "\n" not in out.message
        after = d.ok("snapshot").data
        assert 'button "Busy"' in after["text"]
    finally:
        d.close()


def test_bad_snapshot_option(driver):
    out = driver.fail("snapshot --bogus", "usage")
    assert "snapshot [--all-refs] [--fresh]" in out.message


def test_fresh_keeps_refs(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    first = snap(driver)
    second = snap(driver, "snapshot --fresh")
    assert first["refs"] == second["refs"]


def test_contenteditable_host_is_a_field_with_a_ref(driver, tmp_path):
    """A contenteditable editing host keeps Chrome's role (generic, paragraph) but is an editable,
    focusable field: tier-1 ref, [editable], and fill/type work on it; its descendants get no ref."""
    page = tmp_path / "editable.html"
    page.write_text("<div id=a contenteditable>edit me</div><p id=b contenteditable>para</p>"
                    "<div id=c contenteditable><p>one</p><p>two</p></div><div contenteditable=false>no</div>",
                    encoding="utf-8")
    driver.ok(f"open {page}")
    text = snap(driver)["text"]
    assert text.splitlines()[1:] == [
        "  - generic [editable] [ref=c0p0f0e1]: edit me",
        "  - paragraph [editable] [ref=c0p0f0e2]: para",
        "  - generic [editable] [ref=c0p0f0e3]:",
        "    - paragraph: one",
        "    - paragraph: two",
        "  - text: no"]
    driver.ok("fill c0p0f0e1 new text")
    assert driver.js("document.getElementById('a').textContent") == "new text"
    driver.ok("type c0p0f0e2  more")
    assert driver.js("document.getElementById('b').textContent") == "para more"
