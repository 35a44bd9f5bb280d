"""Read-only status of tabs (title, URL) from the browser's target list.

No page JavaScript runs and nothing here may interrupt a page's script, so a
busy page keeps running while the REPL toolbar or `tabs` looks at it.
"""

from __future__ import annotations

from ..base.errors import VerdexError

STATUS_TIMEOUT = 2.0


def page_status(session, page) -> dict:
    """{"title", "url"} of one tab (from one browser-level call); empty strings when the browser cannot say."""
    try:
        infos = session.browser().call("Target.getTargets", timeout=min(session.options.timeout, STATUS_TIMEOUT),
                                       interrupt=False)["targetInfos"]
    except VerdexError:
        infos = []
    info = next((i for i in infos if i["targetId"] == page.target.id), {})
    url = info.get("url", "")
    title = info.get("title", "")
    if title == url or title == url.split("://", 1)[-1]:
        title = ""  # Chrome shows the URL as the title of a page without one
    return {"title": title, "url": url}
