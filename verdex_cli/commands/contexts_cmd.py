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
    session, verb, arg = index_command(ctx, "context", args)
    if verb == "new":
        page = session.new_context(arg)
        return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index},
                      [f"Context {page.context} opened (tab {page.index}); it is now current."])
    if verb == "close":
        note = session.close_context(arg)
        notes = [f"Context {arg} closed."] + ([note] if note else [])
        return Result("contexts", {"contexts": _rows(session), "closed": arg}, notes)
    page = session.switch_context(arg)
    return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index})
