"""The REPL: piped stdin runs as a script; the prompt_toolkit loop runs commands, quits, shows status."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from conftest import type_at_prompts
from verdex_cli.ui.render import Renderer
from verdex_cli.ui.repl import app as repl_app
from verdex_cli.ui.repl.app import Repl

ROOT = Path(__file__).resolve().parent.parent
INDEX = "demo_pages/index.html"


def verdex(*args: str, input: str, tmp: Path):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["XDG_STATE_HOME"] = str(tmp / "state")
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, input=input,
                          capture_output=True, text=True, timeout=60)


# -- piped stdin: a script ---------------------------------------------------------------------

def test_piped_stdin_runs_the_lines_as_a_script(chrome_http, tmp_path):
    proc = verdex("--connect", chrome_http, "--no-color", INDEX, tmp=tmp_path,
                  input="# a comment\neval document.title\n\neval 6 * 7\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Opened file://") and lines[0].endswith("Verdex demo site")
    assert lines[1:] == ["'Verdex demo site'", "42"]  # strings quoted, like the DevTools console
    assert not (tmp_path / "state" / "verdex" / "history").exists()  # scripts do not write history


def test_piped_stdin_stops_at_the_first_failure(chrome_http, tmp_path):
    proc = verdex("--connect", chrome_http, "--no-color", INDEX, tmp=tmp_path,
                  input="eval 1\neval nosuchvariable\neval 'after'\n")
    assert proc.returncode == 1
    assert "after" not in proc.stdout
    assert "ReferenceError" in proc.stderr and "nosuchvariable" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_piped_stdin_quit_ends_the_script(chrome_http, tmp_path):
    proc = verdex("--connect", chrome_http, "--no-color", INDEX, tmp=tmp_path, input="eval 1\nquit\neval 2\n")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[1:] == ["1"]


def test_piped_stdin_with_json(chrome_http, tmp_path):
    import json

    proc = verdex("--connect", chrome_http, "--json", INDEX, tmp=tmp_path, input="eval 2 + 3\n")
    assert proc.returncode == 0, proc.stderr
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert objs[-1] == {"command": "eval 2 + 3", "ok": True, "result": {"value": 5},
                        "elapsed_ms": objs[-1]["elapsed_ms"]}
    assert all("elapsed_ms" in o for o in objs)


# -- the prompt_toolkit loop -------------------------------------------------------------------

@pytest.fixture
def console():
    return Console(file=io.StringIO(), width=100, no_color=True, highlight=False, soft_wrap=True)


def make_repl(ctx, console, inp):
    err = Console(file=io.StringIO(), width=100, no_color=True)
    renderer = Renderer(console=console, err_console=err)
    return Repl(ctx, renderer, input=inp, output=DummyOutput()), err


def run_loop(repl: Repl, timeout: float = 30) -> int:
    """Run the loop in a thread so a broken test fails instead of hanging."""
    result = {}

    def target():
        result["code"] = repl.loop()

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(timeout)
    assert not th.is_alive(), "the REPL did not exit"
    return result["code"]


def test_repl_runs_a_command_and_exits_on_quit(ctx, console):
    with create_pipe_input() as inp:
        repl, err = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, "eval 6 * 7\r", "quit\reval 'never'\r")  # typed ahead, after quit
        assert run_loop(repl) == 0
    out = console.file.getvalue()
    assert "Type 'help' for commands" in out
    assert "42" in out.splitlines()
    assert "never" not in out
    assert ctx.quit_requested


def test_repl_exits_on_ctrl_d(ctx, console):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, "eval 'hello ' + 'there'\r", "\x04")
        assert run_loop(repl) == 0
    assert "hello there" in console.file.getvalue()
    assert not ctx.quit_requested


def test_ctrl_c_at_the_prompt_does_not_leave(ctx, console):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, "eval 'half a li\x03", "eval 'after ctrl-c'\r", "quit\r")
        assert run_loop(repl) == 0
    out = console.file.getvalue()
    assert "after ctrl-c" in out
    assert "half a li" not in out


def test_repl_prints_errors_and_carries_on(ctx, console):
    with create_pipe_input() as inp:
        repl, err = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, "frobnicate\r", "eval throw new Error('bad')\r", "eval 'still here'\r", "\r",
                        "quit\r")
        assert run_loop(repl) == 0
    errors = err.file.getvalue().splitlines()
    assert errors == ["Unknown command 'frobnicate'. Type 'help'.", "Error: bad"]
    assert "still here" in console.file.getvalue()


def test_toolbar_shows_title_and_url(ctx, console, demo):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        assert "(no title)" in repl._toolbar()
        url = demo.url("shop.html")
        type_at_prompts(repl, inp, f"open {url}\r", "quit\r")
        assert run_loop(repl) == 0
        toolbar = repl._toolbar()
    assert "Demo Shop" in toolbar
    assert url in toolbar
    assert 'Opened "Demo Shop"' in console.file.getvalue()  # the URL as typed is not echoed


def test_open_shows_the_url_only_when_it_is_not_the_one_given(chrome_http, demo, tmp_path):
    """Whoever gave the whole URL (an agent, mostly) reads the title; a URL the page ended up at that is
    not the one given is shown, and the JSON result has both."""
    shop, form = demo.url("shop.html"), demo.url("form.html")
    odd = form.replace("/form.html", "/./form.html")  # the browser's URL for it is `form`
    proc = verdex("--connect", chrome_http, "--no-color", shop, tmp=tmp_path, input=f"open {form}\nopen {odd}\n")
    assert proc.stdout.splitlines() == ['Opened "Demo Shop"', 'Opened "Form controls"', f"Opened {form}  Form controls"]
    proc = verdex("--connect", chrome_http, "--json", shop, tmp=tmp_path, input=f"open {odd}\n")
    result = json.loads(proc.stdout.splitlines()[-1])["result"]
    assert (result["url"], result["asked"], result["title"]) == (form, odd, "Form controls")


def test_toolbar_follows_navigation(ctx, console, demo):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {demo.url('shop.html')}\r", f"open {demo.url('form.html')}\r", "back\r",
                        "quit\r")
        assert run_loop(repl) == 0
        toolbar = repl._toolbar()
    assert demo.url("shop.html") in toolbar and "Demo Shop" in toolbar


def test_toolbar_counts_refs_then_says_they_went_stale(ctx, console, demo):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {demo.url('shop.html')}\r", "snapshot\r", "quit\r")
        assert run_loop(repl) == 0
        live = len(ctx.peek_state().store.elements())
        assert live > 3 and f"{live} refs, snapshot #1" in repl._toolbar()
        ctx.page.navigate(demo.url("form.html"))  # a new page the snapshot has not seen
        assert "refs stale: new page since snapshot #1" in repl._toolbar()


def test_history_lives_in_the_xdg_state_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert repl_app.history_path() == tmp_path / "verdex" / "history"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert repl_app.history_path() == tmp_path / "home" / ".local" / "state" / "verdex" / "history"


def test_history_file_is_written(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    history = repl_app._history()
    history.append_string("eval 1")
    history.settle("eval 1")  # a line is written once its command ran (masked if it carried a password)
    assert (tmp_path / "verdex" / "history").read_text().strip().endswith("+eval 1")


def test_toolbar_shows_context_and_tab(ctx, console, demo):
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {demo.url('shop.html')}\r", f"context new {demo.url('form.html')}\r",
                        "quit\r")
        assert run_loop(repl) == 0
        toolbar = repl._toolbar()
    assert "c1 tab 0" in toolbar and demo.url("form.html") in toolbar
