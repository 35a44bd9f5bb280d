"""Deep focus: through frames (same- and cross-origin, nested) and shadow roots; private REPL history."""

from __future__ import annotations

import os
import stat

import pytest

from verdex_cli.commands.registry import redact_line
from verdex_cli.act.fields import MASK
from verdex_cli.ui.repl.app import _history
from verdex_cli.ui.repl.history import PrivateHistory

SAME = "document.getElementById('same-frame').contentDocument"


@pytest.fixture
def frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot")
    inputs = {i["frame"]: r for r, i in snap.data["refs"].items() if i["name"] == "Frame input"}
    assert len(inputs) == 2, inputs  # same-origin and cross-origin
    return driver, snap, inputs


def test_fill_into_each_frame_from_focus_in_another(frames):
    driver, snap, inputs = frames
    for frame, ref in sorted(inputs.items()):
        driver.js("document.querySelector('a').focus()")  # focus starts in the top document
        out = driver.ok(f"fill {ref} in frame {frame}")
        assert out.data["value"] == f"in frame {frame}"
    text = driver.ok("snapshot").data["text"]
    for frame, ref in inputs.items():
        assert f'textbox "Frame input" [ref={ref}]: in frame {frame}' in text
    assert driver.js(f"{SAME}.getElementById('frame-input').value") == f"in frame {min(inputs)}"


def test_press_in_a_nested_cross_origin_frame(frames):
    driver, snap, inputs = frames
    leaf = next(r for r, i in snap.data["refs"].items() if i["name"] == "Leaf button")
    assert snap.data["refs"][leaf]["frame"] >= 3  # depth 2, below the cross-origin frame
    driver.js("document.querySelector('a').focus()")
    out = driver.ok(f"press {leaf} Enter")  # focus verified through two cross-origin frames
    assert out.data["ref"] == leaf
    snap = driver.ok("snapshot")
    assert 'status: Leaf clicked' in snap.data["text"] or '"Leaf clicked"' in snap.data["text"]
    out = driver.ok("press End")  # without a target: the focused element, found through the frames
    assert out.data["ref"] == leaf and out.data["role"] == "button" and out.data["name"] == "Leaf button"
    assert f'Sent to button "Leaf button" ({leaf}).' in out.notes


def test_parent_stealing_focus_on_keydown_in_a_frame_is_refused(frames):
    driver, snap, inputs = frames
    link = next(r for r, i in snap.data["refs"].items() if i["name"] == "Back to index")
    driver.js(f"{SAME}.getElementById('frame-input').addEventListener('keydown',"
              " () => document.querySelector('a').focus())")
    driver.js("window.__top = []; for (const t of ['keypress', 'beforeinput', 'input'])"
              " document.addEventListener(t, e => window.__top.push(t), true)")
    ref = inputs[min(inputs)]
    out = driver.fail(f"type {ref} abc", "not_actionable")
    # the first key's keydown reached the input (its handler moved focus); nothing was typed anywhere
    assert out.message.endswith(f': could not focus textbox "Frame input" ({ref}): '
                                f'focus is on link "Back to index" ({link}).')
    assert driver.js(f"{SAME}.getElementById('frame-input').value") == ""
    assert driver.js("window.__top") == []  # the guard in the top document stopped the keys


def test_focus_in_another_frame_is_named_when_refusing(frames):
    driver, snap, inputs = frames
    same, cross = inputs[min(inputs)], inputs[sorted(inputs)[1]]
    # the same-origin frame grabs focus back whenever its input loses it
    driver.js(f"{SAME}.getElementById('frame-input').addEventListener('blur',"
              " e => setTimeout(() => e.target.focus(), 0))")
    driver.ok(f"focus {same}")
    out = driver.run(f"press {cross} a")
    if out.ok:  # the page did not manage to take focus back before the key: it must have landed right
        assert driver.js(f"{SAME}.getElementById('frame-input').value") == ""
    else:
        assert out.kind == "not_actionable" and "could not focus" in out.message
        assert driver.js(f"{SAME}.getElementById('frame-input').value") == ""


def test_press_space_on_a_checkbox_inside_shadow_roots(driver, demo):
    driver.ok("open " + demo.url("shadow.html"))
    snap = driver.ok("snapshot")
    notify = next(r for r, i in snap.data["refs"].items() if i["name"] == "Notify")
    out = driver.ok(f"press {notify} Space")
    assert out.data["ref"] == notify
    toggle = "document.getElementById('user-card').shadowRoot.querySelector('notify-toggle').shadowRoot"
    assert driver.js(f"{toggle}.getElementById('notify').checked") is True
    out = driver.ok("press Space")  # without a target: the focused element deep in the shadow tree
    assert out.data["ref"] == notify
    assert driver.js(f"{toggle}.getElementById('notify').checked") is False


# -- history ------------------------------------------------------------------------------------------------

def test_history_file_is_private_and_keeps_masked_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    hist = _history()
    assert isinstance(hist, PrivateHistory)
    path = tmp_path / "state" / "verdex" / "history"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    hist.append_string("snapshot")
    hist.settle("snapshot")
    hist.append_string("fill c0p0f0e3 hunter2")
    assert "hunter2" not in path.read_text()  # nothing is written before the command ran
    hist.settle(redact_line("fill c0p0f0e3 hunter2"))
    text = path.read_text()
    assert "hunter2" not in text and f"+fill c0p0f0e3 {MASK}" in text and "+snapshot" in text
    assert list(hist.get_strings())[-1] == f"fill c0p0f0e3 {MASK}"


def test_existing_history_file_is_made_private(tmp_path):
    path = tmp_path / "history"
    path.write_text("\n# old\n+open x\n")
    os.chmod(path, 0o644)
    hist = PrivateHistory(str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert list(hist.load_history_strings()) == ["open x"]


def test_repl_line_with_a_password_is_masked(driver, demo):
    driver.ok("open " + demo.url("fields.html"))
    snap = driver.ok("snapshot")
    pw = next(r for r, i in snap.data["refs"].items() if i["name"] == "Password")
    out = driver.run(f"fill {pw} 'my secret'")
    assert out.ok and out.line == f"fill {pw} {MASK}"
    text = next(r for r, i in snap.data["refs"].items() if i["name"] == "Text")
    assert driver.run(f"fill {text} visible").line == f"fill {text} visible"  # only passwords are masked


def test_repl_shows_what_an_action_waits_for(chrome_http, demo):
    import io
    import threading

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from conftest import Driver, type_at_prompts
    from verdex_cli.ui.render import Renderer
    from verdex_cli.ui.repl.app import Repl

    d = Driver(chrome_http, timeout=3)
    try:
        d.ok("open " + demo.url("fields.html"))
        save = next(r for r, i in d.ok("snapshot").data["refs"].items() if i["name"] == "Save")
        d.js("const c = document.createElement('div'); c.id = 'cover'; c.style.cssText = "
             "'position:fixed;inset:0'; document.body.appendChild(c); setTimeout(() => c.remove(), 800)")
        console = Console(file=io.StringIO(), width=200, no_color=True)
        with create_pipe_input() as inp:
            repl = Repl(d.ctx, Renderer(console=console, err_console=console), input=inp, output=DummyOutput())

            type_at_prompts(repl, inp, f"click {save}\r", "quit\r")
            th = threading.Thread(target=repl.loop, daemon=True)
            th.start()
            th.join(30)
            assert not th.is_alive()
        out = console.file.getvalue()
        assert f'waiting for button "Save" ({save}): it is covered by <div id="cover">' in out
        assert out.index("waiting for") < out.index("Clicked")
        assert d.js("document.getElementById('log').textContent") == "saved"
    finally:
        d.close()
