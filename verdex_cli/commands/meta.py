"""help and quit."""

from __future__ import annotations

import difflib

from ..base.errors import UsageError
from .registry import REGISTRY, Command, Result, command

GROUPS = ("navigation", "snapshot", "actions", "refs", "tabs", "session")
# the group of a command registered without one
DEFAULT_GROUP = {
    "open": "navigation", "back": "navigation", "forward": "navigation", "reload": "navigation",
    "wait": "navigation", "dialog": "navigation",
    "snapshot": "snapshot", "frames": "snapshot", "screenshot": "snapshot", "eval": "snapshot",
    "timings": "snapshot",
    "click": "actions", "dblclick": "actions", "hover": "actions", "type": "actions", "fill": "actions",
    "press": "actions", "select": "actions", "check": "actions", "uncheck": "actions", "upload": "actions",
    "focus": "actions", "scroll": "actions", "highlight": "actions",
    "refs": "refs", "inspect": "refs", "diff": "refs", "reset-refs": "refs", "log": "refs",
    "tabs": "tabs", "tab": "tabs", "context": "tabs", "contexts": "tabs",
}


def group_of(cmd: Command) -> str:
    return cmd.group or DEFAULT_GROUP.get(cmd.name, "session")


@command("help", params="[COMMAND]", needs_browser=False, group="session", tool=False,
         help="List the commands by group, or show how to use one.", effect="read")
def help_cmd(ctx, args, flags):
    if args:
        cmd = REGISTRY.get(args[0])
        if cmd is None:
            close = difflib.get_close_matches(args[0], REGISTRY.names(), n=1, cutoff=0.8)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            raise UsageError(f"Unknown command '{args[0]}'.{hint} Type 'help'.")
        return Result("help_one", {"name": cmd.name, "aliases": list(cmd.aliases), "usage": cmd.usage,
                                   "help": cmd.help, "group": group_of(cmd)})
    rows = [{"name": c.name, "usage": c.usage, "help": c.help, "aliases": list(c.aliases), "group": group_of(c)}
            for c in REGISTRY.commands()]
    rows.sort(key=lambda r: GROUPS.index(r["group"]) if r["group"] in GROUPS else len(GROUPS))
    return Result("help_all", {"commands": rows, "groups": [g for g in GROUPS if any(r["group"] == g for r in rows)]})


@command("quit", aliases=("exit",), needs_browser=False, group="session", tool=False,
         help="Close the browser and leave.")
def quit_cmd(ctx, args, flags):
    ctx.quit_requested = True
    return Result("quit", {})
