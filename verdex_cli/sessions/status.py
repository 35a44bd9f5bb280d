"""What an attached REPL shows without a browser of its own: the toolbar line and the live refs for
completion, worked out in the server by the REPL's own functions (repl/app.py) after every command;
the attached REPL cuts the line to its terminal's width."""

from __future__ import annotations

from ..ui.repl.app import elements, page_line, ref_choices, toolbar_line


def status_of(ctx) -> dict:
    try:
        line = toolbar_line(ctx, page_line(ctx, {"title": "", "url": ""}))
        return {"toolbar": line, "refs": [list(r) for r in ref_choices(ctx)],
                "elements": [list(e) for e in elements(ctx)]}
    except Exception:  # a status line must never break the session
        return {"toolbar": "", "refs": [], "elements": []}
