"""open/goto, back, forward, reload."""

from __future__ import annotations

from ..browser.urls import normalize_url
from .registry import Result, command


def _nav_result(info: dict) -> Result:
    return Result("navigation", info, info.pop("notes", []))


@command("open", group="navigation", params="URL", aliases=("goto",),
         help="Open a URL or a local file in the current tab.", effect="navigate")
def open_cmd(ctx, args, flags):
    page = ctx.page
    return _nav_result(dict(page.navigate(normalize_url(args[0], base=page.frames.main.url)), asked=args[0]))


@command("back", group="navigation", help="Go back one page in the tab's history.", effect="navigate")
def back_cmd(ctx, args, flags):
    return _nav_result(ctx.page.history_step(-1))


@command("forward", group="navigation", help="Go forward one page in the tab's history.", effect="navigate")
def forward_cmd(ctx, args, flags):
    return _nav_result(ctx.page.history_step(1))


@command("reload", group="navigation", help="Reload the current page (refs taken before it report 'navigated').",
         effect="navigate")
def reload_cmd(ctx, args, flags):
    return _nav_result(ctx.page.reload())
