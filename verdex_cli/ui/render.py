"""Outcomes to rich output or JSON Lines. Page text is untrusted: printed with markup, emoji and
highlighting off, cleaned to one line per item before painting, and every segment the console writes
cleaned again. Colour (any escape code at all) only on a terminal, without --no-color or NO_COLOR."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from contextlib import suppress

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from ..base.sanitize import clean, clean_data, json_line
from ..commands.runner import Outcome
from .painters import PAINTERS


class SafeConsole(Console):
    """A rich Console that cleans every text segment it renders (its own style codes stay)."""

    def render(self, renderable, options=None):
        for seg in super().render(renderable, options):
            if seg.control or not seg.text:
                yield seg
            else:
                text = clean(seg.text, one_line=False)
                yield seg if text is seg.text else Segment(text, seg.style, seg.control)


def make_console(color: bool, stderr: bool = False, file=None, width: int | None = None) -> Console:
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    on = False
    with suppress(AttributeError, ValueError):  # only on a terminal, unless NO_COLOR (any value, even empty)
        on = color and "NO_COLOR" not in os.environ and bool(stream.isatty())
    return SafeConsole(file=file, stderr=stderr, width=width, color_system="auto" if on else None,
                       force_terminal=True if on else None, no_color=not on, markup=False, emoji=False,
                       highlight=False, soft_wrap=True)


class Renderer:
    def __init__(self, json_mode: bool = False, color: bool = True, debug: bool = False,
                 console: Console | None = None, err_console: Console | None = None):
        self.json_mode = json_mode
        self.debug = debug
        self.out = console or make_console(color)
        self.err = err_console or make_console(color, stderr=True)

    # -- entry points -----------------------------------------------------------
    def show(self, outcome: Outcome) -> None:
        self.trace(outcome)
        if self.json_mode:
            self.out.file.write(json_line(outcome.as_json()) + "\n")
            self.out.file.flush()
            return
        if not outcome.ok:
            self.error(outcome.message, outcome.trace if self.debug else "")
            return
        res = outcome.result
        data = _paintable(res.kind, res.data)
        painter = PAINTERS.get(res.kind)
        if painter is None:
            self.plain(json.dumps(res.as_json(), indent=2, ensure_ascii=False, default=str))
        else:
            painter(self, data)
        for note in res.notes:
            self.out.print(Text(clean(note), style="yellow"))

    def show_paged(self, outcome: Outcome) -> None:
        """REPL on a terminal: output taller than the screen goes through the pager ($PAGER or less)."""
        if self.json_mode or not outcome.ok or outcome.result.kind in UNPAGED:
            self.show(outcome)
            return
        with self.out.capture() as captured:
            self.show(outcome)
        text = captured.get()
        if text.count("\n") < max(self.out.height - 2, 5) or not run_pager(text):
            self.out.file.write(text)
            self.out.file.flush()

    def flush(self) -> None:
        """Hand everything shown so far to whoever reads it (a program driving a live session)."""
        for console in (self.out, self.err):
            with suppress(AttributeError, ValueError):
                console.file.flush()

    def error(self, message: str, trace: str = "") -> None:
        if trace:
            self.err.print(Text(clean(trace.rstrip(), one_line=False), style="dim"))
        self.err.print(Text(clean(message), style="bold red"))

    def info(self, message: str) -> None:
        if not self.json_mode:
            self.out.print(Text(clean(message), style="dim"))

    def warn(self, message: str) -> None:
        """A one-line warning on stderr (also in JSON mode: stdout stays pure JSON Lines)."""
        self.err.print(Text(clean(message), style="yellow"))

    # -- helpers ---------------------------------------------------------------
    def plain(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style), markup=False, highlight=False)

    def trace(self, outcome) -> None:
        """--trace in text mode: the command's phases on stderr (JSON mode has them as "trace")."""
        if self.json_mode or not outcome.timings:
            return
        parts = ", ".join(f"{p['phase']} {p['ms']:.1f} ms" for p in outcome.timings)
        self.err.print(Text(f"trace: {parts}", style="dim"))


UNPAGED = frozenset({"help_all", "help_one"})  # read while typing the next command: never paged
PAGER = "less -R -X -F"  # -X: no alternate screen, so the text stays on screen after 'q'; -F: short text at once


def run_pager(text: str) -> bool:
    """Show ``text`` in $PAGER (default ``less -R -X -F``); False when no pager could run."""
    try:
        argv = shlex.split(os.environ.get("PAGER") or PAGER)
        if not argv:
            return False
        sys.stdout.flush()
        subprocess.run(argv, input=text.encode("utf-8", "replace"), check=False)
    except (ValueError, OSError):
        return False
    except KeyboardInterrupt:  # Ctrl-C in the pager ends it, like 'q'
        pass
    return True


def _paintable(kind: str, data: dict) -> dict:
    """Result data for painting: every page string cleaned to one line (the snapshot text keeps its lines:
    render_text escaped those inside names; an eval value is escaped by js_values.display_lines)."""
    out = clean_data(data)
    if kind in ("snapshot", "text") and isinstance(data.get("text"), str):  # `text TARGET`: every line
        out["text"] = clean(data["text"], one_line=False)
    if kind == "request" and isinstance(data.get("body"), str):  # a response body keeps its lines
        out["body"] = clean(data["body"], one_line=False)
    if kind == "value":  # painted by js_values, which quotes and escapes strings like the console
        out["value"] = data.get("value")
    return out
