"""wait text TEXT | wait REF | wait gone REF | wait url TEXT | wait MS, each bounded by --timeout."""

from __future__ import annotations

from contextlib import suppress
import time

from ..act.resolve import locate
from ..act.targets import parse_target, resolve_target
from ..base.errors import CDPError, CDPTimeout, ConnectionLost, ErrorKind, JSError, RefError, UsageError, VerdexError
from ..browser import bridge
from ..browser.frames import frame_url
from ..browser.timer_watch import KEY
from ..refs.store import describe
from .registry import Result, forms, usage_of
from .session_log import note_target

POLL = 0.1

class _Timeout(VerdexError):
    kind = ErrorKind.TIMEOUT


def _text_found(ctx, page, text: str, worlds: dict, limit: float) -> bool:
    """Is the text in the page: any frame, of its process or another (registered from the frame trees:
    no ref issued), its closed shadow roots included (which verdex's world holds)?"""
    for fr in _frames(ctx, page):
        key = (fr.frame_id, fr.loader_id)
        context = worlds.get(key)
        try:
            if context is None:
                context = worlds[key] = fr.target.call("Page.createIsolatedWorld", timeout=limit, frameId=fr.frame_id,
                                                       worldName=bridge.WAIT_WORLD)["executionContextId"]
            found = bridge.ask(fr.target, bridge.has_text(text, KEY).at(context), limit).get("result", {}).get("value")
            if found == "closed":  # not in its open roots, and it has closed ones
                found = page.bridge.has_text(fr, text, limit)
        except (CDPError, CDPTimeout, ConnectionLost, JSError):
            worlds.pop(key, None)  # a document that went away
            continue
        if found is True:
            return True
    return False


def _frames(ctx, page):
    """The main frame first: when it has the text, no frame tree is read; then the others."""
    yield page.frames.main
    with suppress(CDPError, CDPTimeout, ConnectionLost):
        yield from (fr for fr in ctx.ensure_session().scan_frames(page) if fr.parent is not None)


def _ref_state(ctx, raw: str, strict: bool = False) -> tuple[str, str]:
    """('visible' | 'hidden' | 'gone', label) of the ref's own element right now; ``strict``: a ref
    whose element is gone (removed, or its document navigated) raises its RefError instead."""
    page = ctx.page
    if parse_target(raw).kind != "ref":  # a target by meaning: gone while nothing visible matches it
        try:
            res = resolve_target(ctx.session, page, ctx.page_state().store, raw)
        except VerdexError as exc:
            if exc.kind in (ErrorKind.NO_MATCH, ErrorKind.REMOVED):  # (removed: went away as it was found)
                return "absent", raw  # may still appear
            raise
        return ("hidden" if res.live.get("hidden") else "visible"), res.label
    try:
        ref, text, rec, fr, live = locate(ctx.session, page, ctx.page_state().store, raw)
    except RefError as exc:
        # a ref of an earlier visit of the page the tab shows again (back/forward cache): its element
        # may be right there under a new ref, so it is not known to be gone: the ref's error stands
        earlier = exc.details.get("earlier_visit")
        if exc.kind == ErrorKind.REMOVED or exc.kind == ErrorKind.NAVIGATED and not earlier:
            if strict:
                raise  # waiting for it to show: say why it never will (its own kind and message)
            return "gone", raw
        raise
    label = f"{describe(live.get('role', rec.role), live.get('name', rec.name))} ({text})"
    return ("hidden" if live.get("hidden") else "visible"), label


def _poll(check, timeout: float):
    deadline = time.monotonic() + timeout
    while True:
        value = check(max(0.5, deadline - time.monotonic()))
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(min(POLL, max(0.0, deadline - time.monotonic())))


class _Clock:
    """A wait's bound (the page's timeout) and the result it ends with (how long it waited)."""

    def __init__(self, ctx):
        self.page = ctx.page
        self.limit = self.page.timeout
        self.start = time.monotonic()

    def done(self, data: dict) -> Result:
        data["waited_ms"] = round((time.monotonic() - self.start) * 1000)
        return Result("wait", data)


def wait_time(ctx, args, flags):
    clock, ms = _Clock(ctx), args.values["ms"]
    if ms / 1000 > clock.limit:
        raise _Timeout(f"wait {args[0]} is longer than the timeout of {clock.limit:g} s; raise --timeout to wait longer.")
    time.sleep(ms / 1000)
    return clock.done({"for": "time", "ms": ms})


def wait_text(ctx, args, flags):
    clock, want = _Clock(ctx), _wanted(args, "text")
    if len(ctx.wait_worlds) > 200:
        ctx.wait_worlds.clear()
    if _poll(lambda t: _text_found(ctx, clock.page, want, ctx.wait_worlds, t), clock.limit) is None:
        raise _Timeout(f"Waited {clock.limit:g} s for the text {want!r} to appear; it did not.")
    return clock.done({"for": "text", "text": want})


def wait_url(ctx, args, flags):
    clock, want = _Clock(ctx), _wanted(args, "text")

    def url_now(_t=None) -> str:
        return frame_url(clock.page.frames.tree()["frame"])

    if _poll(lambda t: want in url_now(), clock.limit) is None:
        raise _Timeout(f"Waited {clock.limit:g} s for the URL to contain {want!r}; it is still {url_now()}.")
    return clock.done({"for": "url", "text": want, "url": url_now()})


def wait_gone(ctx, args, flags):
    return _wait_ref(ctx, args, gone=True)


def wait_visible(ctx, args, flags):
    return _wait_ref(ctx, args, gone=False)


def _wait_ref(ctx, args, gone: bool) -> Result:
    """Until the ref's element is visible, or (``gone``) hidden, gone or matched by nothing. Waiting
    for it to be visible, an element gone for good raises its own error (the ref's kind and message)."""
    clock, raw = _Clock(ctx), _wanted(args, "ref").strip()
    seen = {"label": raw, "state": ""}
    with suppress(VerdexError):  # its stable target, for 'export' (when it can be resolved now)
        note_target(ctx, resolve_target(ctx.session, ctx.page, ctx.page_state().store, raw), raw)

    def reached(_t):
        seen["state"], seen["label"] = _ref_state(ctx, raw, strict=not gone)
        return (seen["state"] == "visible") != gone

    if _poll(reached, clock.limit) is None:
        still = "it is still visible" if gone else "nothing matches it" if seen["state"] == "absent" else \
            "it is still hidden"
        raise _Timeout(f"Waited {clock.limit:g} s for {seen['label']} to {'go away' if gone else 'be visible'}; "
                       f"{still}.")
    return clock.done({"for": "gone" if gone else "visible", "ref": raw})


def _wanted(args, name: str) -> str:
    value = args.values.get(name, "")
    if not (value.strip() if name == "ref" else value):
        raise UsageError(f"Usage: {usage_of('wait')}")
    return value


forms("wait", {"text TEXT": wait_text, "REF": wait_visible, "gone REF": wait_gone, "url TEXT": wait_url,
               "MS": wait_time},
      group="navigation",
      help="Wait until TEXT appears, a ref is visible or gone, the URL contains TEXT, or for MS milliseconds.",
      effect="read", logged=True)
