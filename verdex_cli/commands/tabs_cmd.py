"""frames, tabs and tab: where refs live."""

from __future__ import annotations

from ..browser.status import page_status
from ..browser.urls import normalize_url
from .registry import Result, command, index_verb


@command("frames",
         help="List the frames of the current page with their indices (from the frame tree: no snapshot is taken).",
         effect="read")
def frames_cmd(ctx, args, flags):
    session = ctx.ensure_session()
    page = session.page
    rows = [{"index": f.index, "url": f.url, "name": f.name, "cross_origin": page.frames.cross_origin(f),
             "parent": f.parent} for f in session.scan_frames(page)]
    return Result("frames", {"frames": rows})


def _tab_rows(session) -> list[dict]:
    rows = []
    for (c, i), page in sorted(session.pages.items()):
        info = page_status(session, page)  # the browser's target list: no page script runs or is interrupted
        rows.append({"context": c, "index": i, "title": info["title"], "url": info["url"],
                     "current": (c, i) == session.current})
    return rows


@command("tabs", help="List the open tabs (pages) with their indices.", effect="read")
def tabs_cmd(ctx, args, flags):
    session = ctx.ensure_session()
    session.discover()
    data = {"tabs": _tab_rows(session)}
    others = session.browser_tabs()
    if others:  # with --connect: the browser's own tabs, listed for 'tab N' to adopt
        data["browser_tabs"] = others
    return Result("tabs", data)


def index_command(ctx, name: str, args: list[str], verbs: dict) -> Result:
    """Run a `tab`/`context` line: the sub-verb is checked before any browser starts, the session's
    tabs are re-read, a `new` URL is made absolute (default about:blank), then ``verbs[verb](session,
    argument)`` gives the result."""
    verb, arg = index_verb(name, args)
    session = ctx.ensure_session()
    session.discover()
    if verb == "new":
        arg = normalize_url(arg, base=session.page.frames.main.url) if arg else "about:blank"
    return verbs[verb](session, arg)


def _tab_new(session, url: str) -> Result:
    page = session.new_tab(url)
    return Result("tabs", {"tabs": _tab_rows(session), "switched_to": page.index})


def _tab_close(session, index: int) -> Result:
    session.close_tab(index)
    return Result("tabs", {"tabs": _tab_rows(session), "closed": index})


def _tab_switch(session, index: int) -> Result:
    return Result("tabs", {"tabs": _tab_rows(session), "switched_to": session.switch(index).index})


@command("tab", params=("N", "new [URL]", "close N"),
         help="Switch to tab N, open a new tab, or close tab N.")
def tab_cmd(ctx, args, flags):
    return index_command(ctx, "tab", args, {"new": _tab_new, "close": _tab_close, "switch": _tab_switch})
