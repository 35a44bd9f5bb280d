"""The Workspace: what every command handler gets -- the browser session (browser/session.py), one
PageState per tab and per-run state. ("Context" alone means a browser context, the `c` of a ref.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..browser.page import Page
from ..browser.session import Session
from ..refs.page_state import PageState
from ..snapshot import cache


CLOSED = 8  # closed tabs whose ref stories are kept


@dataclass
class Workspace:
    session_factory: Callable[[], Session]
    session: Session | None = None
    quit_requested: bool = False
    states: dict = field(default_factory=dict)  # (context, page) -> PageState, for open tabs only
    show_changes: bool = True  # actions report what they changed (--no-changes turns it off)
    interactive: bool = False  # the REPL on a terminal (long output is cut and paged there only)
    progress: Callable[[str], None] | None = None  # told what a waiting action waits for (the REPL sets it)
    redact: bool = False  # the running command carries a secret: its line must not be echoed or kept
    environ: dict | None = None  # where `fill REF --env VAR` reads VAR (a session's client sends its own)
    log: list = field(default_factory=list)  # successful actions with their stable targets (for 'export')
    located: dict | None = None  # the stable target of the running command's element
    frame_chains: dict = field(default_factory=dict)  # frame chains found for 'export' (session_log.py)
    trace: bool = False  # --trace: every outcome carries its phases
    last_timings: dict | None = None  # the phases of the last command (for 'timings')
    step: tuple | None = None  # (page, its ref store) of the running command's step in the tab's log
    closed: dict = field(default_factory=dict)  # (context, page) -> PageState of the last CLOSED closed tabs
    wait_worlds: dict = field(default_factory=dict)  # 'wait text': (frame id, loader id) -> its isolated world

    def state_of(self, context: int, page: int) -> PageState | None:
        """The PageState of tab (context, page), open or among the last closed (for `inspect`)."""
        return self.states.get((context, page)) or self.closed.get((context, page))

    def before_command(self, effect: str) -> None:
        """A command not declared "read" may change a page: every page's cached snapshot is doubtful."""
        if effect != "read" and self.session is not None:
            for page in list(self.session.pages.values()):
                cache.doubt(page)
            self.session.before_command()  # (hears navigations that become downloads)

    def ensure_session(self) -> Session:
        if self.session is None:
            self.session = self.session_factory()
        return self.session

    @property
    def page(self) -> Page:
        return self.ensure_session().page

    def page_state(self) -> PageState:
        """The current tab's state (made on first use; states of closed tabs are let go of here)."""
        session = self.ensure_session()
        key = session.current
        state = self.states.get(key)
        if state is None:
            for gone in [k for k in self.states if k not in session.pages]:
                self.closed[gone] = self.states.pop(gone)  # its refs' stories, for a while
                while len(self.closed) > CLOSED:
                    del self.closed[next(iter(self.closed))]
            state = self.states[key] = PageState(session.page.prefix, session.page.frames.numbers)
        else:  # a tab that outlived its browser ('relaunch') numbers on where the old one stopped
            session.page.frames.use_numbers(state.store.numbers)
        return state

    def peek_state(self) -> PageState | None:
        """The current tab's state if it has one (no browser started for it)."""
        return self.states.get(self.session.current) if self.session is not None else None

    def close(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            session.close()

