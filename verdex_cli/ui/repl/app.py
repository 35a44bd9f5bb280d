"""The interactive loop: prompt_toolkit with history, completion and a status toolbar."""

from __future__ import annotations

import os
import time
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.patch_stdout import patch_stdout

from ...base.sanitize import clean
from ...browser.status import page_status
from ...commands import REGISTRY
from ...commands.context import Workspace
from ...commands.registry import is_comment
from ...commands.runner import execute
from ..render import Renderer
from .completer import VerdexCompleter
from .history import PrivateHistory


def history_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "verdex" / "history"


def _history():
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        return PrivateHistory(str(path))
    except OSError:
        return InMemoryHistory()


class Repl:
    def __init__(self, ctx: Workspace, renderer: Renderer, input=None, output=None, pager: bool = False):
        self.ctx = ctx
        self.renderer = renderer
        self.pager = pager
        self.status = {"title": "", "url": ""}
        ctx.progress = renderer.info  # a waiting action says what it waits for
        self.prompt = PromptSession(
            history=_history() if input is None else InMemoryHistory(),
            completer=VerdexCompleter(REGISTRY, self._ref_choices, self._elements),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            input=input,
            output=output,
            color_depth=ColorDepth.DEPTH_1_BIT if getattr(renderer.out, "color_system", None) is None else None,
        )

    def _ref_choices(self):
        store = self._store()
        if store is None:
            return []
        return store.completions()

    def _elements(self):
        """(ref, role, name) of every live ref: names complete to targets (`click Sav<Tab>`)."""
        store = self._store()
        if store is None:
            return []
        return store.elements()

    def _store(self):
        session = self.ctx.session
        if session is None:
            return None
        state = self.ctx.peek_state()
        return state.store if state is not None else None

    def _toolbar(self):
        """The ref state first (what a click would meet), then tab, title and URL, cut to the width."""
        state, session = self.ctx.peek_state(), self.ctx.session
        page = session.pages.get(session.current) if session is not None else None  # no call to the browser
        status = state.status(page) if state is not None and page is not None else None
        parts = []
        if status is not None:
            age = _age(time.monotonic() - status["taken_at"])
            parts.append(f"refs stale: new page since snapshot #{status['snapshot']} ({age} ago)"
                         if status["navigated"] else f"{status['live']} refs, snapshot #{status['snapshot']} {age} ago")
        if session is not None:
            c, t = session.current
            parts.append(f"c{c} tab {t}")
        parts.append(f"{self.status.get('title') or '(no title)'} — {self.status.get('url') or ''}")
        line = clean(" " + "  |  ".join(parts))
        width = self._width()
        return line if len(line) < width else line[:max(width - 2, 1)] + "…"

    def _width(self) -> int:
        try:
            return self.prompt.app.output.get_size().columns
        except Exception:
            return 80

    def _refresh_status(self) -> None:
        """Title and URL from the browser's target list: no page script runs, none is interrupted."""
        try:
            session = self.ctx.session
            if session is not None and session.chrome.alive():
                self.status = page_status(session, session.page)
        except Exception:
            pass

    def _show(self, outcome) -> None:
        try:
            if self.pager:
                self.renderer.show_paged(outcome)
            else:
                self.renderer.show(outcome)
        except KeyboardInterrupt:  # Ctrl-C stops printing, not the REPL
            self.renderer.info("\nOutput stopped.")

    greeting = "Type 'help' for commands, Tab to complete, Ctrl-D to quit."

    def run_line(self, line: str):
        """Run one line and return its Outcome (an attached REPL runs it in the session instead)."""
        return execute(self.ctx, line)

    def loop(self) -> int:
        self._refresh_status()
        self.renderer.info(self.greeting)
        with patch_stdout(raw=True):
            while True:
                try:
                    line = self.prompt.prompt("verdex> ")
                except KeyboardInterrupt:
                    continue
                except EOFError:
                    return 0
                if not line.strip() or is_comment(line):  # '#' starts a comment, as in scripts
                    continue
                for one in line.splitlines():  # a pasted block runs line by line
                    if not one.strip() or is_comment(one):
                        continue
                    outcome = self.run_line(one)
                    if isinstance(self.prompt.history, PrivateHistory):
                        self.prompt.history.settle(outcome.line)  # masked when it carried a password
                    self._show(outcome)
                    if self.ctx.quit_requested:
                        return 0
                    self._refresh_status()


def _age(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{seconds / 60:.0f}m"
    return f"{seconds / 3600:.1f}h"
