"""Each client of a session has its own current tab: another client's `tab new`, `tab N` or `context N`
never moves it, so its refs keep acting on the page it chose.

A client starts on the tab the session's last tab change made current (so `verdex run --session S
'tab new URL'` followed by another invocation works on the new tab); after that only its own commands
move it. When its tab was closed (by another client or by the page), it is moved to the tab the last
change made current, and told so.
"""

from __future__ import annotations

from contextlib import contextmanager

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
            try:
                session.pages[key].bring_to_front()
            except VerdexError:  # the browser is gone: the command itself will say so
                pass
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
