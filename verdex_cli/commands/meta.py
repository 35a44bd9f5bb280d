"""help and quit."""

from __future__ import annotations

from ..errors import UsageError
from .registry import REGISTRY, Result, command


@command("help", usage="help [COMMAND]", max_args=1, needs_browser=False,
         help="List the commands, or show how to use one.")
def help_cmd(ctx, args, flags):
    if args:
        cmd = REGISTRY.get(args[0])
        if cmd is None:
            raise UsageError(f"Unknown command '{args[0]}'. Type 'help'.")
        return Result("help_one", {"name": cmd.name, "aliases": list(cmd.aliases), "usage": cmd.usage,
                                   "help": cmd.help})
    rows = [{"name": c.name, "usage": c.usage, "help": c.help, "aliases": list(c.aliases)}
            for c in REGISTRY.commands()]
    return Result("help_all", {"commands": rows})


@command("quit", aliases=("exit",), usage="quit", needs_browser=False, help="Close the browser and leave.")
def quit_cmd(ctx, args, flags):
    ctx.quit_requested = True
    return Result("quit", {})
