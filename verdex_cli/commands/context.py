"""What every command handler gets: the session and per-run state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..browser.page import Page
from ..browser.session import Session


# Commands that leave every page as it was (the snapshot cache survives them). Anything else -- actions,
# navigation, eval, reset-refs, tab and context changes -- may change what a page shows.
READ_ONLY = frozenset({"snapshot", "refs", "inspect", "diff", "frames", "tabs", "contexts", "screenshot",
                       "help", "timings", "wait", "dialog", "text", "find", "container", "siblings", "anchors",
                       "export", "highlight", "timings"})


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
    trace: bool = False  # --trace: every outcome carries its phases
    last_timings: dict | None = None  # the phases of the last command (for 'timings')

    def before_command(self, name: str) -> None:
        """A command that may change a page makes every page's cached snapshot doubtful."""
        if name not in READ_ONLY and self.session is not None:
            for page in list(self.session.pages.values()):
                page.serial += 1

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


Workspace = Context  # what a command works in: the session, per-page ref stores, run state
