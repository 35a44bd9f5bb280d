"""frames, tabs and tab: where refs live."""

from __future__ import annotations

from ..browser.urls import normalize_url
from .registry import Result, command, forms


@command("frames", group="snapshot",
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
        info = session.page_status(page)  # the browser's target list: no page script runs or is interrupted
        rows.append({"context": c, "index": i, "title": info["title"], "url": info["url"],
                     "current": (c, i) == session.current})
    return rows


@command("tabs", group="tabs", help="List the open tabs (pages) with their indices.", effect="read")
def tabs_cmd(ctx, args, flags):
    session = tabs_now(ctx)
    data = {"tabs": _tab_rows(session)}
    others = session.browser_tabs()
    if others:  # with --connect: the browser's own tabs, listed for 'tab N' to adopt
        data["browser_tabs"] = others
    return Result("tabs", data)


def tabs_now(ctx):
    """The session, its tabs re-read (for `tab`/`context`)."""
    session = ctx.ensure_session()
    session.discover()
    return session


def new_url(session, args) -> str:
    """A `new [URL]` form's URL made absolute against the current page (default about:blank)."""
    url = args.values.get("url")
    return normalize_url(url, base=session.page.frames.main.url) if url else "about:blank"


def tab_new(ctx, args, flags) -> Result:
    session = tabs_now(ctx)
    page = session.new_tab(new_url(session, args))
    return Result("tabs", {"tabs": _tab_rows(session), "switched_to": page.index})


def tab_close(ctx, args, flags) -> Result:
    session = tabs_now(ctx)
    session.close_tab(args.values["n"])
    return Result("tabs", {"tabs": _tab_rows(session), "closed": args.values["n"]})


def tab_switch(ctx, args, flags) -> Result:
    session = tabs_now(ctx)
    page = session.switch(args.values["n"])  # before the rows: they mark the tab now current
    return Result("tabs", {"tabs": _tab_rows(session), "switched_to": page.index})


forms("tab", {"N": tab_switch, "new [URL]": tab_new, "close N": tab_close},
      group="tabs", help="Switch to tab N, open a new tab, or close tab N.")
