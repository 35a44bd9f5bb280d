"""context and contexts: isolated browser contexts (own cookies and storage), each with its tabs."""

from __future__ import annotations

from .registry import Result, command, forms
from .tabs_cmd import new_url, tabs_now


@command("contexts", group="tabs", help="List the browser contexts with their tabs.", effect="read")
def contexts_cmd(ctx, args, flags):
    return Result("contexts", {"contexts": tabs_now(ctx).context_rows()})


def context_new(ctx, args, flags) -> Result:
    session = tabs_now(ctx)
    page = session.new_context(new_url(session, args))
    return Result("contexts", {"contexts": session.context_rows(), "switched_to": page.context, "tab": page.index},
                  [f"Context {page.context} opened (tab {page.index}); it is now current."])


def context_close(ctx, args, flags) -> Result:
    session, index = tabs_now(ctx), args.values["n"]
    note = session.close_context(index)
    notes = [f"Context {index} closed."] + ([note] if note else [])
    return Result("contexts", {"contexts": session.context_rows(), "closed": index}, notes)


def context_switch(ctx, args, flags) -> Result:
    session = tabs_now(ctx)
    page = session.switch_context(args.values["n"])
    return Result("contexts", {"contexts": session.context_rows(), "switched_to": page.context, "tab": page.index})


forms("context", {"N": context_switch, "new [URL]": context_new, "close N": context_close},
      group="tabs",
      help="Switch to context N, open a new isolated context (own cookies and storage), or close context N.")
