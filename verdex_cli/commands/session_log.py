"""The session log behind `export`: each successful action with the stable target it had when it ran.

Commands that act on a target call :func:`note_target` right after resolving it (before acting, so a
name the action changes is not what gets recorded); the runner calls :func:`begin` before and
:func:`record` after every command.
"""

from __future__ import annotations

from ..act.locators import playwright_for, stable_locator
from ..act.targets import parse_target
from ..base.errors import VerdexError


def begin(ctx) -> None:
    ctx.located = None


def note_target(ctx, res, raw: str) -> None:
    """Remember the stable target of the element a command is about to act on. A target by meaning
    that was typed is one already: it just found this element alone, so nothing is computed (no round
    trip); a ref gets the best one the page offers now, before the action may rename the element."""
    loc = None
    try:
        typed = parse_target(raw)
    except VerdexError:
        typed = None
    if typed is not None and typed.kind != "ref":
        loc = {"locator": str(typed), "playwright": playwright_for(typed)}
    else:
        try:
            loc = stable_locator(ctx.page, res.frame, res.ref.n)
        except VerdexError:
            pass
    ctx.located = dict(loc or {"locator": None, "playwright": None}, raw=raw, ref=res.text,
                       role=res.role, name=res.name)


def record(ctx, parsed, result) -> None:
    """Append a successful command to the log (never fails the command)."""
    name = parsed.command.name
    if not parsed.command.logged:  # declared with the command (commands/registry.py)
        return
    try:
        args = list(parsed.args)
        step = {"command": name, "args": args, "flags": sorted(parsed.flags), "secret": False}
        if name == "open" and result.data.get("url"):
            step["args"] = [result.data["url"]]
        loc = getattr(ctx, "located", None)
        if loc is not None:
            step.update(target=loc["locator"], playwright=loc["playwright"], ref=loc["ref"], role=loc["role"],
                        name=loc["name"], at=args.index(loc["raw"]) if loc["raw"] in args else 0)
        if ctx.redact or result.data.get("masked"):
            step["secret"] = True
            if len(args) > 1:
                step["args"] = args[:1] + ["PASSWORD"]
        ctx.log.append(step)
    except Exception:  # the log is a convenience: it must never break a command
        pass
