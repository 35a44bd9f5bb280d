"""What an attached REPL shows without a browser of its own: the toolbar line and the live refs for
completion, worked out in the server by the REPL's own code (repl/app.py) after every command."""

from __future__ import annotations

from ..ui.repl.app import Repl


class _View:
    """The REPL's status methods, on the server's workspace."""

    _store = Repl._store
    _toolbar = Repl._toolbar
    _refresh_status = Repl._refresh_status
    _ref_choices = Repl._ref_choices
    _elements = Repl._elements

    def __init__(self, ctx):
        self.ctx = ctx
        self.status = {"title": "", "url": ""}


def status_of(ctx) -> dict:
    view = _View(ctx)
    try:
        view._refresh_status()
        return {"toolbar": view._toolbar(), "refs": [list(r) for r in view._ref_choices()],
                "elements": [list(e) for e in view._elements()]}
    except Exception:  # a status line must never break the session
        return {"toolbar": "", "refs": [], "elements": []}
