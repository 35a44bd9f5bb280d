"""Popups that open and close again before verdex looks (a payment or sign-in window that does its
work and calls ``window.close()`` in its own script): the browser's target events, heard on the
browser session, tell of every tab a page opened, so one gone before the command's look at the tab
list is still reported."""

from __future__ import annotations

import threading


class PopupWatch:
    """Tabs with an opener, as the browser announced them: target id -> (opener id, last URL)."""

    def __init__(self, browser):
        self._lock = threading.Lock()
        self._opened: dict[str, tuple[str, str]] = {}
        self._gone: set[str] = set()
        self._adopted: set[str] = set()
        browser.on("Target.targetCreated", self._on_info)
        browser.on("Target.targetInfoChanged", self._on_info)
        browser.on("Target.targetDestroyed", self._on_destroyed)
        # (no filter: Target.getTargets would use the same one, and the session lists frames with it)
        browser.call("Target.setDiscoverTargets", discover=True)

    def _on_info(self, targetInfo: dict | None = None, **_) -> None:
        info = targetInfo or {}
        if info.get("type") == "page" and info.get("openerId"):
            with self._lock:
                self._opened[info["targetId"]] = (info["openerId"], info.get("url", ""))

    def _on_destroyed(self, targetId: str = "", **_) -> None:
        with self._lock:
            if targetId in self._opened:
                self._gone.add(targetId)

    def adopted(self, target_id: str, kept: bool = True) -> None:
        """A popup the session adopts as a tab (its closing is then told as a tab's); ``kept`` False:
        it closed while being adopted."""
        with self._lock:
            if kept:
                self._adopted.add(target_id)
            else:
                self._adopted.discard(target_id)
                self._gone.add(target_id)

    def closed_at_once(self, openers: set[str]) -> list[str]:
        """The last URLs of the popups ``openers`` opened that closed without being adopted (as the
        browser's events heard so far tell), each told once."""
        with self._lock:
            gone = [t for t in self._gone if t not in self._adopted and self._opened.get(t, ("", ""))[0] in openers]
            urls = [self._opened.pop(t)[1] for t in gone]
            self._gone.difference_update(gone)
        return urls
