"""The session log behind `export`: each successful action with the stable target it had when it ran.

:func:`note_target`, right after resolving, only starts the engine's ``locate`` call (act/locators.py),
which the page runs before the action's own (a name the action changes is not recorded; no round trip
waited for); :func:`record` takes the answer after the command. With several frames, the final choice
is left to :func:`settle`, which `export` calls.
"""

from __future__ import annotations

from contextlib import suppress
from ..act.locators import Found, chain_code, found_from, locate_now, one_frame, owner_css, playwright_for
from ..act.targets import parse_target
from ..base.errors import VerdexError

_NONE = {"locator": None, "playwright": None}


def begin(ctx) -> None:
    pending = (ctx.located or {}).get("pending")
    if pending is not None:  # a command that failed after noting its target: its answer is not wanted
        with suppress(Exception):  # bookkeeping only
            for started in [pending[3], *(pending[5] or [])]:
                started.drop()
    ctx.located = None


def note_target(ctx, res, raw: str, started=None) -> None:
    """Remember the stable target of the element a command is about to act on: a typed target by meaning
    as it is; for Playwright and for a ref, the ``locate`` call started now (or ``started``, the one sent
    with the action's first check), before the action may rename the element."""
    typed = parse_target(raw)  # (it parsed: ``res`` was resolved from it)
    typed = str(typed) if typed.kind != "ref" else None
    loc: dict | None = None
    pending = later = None
    page, fr, n = ctx.page, res.frame, res.ref.n
    if started is None:
        started = page.bridge.locate(fr, n, kept=True)
    if started.sent is not None:
        pending = (page, fr, n, started, one_frame(page), _start_owners(ctx, page, fr))
    else:  # its world is not set up: ask now (one round trip)
        try:
            loc = _found(locate_now(page, fr, n))
        except VerdexError:
            loc = None
        if isinstance(loc, Found):
            loc, later = None, loc
    ctx.located = dict(loc or _NONE, raw=raw, typed=typed, ref=res.text, role=res.role, name=res.name,
                       pending=pending, later=later)


def _found(found: Found | None):
    """A settled choice (dict), or the Found whose choice waits for `export`."""
    if found is None:
        return _NONE
    return found.choose() if found.single else found  # one frame: nothing else can match, no round trip


def _take(loc: dict):
    """The noted target's choice: a dict, or a Found to settle later. Taking the started call's answer
    costs no round trip (the page answered it before the action's own calls)."""
    pending = loc.get("pending")
    if loc.get("later") is not None:
        return loc["later"]
    if pending is None:
        return {"locator": loc["locator"], "playwright": loc["playwright"]}
    page, fr, n, started, single, owners = pending
    loc["pending"] = None
    try:
        answer = started.value()
    except VerdexError:
        return _NONE
    found = found_from(page, fr, n, answer, started.loader, single)
    if found is not None and owners:
        attrs = [s.value() for s in owners]
        if all(isinstance(a, dict) for a in attrs):
            found.chain = chain_code([owner_css(a["tag"], a) for a in attrs])
    return _found(found)


def record(ctx, parsed, result) -> None:
    """Append a successful command to the log (never fails the command)."""
    name = parsed.command.name
    if not parsed.command.logged:  # declared with the command (commands/registry.py)
        return
    with suppress(Exception):  # the log is a convenience: it must never break a command
        args = list(parsed.args)
        step = {"command": name, "args": args, "flags": sorted(parsed.flags), "secret": False}
        if name == "open" and result.data.get("url"):
            step["args"] = [result.data["url"]]
        loc = ctx.located
        if loc is not None:
            chosen = _take(loc)
            later = chosen if isinstance(chosen, Found) else None
            if later is not None:  # the frame chain now, while the page shows the frame
                chosen = {"locator": None, "playwright": _playwright(ctx, later)}
            if loc["typed"]:  # the verdex script keeps the target as typed
                later = None
                chosen = {"locator": loc["typed"], "playwright": chosen["playwright"] or playwright_for(
                    parse_target(loc["typed"]))}
            step.update(target=chosen["locator"], playwright=chosen["playwright"], ref=loc["ref"], role=loc["role"],
                        name=loc["name"], at=args.index(loc["raw"]) if loc["raw"] in args else 0)
            if later is not None:
                step["_later"] = later  # settle() fills target and playwright
            elif chosen["locator"]:  # the ref's story keeps its last stable target
                rec = ctx.page_state().store.records.get(loc["ref"])
                if rec is not None and rec.known is not None:
                    rec.known["locator"] = chosen["locator"]
        if ctx.redact or result.data.get("masked"):
            step["secret"] = True
            if result.data.get("env"):  # `fill REF --env VAR`: the line holds no secret, the replay reads VAR
                step["env"] = result.data["env"]
            elif len(args) > 1:
                step["args"] = args[:1] + ["PASSWORD"]
        ctx.log.append(step)


def _chain_key(page, fr) -> tuple:
    key = []
    while fr is not None:
        key.append((fr.frame_id, fr.loader_id))
        fr = page.frames.get(fr.parent) if fr.parent is not None else None
    return tuple(key)


def _start_owners(ctx, page, fr) -> list | None:
    """For a frame whose chain is not known yet: each frame above asked for the owner of the one below
    (sent with the locate call; no round trip of its own). None when not needed or not all sent."""
    if fr.parent is None or _chain_key(page, fr) in ctx.frame_chains:
        return None
    out = []
    while fr.parent is not None:
        parent = page.frames.get(fr.parent)
        started = page.bridge.owner_attrs(parent, fr.frame_id) if parent is not None else None
        if started is None or started.sent is None:
            return None
        out.insert(0, started)
        fr = parent
    return out


def _playwright(ctx, found: Found) -> str | None:
    """The element's Playwright locator, its frame chain found now (while the page shows the frame):
    from the owners' answers, else known for this frame, else asked of the browser (round trips)."""
    chains = ctx.frame_chains
    key = _chain_key(found.page, found.fr)
    if found.chain is None:
        found.chain = chains.get(key)
    code = found.playwright()
    if found.chain:
        chains[key] = found.chain
    return code


def settle(steps: list[dict]) -> None:
    """Make the choices left for later (tabs with several frames): each step gets its final target and
    Playwright code (round trips: a search of the page per candidate, the frame's name when needed)."""
    for step in steps:
        later = step.pop("_later", None)
        if later is None:
            continue
        try:
            chosen = later.choose()
        except Exception:  # noqa: BLE001 - a target not found is written as a comment, never an error
            chosen = _NONE
        step.update(target=chosen["locator"], playwright=step["playwright"] or chosen["playwright"])
