"""Output a terminal can trust: page text with control sequences never reaches the terminal raw,
no escape codes without colour, JSON carries the real strings and stays safe to print."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from verdex_cli.ui.render import Renderer, SafeConsole, make_console, run_pager
from verdex_cli.ui.repl.app import Repl
from verdex_cli.commands.runner import Outcome
from verdex_cli.base.sanitize import clean, clean_data, json_line
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.registry import Result

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "tests/fixtures/hostile/terminal.html"
SGR = re.compile(r"\x1b\[[0-9;]*m")  # our own colours: Select Graphic Rendition only
DANGEROUS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def verdex(*args: str, env_extra: dict | None = None, stdout=subprocess.PIPE, input: str | None = None):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, input=None if input is None else input.encode(),
                          stdin=None if input is not None else subprocess.DEVNULL, timeout=90)


def on_pty(*args: str, env_extra: dict | None = None) -> tuple[int, bytes]:
    """Run verdex with stdout on a pseudo-terminal; return (exit code, bytes written to it)."""
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TERM"] = "xterm-256color"
    env.update(env_extra or {})
    proc = subprocess.Popen([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, stdout=slave,
                            stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=90), b"".join(chunks)


# -- the sanitizer ---------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, shown", [
    ("a\x1b]0;title\x07b", "a\\x1b]0;title\\x07b"),                 # OSC: set the window title
    ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),                           # CSI: clear the screen
    ("\x1bP1$r\x1b\\", "\\x1bP1$r\\x1b\\"),                          # DCS ... ST
    ("x\x9b31my", "x\\x9b31my"),                                    # 8-bit CSI (C1)
    ("nul\x00del\x7fbs\x08", "nul\\x00del\\x7fbs\\x08"),
    ("two\nlines\r", "two\\nlines\\r"),
    ("tab\tstays", "tab\tstays"),
    ("sep\u2028par\u2029", "sep\\u2028par\\u2029"),
    ("[bold]markup[/bold] :smile: ünïcødé ✓", "[bold]markup[/bold] :smile: ünïcødé ✓"),
])
def test_clean_makes_control_characters_visible(raw, shown):
    assert clean(raw) == shown
    assert clean(clean(raw)) == clean(raw)  # idempotent: cleaning twice changes nothing
    assert not DANGEROUS.search(clean(raw).replace("\t", ""))


def test_clean_can_keep_our_own_newlines():
    assert clean("- a\n- b\x1b[2J", one_line=False) == "- a\n- b\\x1b[2J"


def test_json_line_is_valid_one_line_and_carries_the_real_strings():
    value = {"s": "\x1b]0;x\x07 \x9b2J \x7f \u2028 \n ü", "n": [1, None]}
    line = json_line({"v": value})
    assert "\n" not in line
    assert not DANGEROUS.search(line), line
    assert json.loads(line) == {"v": value}
    assert "ü" in line  # non-ASCII text stays readable


def test_clean_data_cleans_nested_strings_and_keys():
    assert clean_data({"k\x1b": ["a\nb", {"x": "\x9b"}], "n": 3}) == {"k\\x1b": ["a\\nb", {"x": "\\x9b"}], "n": 3}


# -- the renderer ----------------------------------------------------------------------------------

def colour_renderer():
    out = SafeConsole(file=io.StringIO(), width=200, color_system="standard", force_terminal=True, markup=False,
                      emoji=False, highlight=False, soft_wrap=True)
    err = SafeConsole(file=io.StringIO(), width=200, color_system="standard", force_terminal=True, markup=False,
                      emoji=False, highlight=False, soft_wrap=True)
    return Renderer(console=out, err_console=err), out, err


def test_every_painter_cleans_page_text():
    renderer, out, err = colour_renderer()
    evil = "E\x1b]0;t\x07\x9b2J\nX"
    results = [
        Result("value", {"value": evil}),
        Result("value", {"value": {"k": evil}}),
        Result("navigation", {"url": "http://x/" + evil, "title": evil}, [evil]),
        Result("action", {"action": "fill", "ref": "c0p0f0e1", "role": "textbox", "name": evil, "value": evil}),
        Result("refs", {"refs": [{"ref": "c0p0f0e1", "role": "button", "name": evil, "status": "live",
                                  "first_seen": 1, "last_seen": 1}]}),
        Result("inspect", {"ref": "c0p0f0e1", "role": "button", "name": evil, "status": "live", "reason": evil,
                           "tag": "button", "attributes": {"title": evil}, "frame": 0, "first_seen": 1,
                           "last_seen": 1, "history": [evil]}),
        Result("diff", {"from": 1, "to": 2, "added": [{"ref": "c0p0f0e1", "role": "button", "name": evil}],
                        "removed": [], "changed": []}),
        Result("frames", {"frames": [{"index": 0, "url": evil, "name": evil, "cross_origin": False,
                                      "parent": None}]}),
        Result("tabs", {"tabs": [{"index": 0, "title": evil, "url": evil, "current": True}]}),
        Result("unknown_kind", {"x": evil}),
    ]
    for res in results:
        renderer.show(Outcome("x", True, res))
    renderer.show(Outcome("x", False, kind="js_error", message=evil))
    for text in (out.file.getvalue(), err.file.getvalue()):
        ours_removed = SGR.sub("", text)
        assert "\x1b" not in ours_removed and not DANGEROUS.search(ours_removed.replace("\n", "").replace("\t", ""))
        assert "\\x1b]0;t\\x07" in ours_removed or "\\u001b]0;t\\u0007" in ours_removed
    # a page value never spans two lines
    assert "E\\x1b]0;t\\x07\\x9b2J\\nX" in out.file.getvalue()


def test_consoles_without_a_terminal_have_no_colour_system():
    assert Renderer(color=True).out.color_system is None  # stdout is not a terminal under pytest
    buf = io.StringIO()
    renderer = Renderer(console=make_console(True, file=buf))
    renderer.show(Outcome("help", True, Result("help_one", {"name": "back", "aliases": ["b"], "usage": "back",
                                                             "help": "Go back."})))
    assert buf.getvalue() == "back\n  Go back.\n  Aliases: b\n"


# -- real pages, real Chromium ---------------------------------------------------------------------

def test_snapshot_of_a_hostile_page_one_node_per_line_and_no_raw_controls(driver):
    driver.ok(f"open {HOSTILE}")
    snap = driver.ok("snapshot").data
    lines = snap["text"].splitlines()
    assert all(re.match(r"^( {2})*- ", ln) for ln in lines), lines
    assert not DANGEROUS.search(snap["text"].replace("\n", ""))
    by_role = {ln.strip().split(" ", 2)[1]: ln for ln in lines}
    assert "line one\\nline two" in by_role["textbox"] or any("line one\\nline two" in ln for ln in lines)
    assert any("clear\\x1b[2J\\x1b[H\\x00me" in ln for ln in lines)
    assert any("Para \\x1b]0;swallowed by the title bar\\x07 rest" in ln for ln in lines)
    assert any("[bold red]not markup[/bold red] :smile:" in ln for ln in lines)
    # the JSON refs carry the page's real strings
    names = {v["name"] for v in snap["refs"].values()}
    assert "Go\x9b31m\x7f\x07\x00" in names


def test_renderer_output_of_a_hostile_page_has_only_our_colours(driver):
    driver.ok(f"open {HOSTILE}")
    renderer, out, err = colour_renderer()
    for line in ("snapshot", "eval document.querySelector('#q').value", "eval document.title",
                 "eval ({p: document.querySelector('#p').textContent})", "tabs", "frames", "refs",
                 "inspect c0p0f0e3", "eval throw new Error('\\x1b]0;boom\\x07')"):
        renderer.show(driver.run(line))
    written = out.file.getvalue() + err.file.getvalue()
    assert SGR.search(written)  # colour is on, so the check below means something
    assert "\x1b" not in SGR.sub("", written)
    assert not DANGEROUS.search(SGR.sub("", written).replace("\n", ""))
    assert "\\x1b]0;boom\\x07" in written


def test_repl_toolbar_and_completion_meta_are_clean(driver):
    driver.ok(f"open {HOSTILE}")
    driver.ok("snapshot")
    with create_pipe_input() as inp:
        repl = Repl(driver.ctx, Renderer(console=Console(file=io.StringIO())), input=inp, output=DummyOutput())
        repl._refresh_status()
        toolbar = repl._toolbar()
        metas = [str(c.display_meta_text) for c in repl.prompt.completer.get_completions(
            __import__("prompt_toolkit.document", fromlist=["Document"]).Document("click "), None)]
    assert "pwned title" in toolbar
    assert not DANGEROUS.search(toolbar)
    assert metas and not any(DANGEROUS.search(m) for m in metas)
    assert any("\\x9b31m" in m for m in metas)


def test_json_output_of_a_hostile_page_is_valid_and_safe(chrome_http):
    proc = verdex("run", "--connect", chrome_http, "--json", HOSTILE, "snapshot",
                  "eval document.querySelector('#t').value", "eval document.querySelector('#b').ariaLabel")
    assert proc.returncode == 0, proc.stderr
    raw = proc.stdout.decode("utf-8")
    assert not DANGEROUS.search(raw.replace("\n", "")), "raw control character in JSON output"
    objs = [json.loads(line) for line in raw.splitlines()]
    assert len(objs) == 3
    assert objs[1]["result"]["value"] == "line one\nline two\x1bP1$r\x1b\\\nline\nthree"
    assert objs[2]["result"]["value"] == "Go\x9b31m\x7f\x07\x00"


@pytest.mark.parametrize("how", ["--no-color", "NO_COLOR=1", "NO_COLOR=", "pipe"])
def test_no_escape_codes_without_colour(chrome_http, how):
    args = ["run", "--connect", chrome_http, HOSTILE, "snapshot", "help back", "eval document.title",
            "eval nosuchthing"]
    if how == "--no-color":
        code, data = on_pty(*args, "--no-color")
    elif how.startswith("NO_COLOR"):
        code, data = on_pty(*args, env_extra={"NO_COLOR": how.split("=", 1)[1]})
    else:
        proc = verdex(*args)
        code, data = proc.returncode, proc.stdout + proc.stderr
    assert code == 1  # the last command fails: its red error line is the colour we look for
    text = data.decode("utf-8")
    assert "ReferenceError" in text and "textbox" in text
    assert "\x1b" not in text and "\x9b" not in text, repr(text[:300])


def test_a_terminal_gets_our_colours_but_nothing_from_the_page(chrome_http):
    code, data = on_pty("run", "--connect", chrome_http, HOSTILE, "snapshot", "help back", "eval nosuchthing")
    assert code == 1
    text = data.decode("utf-8")
    assert SGR.search(text)  # bold/cyan/red of our own
    rest = SGR.sub("", text)
    assert "\x1b" not in rest and "\x9b" not in rest, repr(rest[:300])


# -- the pager -------------------------------------------------------------------------------------

def test_long_repl_output_goes_through_the_pager(tmp_path, monkeypatch):
    record = tmp_path / "paged.txt"
    pager = tmp_path / "pager.sh"
    pager.write_text(f"#!/bin/sh\ncat > {record}\n")
    pager.chmod(0o755)
    monkeypatch.setenv("PAGER", str(pager))
    out = Console(file=io.StringIO(), width=80, height=20, color_system=None)
    renderer = Renderer(console=out)
    long = Result("value", {"value": {"n": list(range(100))}})
    renderer.show_paged(Outcome("eval x", True, long))
    assert out.file.getvalue() == ""
    assert record.read_text().count("\n") > 100
    short = Result("value", {"value": "short"})
    renderer.show_paged(Outcome("eval y", True, short))
    assert out.file.getvalue() == "'short'\n"  # strings are quoted like the console


def test_missing_pager_falls_back_to_printing(monkeypatch):
    monkeypatch.setenv("PAGER", "/nonexistent/pager")
    assert run_pager("x\n") is False


def test_ctrl_c_while_printing_stops_the_output_not_the_repl():
    out = Console(file=io.StringIO(), color_system=None)
    renderer = Renderer(console=out)

    def boom(outcome):
        raise KeyboardInterrupt

    renderer.show = boom
    with create_pipe_input() as inp:
        repl = Repl(ctx=Workspace(lambda: None), renderer=renderer, input=inp, output=DummyOutput())
        repl.show(Outcome("snapshot", True, Result("value", {"value": 1})))
    assert "Output stopped." in out.file.getvalue()
