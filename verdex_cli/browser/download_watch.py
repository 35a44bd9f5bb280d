"""Hear, inside the tab, a click that asks for a download without navigating (a link with the
``download`` attribute: blob:, data: or a server's file).

The browser announces such a download only once the file answers, which may be after the command
that caused it (an ``eval``, a handler that clicks a script-made link) has returned. A listener in an
isolated world of every document of the tab tells verdex at once, through a binding, so the command
waits for that download to begin (bounded by --timeout). The page cannot see the world or the binding.
"""

from __future__ import annotations

from ..base.errors import CDPError, CDPTimeout
from .bridge import new_document_script, with_values

WORLD = "verdex-downloads"
BINDING = "__verdexDownloadAsked"

SOURCE = """(() => {
  const ask = globalThis[%(binding)s];
  if (typeof ask !== "function" || globalThis.__verdexDownloadListening) return;
  globalThis.__verdexDownloadListening = true;
  addEventListener("click", (event) => {
    if (event.defaultPrevented) return;
    for (const node of event.composedPath()) {
      if (!(node instanceof HTMLAnchorElement || node instanceof SVGAElement)) continue;
      if (!node.hasAttribute("download")) return;
      let url;
      try {
        url = new URL(typeof node.href === "string" ? node.href : node.href.baseVal, document.baseURI);
      } catch (e) {
        return;
      }
      // the browser honours 'download' for its own origin, blob: and data: (elsewhere the link navigates)
      if (url.protocol === "blob:" || url.protocol === "data:" || url.origin === location.origin) ask("");
      return;
    }
  });
})();"""


def install(target) -> None:
    """Install the listener in the tab's documents, present and future (same-process frames included)."""
    try:
        target.call("Runtime.addBinding", name=BINDING, executionContextName=WORLD)
        target.call("Page.addScriptToEvaluateOnNewDocument",
                    **new_document_script(with_values(SOURCE, binding=BINDING), world=WORLD))
    except (CDPError, CDPTimeout):
        pass  # an older browser: such downloads are reported when they begin within the command
