"""The REPL on a real terminal (a pseudo-terminal): snapshot lines wrapped to the width with a hanging
indent and never inside a ref token, in colour; the pager leaves the text on screen; `help` is never
paged; a pasted block runs line by line; the toolbar keeps the ref state first."""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from prompt_toolkit.input import create_pipe_input

from conftest import type_at_prompts
from test_repl import console, make_repl, run_loop  # noqa: F401  (a fixture too; ctx is conftest's)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
VERDEX = Path(sys.executable).with_name("verdex")
LONG = "A very long link name that goes on and on and on, well past the width of this narrow terminal"


class Terminal:
    """verdex in a pseudo-terminal of the given size; ``read_until`` collects what it prints."""

    def __init__(self, args: list[str], rows: int, cols: int, env: dict | None = None):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        run_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        run_env.update(TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS=str(cols), LINES=str(rows), **(env or {}))
        self.proc = subprocess.Popen([str(VERDEX), *args], stdin=slave, stdout=slave, stderr=slave, env=run_env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.seen = ""

    def read_until(self, pattern: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, ANSI.sub("", self.seen)):
            left = deadline - time.monotonic()
            assert left > 0, f"waited for {pattern!r}; the terminal shows:\n{ANSI.sub('', self.seen)[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        return self.seen

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        try:
            self.send("\x04")
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.master)


@pytest.fixture
def long_page(tmp_path):
    page = tmp_path / "long.html"
    rows = "".join(f"<li><a href='#r{i}'>Row {i}</a></li>" for i in range(60))
    page.write_text(f"<!doctype html><title>Long</title><main><a href='#x'>{LONG}</a>"
                    f"<button>Save</button><ul>{rows}</ul></main>")
    return page


def _plain_lines(seen: str) -> list[str]:
    return [ANSI.sub("", line).rstrip("\r") for line in seen.split("\n")]


def typed(page, keys: str, until: str, rows: int, cols: int) -> str:
    """What the REPL on ``page`` shows once ``keys`` are typed at its prompt, up to ``until``."""
    term = Terminal(["--no-pager", str(page)], rows=rows, cols=cols)
    try:
        term.read_until("verdex>")
        term.send(keys)
        return term.read_until(until)
    finally:
        term.close()


def test_snapshot_lines_wrap_to_the_width_with_a_hanging_indent(long_page):
    seen = typed(long_page, "snapshot\r", r'link "Row 59" \[ref=c0p0f0e\d+\]', rows=40, cols=60)
    lines = _plain_lines(seen)
    start = next(i for i, line in enumerate(lines) if "A very long link" in line)
    assert lines[start].startswith("    - link \"A very long link")  # main's child, wrapped at a word
    assert lines[start + 1].startswith("        ")  # hanging indent: the node's indent plus four
    joined = " ".join(line.strip() for line in lines[start:start + 3])
    assert f'"{LONG}" [ref=c0p0f0e1]' in joined
    for line in lines:
        if "[ref=" in line:
            assert re.search(r"\[ref=c\d+p\d+f\d+e\d+\]", line), line  # never split inside a ref token
    assert "\x1b[36m" in seen  # roles in colour on a terminal


def test_the_pager_leaves_the_text_on_screen_and_help_is_not_paged(long_page):
    if shutil.which("less") is None:
        pytest.skip("less is not installed")
    term = Terminal([str(long_page)], rows=12, cols=100, env={"PAGER": ""})
    try:
        term.read_until("verdex>")
        term.send("help\r")
        term.read_until(r"Type .help COMMAND.(.|\n)*verdex>")  # back at the prompt: not paged
        term.send("snapshot\r")
        term.read_until(r"\n:$")  # less waits at its prompt
        term.send("q")
        seen = term.read_until(r"verdex>(.|\n)*verdex>(.|\n)*verdex>")
    finally:
        term.close()
    assert "\x1b[?1049h" not in seen  # no alternate screen: what was shown stays after 'q'


def test_a_pasted_block_runs_line_by_line(long_page):
    seen = typed(long_page, "\x1b[200~eval 6 * 7\reval 'sec' + 'ond'\x1b[201~\r", r"'second'", rows=30, cols=100)
    assert "42" in _plain_lines(seen)


def test_a_pasted_block_that_starts_with_a_comment_runs_the_rest(long_page):
    seen = typed(long_page, "\x1b[200~# the steps\reval 6 * 7\reval 'sec' + 'ond'\x1b[201~\r", r"'second'",
                 rows=30, cols=100)
    assert "42" in _plain_lines(seen)


def test_the_toolbar_keeps_the_ref_state_first_and_cuts_the_title(ctx, console, demo):  # noqa: F811
    with create_pipe_input() as inp:
        repl, _ = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {demo.url('shop.html')}\r", "snapshot\r", "quit\r")
        assert run_loop(repl) == 0
        repl._width = lambda: 40
        bar = repl._toolbar()
    assert bar.startswith(" ") and re.match(r" \d+ refs, snapshot #1 ", bar), bar
    assert len(bar) <= 40 and bar.endswith("…")


def test_painted_words_read_as_a_person_writes_them():
    import io

    from rich.console import Console

    from verdex_cli.ui.render import Renderer
    from verdex_cli.ui import painters, render_targets

    out = Console(file=io.StringIO(), width=200, no_color=True)
    r = Renderer(console=out, err_console=out)
    painters.PAINTERS["reset"](r, {"dropped": 1, "restart": False})
    painters.inspect(r, {"ref": "c0p0f0e1", "role": "option", "name": "A", "status": "live", "frame": 0,
                         "first_seen": 1, "last_seen": 1, "states": {"selected": True, "level": 2, "busy": False}})
    render_targets.find(r, {"matches": [{"role": "link", "name": "Home", "text": "Home", "ref": "c0p0f0e1",
                                         "path": ['document "Shop"', "banner"]}]})
    text = out.file.getvalue()
    assert "Dropped 1 ref;" in text
    assert "states: [selected] [level=2]" in text and "True" not in text and "busy" not in text
    assert 'link "Home" [ref=c0p0f0e1]\n    in banner\n' in text  # name once; no document on every path
