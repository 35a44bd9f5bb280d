// A click that asks for a download without navigating, told at once through the binding
// ``binding`` (browser/download_watch.py), in an isolated world of every document.
(binding) => {
  const ask = globalThis[binding];
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
}
