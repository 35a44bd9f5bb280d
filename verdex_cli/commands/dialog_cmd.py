"""dialog accept [TEXT] | dialog dismiss: the answer for the next JavaScript dialog."""

from __future__ import annotations

from .registry import Result, command


@command("dialog", group="navigation", params=("accept [TEXT]", "dismiss"),
         help="Answer the next JavaScript dialog: accept (with TEXT for a prompt) or dismiss.", effect="read")
def dialog_cmd(ctx, args, flags):
    how, text = args.values["action"], args.values.get("text")
    ctx.ensure_session().dialogs.set_next(how == "accept", text)
    return Result("dialog", {"next": how, "text": text})

