"""relaunch: a new browser after the old one died (or on request)."""

from __future__ import annotations

from contextlib import suppress
from ..base.errors import VerdexError
from .registry import Result, command


@command("relaunch", needs_browser=False, tool=False,
         help="Start a new browser (after 'The browser is gone') and reopen the current tab's URL.")
def relaunch_cmd(ctx, args, flags):
    old = ctx.session
    url = ""
    old_tabs = set(old.pages) if old is not None else set()
    if old is not None:
        with suppress(Exception):
            url = old.page.frames.main.url or ""  # remembered locally: the old browser cannot be asked
        ctx.session = None
        with suppress(Exception):
            old.close()
    # The ref stores stay: the new browser's documents are new, so old refs report 'navigated'.
    session = ctx.ensure_session()
    session.mark_closed(key for key in old_tabs if key not in session.pages)  # their refs say "closed"
    page = session.page
    notes = ["Started a new browser; refs from before report that their page is gone. Take a new snapshot."]
    if session.options.connect:
        from ..browser.endpoint import mask

        notes = [f"Reconnected to {mask(session.options.connect)}; refs from before report that their page is "
                 "gone. Take a new snapshot."]
    info = {"url": "about:blank", "title": "", "relaunched": True}
    if url and url != "about:blank":
        try:
            info.update(page.navigate(url))
            notes = list(info.pop("notes", [])) + notes
        except VerdexError as exc:
            notes.insert(0, f"Could not reopen {url}: {exc.message}")
    return Result("navigation", info, notes)
