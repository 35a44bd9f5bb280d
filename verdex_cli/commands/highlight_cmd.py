"""highlight (outline an element in the browser for a moment) and timings (phases of the last command)."""

from __future__ import annotations

from contextlib import suppress
import threading

from ..act.focus import element_object
from ..base.errors import VerdexError
from .actions_cmd import resolve_arg
from .registry import Result, command

SECONDS = 2.0
STYLE = {"showInfo": True, "contentColor": {"r": 111, "g": 168, "b": 220, "a": 0.45},
         "borderColor": {"r": 255, "g": 140, "b": 0, "a": 1.0}, "paddingColor": {"r": 147, "g": 196, "b": 125, "a": 0.35},
         "marginColor": {"r": 246, "g": 178, "b": 107, "a": 0.35}}


def _hide_later(target) -> None:
    def hide():
        with suppress(Exception):  # the tab may be gone by then
            target.call("Overlay.hideHighlight", timeout=2, interrupt=False)
    timer = threading.Timer(SECONDS, hide)
    timer.daemon = True
    timer.start()


def _headless(session) -> bool:
    """Whether nobody can see the browser: launched headless, or (attached) a headless build says so."""
    if session.chrome.owned:
        return session.options.headless
    try:
        version = session.browser().call("Browser.getVersion", timeout=2)
    except VerdexError:
        return False
    return "Headless" in version.get("userAgent", "") or "Headless" in version.get("product", "")


@command("highlight", group="actions", params="REF", tool=False,
         help="Outline the element in the browser for two seconds (visible in a headed browser).", effect="read")
def highlight_cmd(ctx, args, flags):
    page = ctx.page
    res = resolve_arg(ctx, args[0])
    fr = res.frame
    with element_object(page, res, f"Element {res.label} could not be highlighted: it is not in the document.") as obj:
        fr.target.call("Overlay.enable")
        fr.target.call("Overlay.highlightNode", highlightConfig=STYLE, objectId=obj)
    _hide_later(fr.target)
    headless = _headless(ctx.ensure_session())
    notes = list(res.notes)
    if headless:
        notes.append("The browser is headless: the outline is drawn but nobody can see it (use --headed).")
    return Result("highlight", {"action": "highlight", "target": res.text, "element": res.label,
                             "seconds": SECONDS, "visible": not headless}, notes)


@command("timings", group="snapshot", needs_browser=False, tool=False,
         help="Show the phases of the last command with milliseconds (what --trace prints for every command).",
         effect="read")
def timings_cmd(ctx, args, flags):
    last = ctx.last_timings
    if last is None:
        return Result("timings", {"command": None, "phases": []}, ["No command has run yet."])
    return Result("timings", dict(last))
