"""Each client of a session has its own current tab: another client's `tab new`, `tab N` or `context N`
never moves it, so its refs keep acting on the page it chose. A client starts on the tab the last tab
change made current (`run --session S 'tab new URL'`, then another invocation, works on the new tab);
when its tab was closed, it is moved there, and told so."""

from __future__ import annotations

from contextlib import contextmanager, suppress

from ..base.errors import VerdexError


class ClientTabs:
    def __init__(self):
        self.shared = None  # (context, tab) the last tab change made current: where a new client starts

    def enter(self, session, client) -> str | None:
        """Before ``client``'s command: make its tab current (brought to the front when it was not);
        a note when its tab is gone."""
        if session is None or not session.pages:
            return None
        key, note = self._tab_of(session, client)
        if key != session.current:
            session.current = key
            with suppress(VerdexError):  # the browser is gone: the command itself will say so
                session.pages[key].bring_to_front()
        client.tab_before = session.current
        return note

    def leave(self, session, client) -> None:
        """After ``client``'s command: the tab it left current is its own, and, when the command moved
        it, where the next new client starts."""
        if session is None or session.current not in session.pages:
            return
        if session.current != client.tab_before:
            self.shared = session.current
        client.tab = session.current

    @contextmanager
    def viewing(self, session, client):
        """``client``'s tab current for a moment (its toolbar and completions), with nothing sent to
        the browser."""
        before = session.current if session is not None else None
        if session is not None and session.pages:
            session.current = self._tab_of(session, client)[0]
        try:
            yield
        finally:
            if session is not None and before in session.pages:
                session.current = before

    def _tab_of(self, session, client) -> tuple[tuple[int, int], str | None]:
        fallback = self.shared if self.shared in session.pages else session.current
        mine = client.tab
        if mine is None:
            return fallback, None
        if mine in session.pages:
            return mine, None
        return fallback, f"This client's tab {mine[1]} was closed; tab {fallback[1]} is now its current tab."
