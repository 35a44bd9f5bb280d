"""The interactive loop: prompt_toolkit with history, completion and a status toolbar."""

from __future__ import annotations

import os
import time
from contextlib import suppress
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.patch_stdout import patch_stdout

from ...base.sanitize import clean
from ...base.words import age
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


def live_store(ctx: Workspace):
    """The current tab's ref store, without a call to the browser (None before any)."""
    state = ctx.peek_state() if ctx.session is not None else None
    return state.store if state is not None else None


def page_line(ctx: Workspace, status: dict) -> dict:
    """Title and URL from the browser's target list (``status`` kept when it cannot be read): no page
    script runs, none is interrupted."""
    with suppress(Exception):
        session = ctx.session
        if session is not None and session.chrome.alive():
            return session.page_status(session.page)
    return status


def toolbar_line(ctx: Workspace, status: dict) -> str:
    """The ref state first (what a click would meet), then tab, title and URL (``status``)."""
    state, session = ctx.peek_state(), ctx.session
    page = session.pages.get(session.current) if session is not None else None  # no call to the browser
    ref_state = state.status(page) if state is not None and page is not None else None
    parts = []
    if ref_state is not None:
        ago = age(time.monotonic() - ref_state["taken_at"])
        parts.append(f"refs stale: new page since snapshot #{ref_state['snapshot']} ({ago} ago)"
                     if ref_state["navigated"] else f"{ref_state['live']} refs, snapshot #{ref_state['snapshot']} {ago} ago")
    if session is not None:
        c, t = session.current
        parts.append(f"c{c} tab {t}")
    parts.append(f"{status.get('title') or '(no title)'} — {status.get('url') or ''}")
    return clean(" " + "  |  ".join(parts))


def status_of(ctx: Workspace) -> dict:
    """What an attached REPL shows without a browser of its own, worked out in the session server after
    every command: the toolbar line and the live refs (``refs``: completions; ``elements``: (ref, role,
    name), whose names complete to targets: `click Sav<Tab>`)."""
    try:
        store = live_store(ctx)
        return {"toolbar": toolbar_line(ctx, page_line(ctx, {"title": "", "url": ""})),
                "refs": [list(r) for r in store.completions()] if store is not None else [],
                "elements": [list(e) for e in store.elements()] if store is not None else []}
    except Exception:  # a status line must never break the session
        return {"toolbar": "", "refs": [], "elements": []}


def fit(line: str, width: int) -> str:
    """``line`` cut to the terminal's ``width``."""
    return line if len(line) < width else line[:max(width - 2, 1)] + "…"


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

    # (hooks an attached REPL answers from its session's messages: sessions/attach.py)
    def _ref_choices(self):
        store = live_store(self.ctx)
        return store.completions() if store is not None else []

    def _elements(self):
        store = live_store(self.ctx)
        return store.elements() if store is not None else []

    def _toolbar(self):
        return fit(toolbar_line(self.ctx, self.status), self._width())

    def _width(self) -> int:
        try:
            return self.prompt.app.output.get_size().columns
        except Exception:
            return 80

    def _refresh_status(self) -> None:
        self.status = page_line(self.ctx, self.status)

    def show(self, outcome) -> None:
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
                for one in line.splitlines():  # a pasted block runs line by line
                    if not one.strip() or is_comment(one):  # '#' starts a comment, as in scripts
                        continue
                    outcome = self.run_line(one)
                    if isinstance(self.prompt.history, PrivateHistory):
                        self.prompt.history.settle(outcome.line)  # masked when it carried a password
                    self.show(outcome)
                    if self.ctx.quit_requested:
                        return 0
                    self._refresh_status()
