"""help and quit."""

from __future__ import annotations

from ..base.errors import UsageError
from .registry import REGISTRY, Result, command, did_you_mean

GROUPS = ("navigation", "snapshot", "actions", "refs", "tabs", "session")


@command("help", params="[COMMAND]", needs_browser=False, tool=False,
         help="List the commands by group, or show how to use one.", effect="read")
def help_cmd(ctx, args, flags):
    if args:
        cmd = REGISTRY.get(args[0])
        if cmd is None:
            raise UsageError(f"Unknown command '{args[0]}'.{did_you_mean(args[0], REGISTRY.names())} Type 'help'.")
        return Result("help_one", {"name": cmd.name, "aliases": list(cmd.aliases), "usage": cmd.usage,
                                   "help": cmd.help, "group": cmd.group})
    rows = [{"name": c.name, "usage": c.usage, "help": c.help, "aliases": list(c.aliases), "group": c.group}
            for c in REGISTRY.commands()]
    rows.sort(key=lambda r: GROUPS.index(r["group"]) if r["group"] in GROUPS else len(GROUPS))
    return Result("help_all", {"commands": rows, "groups": [g for g in GROUPS if any(r["group"] == g for r in rows)]})


@command("quit", aliases=("exit",), needs_browser=False, tool=False,
         help="Close the browser and leave.")
def quit_cmd(ctx, args, flags):
    ctx.quit_requested = True
    return Result("quit", {})
