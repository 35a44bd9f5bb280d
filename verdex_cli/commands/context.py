"""What every command handler gets: the session and per-run state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..browser.page import Page
from ..browser.session import Session


@dataclass
class Context:
    session_factory: Callable[[], Session]
    session: Session | None = None
    quit_requested: bool = False
    stores: dict = field(default_factory=dict)  # per-page ref stores, keyed by (context, page)
    interactive: bool = False  # the REPL on a terminal (long output is cut and paged there only)
    progress: Callable[[str], None] | None = None  # told what a waiting action waits for (the REPL sets it)
    redact: bool = False  # the running command carries a secret: its line must not be echoed or kept
    log: list = field(default_factory=list)  # successful actions with their stable targets (for 'export')
    located: dict | None = None  # the stable target of the running command's element

    def ensure_session(self) -> Session:
        if self.session is None:
            self.session = self.session_factory()
        return self.session

    @property
    def page(self) -> Page:
        return self.ensure_session().page

    def close(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            session.close()
