"""Reading a field back once the page settled, not right after the input: a page's handlers may
filter, reformat or undo what was entered, at once or a moment later. :class:`FieldWatch` records in
the field's document the state the browser gave it at each trusted ``input``/``change`` event (before
the page's handlers run); a final state that differs from the last of those was made by the page.
"""

from __future__ import annotations

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError
from ..browser.page import Page
from ..browser.session import Session
from .changes import SETTLE_MAX, release, settle
from .resolve import Resolved

_GONE = (CDPError, CDPTimeout, ConnectionLost, JSError)


def settle_page(page: Page) -> bool:
    """Wait (bounded) until the page settled after the input; False when it was still changing."""
    try:
        return settle(page, min(SETTLE_MAX, page.timeout))
    except _GONE:
        return True  # a frame going away: the read-back says what it can


def after_input(page: Page, nav_before: int, grace: float | None = None, started: list | None = None,
                acted: bool = False, *, session: Session) -> list[str]:
    """Page.settle_after_action, waiting for a navigation the input may start until the page settled
    (bounded like the settle, or by ``grace``): a timer that navigates is waited for, a page that is
    done is not. ``started``: the settle's first question, already sent (changes.start_settle);
    ``acted``: ``page.settle.acted_at`` was set when the input began (a hover's move)."""
    def until(limit: float, stop) -> None:
        nonlocal started
        try:
            settle(page, limit, stop=stop, started=started)
        except _GONE:
            pass  # a frame going away: the navigation check says what happened
        finally:
            started = None
    limit = min(SETTLE_MAX, page.timeout) if grace is None else grace
    session.ask_targets()  # the session's after-command question shares the settle's round trip
    try:
        return page.settle_after_action(nav_before, limit, until=until, acted=acted or started is not None)
    finally:
        release(page, started)  # not asked (a navigation began): unread


def still_changing(page: Page) -> str:
    return f"The page was still changing after {min(SETTLE_MAX, page.timeout):g} s; the value is as of then."


class FieldWatch:
    """Watch one ref's field from before the input until it is read back."""

    def __init__(self, page: Page, res: Resolved):
        self.page, self.res = page, res
        self.loader = res.frame.loader_id
        page.bridge.watch_field(res.frame, res.ref.n)  # not waited for: the read-back says if it watched
        self.open = True
        self.settled = True  # False when the page was still changing at the read-back
        self.removed = False  # the field was removed, and nothing like it took its place

    def read(self, settled: bool = True) -> dict | None:
        """``{"seen": [states the browser gave], "now": state, "replaced": bool}`` once the page settled
        (``now`` of the control the page put in the field's place, if it re-rendered it); None when the
        document is gone or the field was removed with nothing like it in its place (``removed``)."""
        if not self.open:
            return None
        self.settled = settle_page(self.page) if settled else True
        return self.close()

    def close(self) -> dict | None:
        if not self.open:
            return None
        self.open = False
        fr = self.res.frame
        if fr.detached or fr.loader_id != self.loader:
            return None
        try:
            out = self.page.bridge.unwatch_field(fr, self.res.ref.n)
        except _GONE:
            return None
        if not out or not out.get("watched") or out.get("removed"):
            self.removed = bool(out and out.get("watched") and out.get("removed"))
            return None  # another document answered (no watch there), or the field is gone
        return out

    def __enter__(self) -> "FieldWatch":
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            self.close()


RERENDERED = "The page re-rendered the field."
