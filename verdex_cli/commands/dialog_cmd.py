"""dialog accept [TEXT] | dialog dismiss: the answer for the next JavaScript dialog."""

from __future__ import annotations

from ..base.errors import UsageError
from .registry import Result, command, usage_of


@command("dialog", params=("accept [TEXT]", "dismiss"),
         help="Answer the next JavaScript dialog: accept (with TEXT for a prompt) or dismiss.", effect="read")
def dialog_cmd(ctx, args, flags):
    how = args[0]
    if how not in ("accept", "dismiss") or (how == "dismiss" and len(args) > 1):
        raise UsageError(f"Usage: {usage_of('dialog')}")
    text = args[1] if len(args) > 1 else None
    session = ctx.ensure_session()
    session.dialogs.set_next(how == "accept", text)
    data = {"next": how, "text": text}
    return Result("dialog", data)
