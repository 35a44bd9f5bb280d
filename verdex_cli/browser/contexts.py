"""A session's browser contexts (``context new|N|close``): isolated cookies and storage, each with its
own tabs. A mixin of :class:`~verdex_cli.browser.session.Session`, which holds the state it works on:
``contexts`` (index -> browserContextId; 0 is the browser's default context), ``pages`` keyed by
(context, tab), ``current``, and the tab each context had current last."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base.errors import UsageError, VerdexError

if TYPE_CHECKING:
    from .page import Page


class BrowserContexts:
    """The browser-context half of a Session (see the module's docstring)."""

    def new_context(self, url: str = "about:blank") -> Page:
        """An isolated browser context (own cookies and storage) with one tab; it becomes current."""
        browser = self.browser()
        context_id = browser.call("Target.createBrowserContext", disposeOnDetach=True)["browserContextId"]
        index = self._next_context
        self._next_context += 1
        self.contexts[index] = context_id
        if self.downloads is not None:
            self.downloads.route(browser, context_id)
        self._last_tab[self.current[0]] = self.current[1]
        self.current = (index, 0)
        try:
            return self.new_tab(url)
        except BaseException:
            self.close_context(index)  # (current: back to context 0)
            raise

    def switch_context(self, index: int) -> Page:
        if index not in self.contexts:
            raise UsageError(f"There is no context {index}. 'contexts' lists them.")
        tabs = sorted(k for k in self.pages if k[0] == index)
        if not tabs:
            raise UsageError(f"Context {index} has no open tab; 'context close {index}' closes it.")
        self._last_tab[self.current[0]] = self.current[1]
        key = (index, self._last_tab.get(index, tabs[0][1]))
        self.current = key if key in self.pages else tabs[0]
        page = self.page
        page.bring_to_front()
        return page

    def close_context(self, index: int) -> str | None:
        """Close context ``index`` and its tabs; returns a note when the current context changed."""
        if index == 0:
            raise UsageError("Context 0 is the browser's default context; it cannot be closed.")
        if index not in self.contexts:
            raise UsageError(f"There is no context {index}. 'contexts' lists them.")
        for key in [k for k in self.pages if k[0] == index]:
            self._drop_tab(key)
        context_id = self.contexts.pop(index)
        self._closed_contexts.add(index)
        try:
            self.browser().call("Target.disposeBrowserContext", browserContextId=context_id)
        except VerdexError:
            pass
        if self.current[0] != index:
            return None
        last = (0, self._last_tab.get(0, -1))
        if last in self.pages:
            self.current = last
            self.page.bring_to_front()
        else:
            self._current_closed(0)
        return f"Context {index} was current; context {self.current[0]} (tab {self.current[1]}) is now current."

    def context_rows(self) -> list[dict]:
        return [{"index": c, "pages": sorted(i for (k, i) in self.pages if k == c), "current": c == self.current[0]}
                for c in sorted(self.contexts)]

    def context_state(self, index: int) -> str:
        """'open', 'closed' or 'unknown' (for a ref's context check)."""
        if index in self.contexts:
            return "open"
        return "closed" if index in self._closed_contexts else "unknown"
