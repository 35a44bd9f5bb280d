"""context and contexts: isolated browser contexts (own cookies and storage), each with its tabs."""

from __future__ import annotations

from ..browser.urls import normalize_url
from ..errors import UsageError
from .registry import Result, command

USAGE = "context N | context new [URL] | context close N"


def _rows(session) -> list[dict]:
    return session.context_rows()


@command("contexts", usage="contexts", help="List the browser contexts with their tabs.", effect="read")
def contexts_cmd(ctx, args, flags):
    session = ctx.ensure_session()
    session.discover()
    return Result("contexts", {"contexts": _rows(session)})


@command("context", usage=USAGE, min_args=1, max_args=2,
         help="Switch to context N, open a new isolated context (own cookies and storage), or close context N.")
def context_cmd(ctx, args, flags):
    session = ctx.ensure_session()
    session.discover()
    head = args[0]
    if head == "new":
        url = normalize_url(args[1], base=session.page.frames.main.url) if len(args) > 1 else "about:blank"
        page = session.new_context(url)
        return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index},
                      [f"Context {page.context} opened (tab {page.index}); it is now current."])
    if head == "close":
        if len(args) != 2 or not args[1].isdigit():
            raise UsageError(f"Usage: {USAGE}")
        index = int(args[1])
        note = session.close_context(index)
        notes = [f"Context {index} closed."] + ([note] if note else [])
        return Result("contexts", {"contexts": _rows(session), "closed": index}, notes)
    if not head.isdigit() or len(args) != 1:
        raise UsageError(f"Usage: {USAGE}")
    page = session.switch_context(int(head))
    return Result("contexts", {"contexts": _rows(session), "switched_to": page.context, "tab": page.index})
