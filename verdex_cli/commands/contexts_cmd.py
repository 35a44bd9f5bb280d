"""context and contexts: isolated browser contexts (own cookies and storage), each with its tabs."""

from __future__ import annotations

from .registry import Result, command
from .tabs_cmd import index_command


def _rows(session) -> list[dict]:
    return session.context_rows()


@command("contexts", help="List the browser contexts with their tabs.", effect="read")
def contexts_cmd(ctx, args, flags):
    session = ctx.ensure_session()
    session.discover()
    return Result("contexts", {"contexts": _rows(session)})


@command("context", params=("N", "new [URL]", "close N"),
         help="Switch to context N, open a new isolated context (own cookies and storage), or close context N.")
def context_cmd(ctx, args, flags):
    return index_command(ctx, "context", args, {"new": _new, "close": _close, "switch": _switch})


def _new(session, url: str) -> Result:
    page = session.new_context(url)
    return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index},
                  [f"Context {page.context} opened (tab {page.index}); it is now current."])


def _close(session, index: int) -> Result:
    note = session.close_context(index)
    notes = [f"Context {index} closed."] + ([note] if note else [])
    return Result("contexts", {"contexts": _rows(session), "closed": index}, notes)


def _switch(session, index: int) -> Result:
    page = session.switch_context(index)
    return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index})
