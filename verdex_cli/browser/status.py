"""Read-only status of tabs (title, URL) from the browser's target list.

No page JavaScript runs and nothing here may interrupt a page's script, so a
busy page keeps running while the REPL toolbar or `tabs` looks at it.
"""

from __future__ import annotations

from ..base.errors import VerdexError

STATUS_TIMEOUT = 2.0


def target_infos(session) -> dict[str, dict]:
    """targetId -> {"title", "url"} for every page target (one browser-level call)."""
    infos = session.browser().call("Target.getTargets", timeout=min(session.options.timeout, STATUS_TIMEOUT),
                                     interrupt=False)["targetInfos"]
    return {i["targetId"]: {"title": i.get("title", ""), "url": i.get("url", "")} for i in infos}


def page_status(session, page) -> dict:
    """{"title", "url"} of one tab; empty strings when the browser cannot say."""
    try:
        info = target_infos(session).get(page.target.id)
    except VerdexError:
        info = None
    if not info:
        return {"title": "", "url": ""}
    title = info["title"]
    if title == info["url"] or title == info["url"].split("://", 1)[-1]:
        title = ""  # Chrome shows the URL as the title of a page without one
    return {"title": title, "url": info["url"]}
