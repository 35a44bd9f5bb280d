"""JavaScript dialogs (alert, confirm, prompt, beforeunload): answered, never left open, always reported.

The answer for the next dialog can be set with ``dialog accept [TEXT]`` / ``dialog dismiss``;
otherwise alert and beforeunload are accepted and confirm and prompt dismissed, like a user who
did not agree to anything. Every dialog shown is logged; the session hands the log to the result
of the command during which it appeared.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

ARTICLES = {"alert": "An alert", "confirm": "A confirm", "prompt": "A prompt", "beforeunload": "A beforeunload dialog"}
DEFAULT_ACCEPT = {"alert": True, "beforeunload": True, "confirm": False, "prompt": False}


@dataclass
class DialogAnswers:
    """Shared by every tab of a session (the next dialog may come from any of them)."""

    pending: tuple[bool, str | None] | None = None
    log: list[dict] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def set_next(self, accept: bool, text: str | None = None) -> None:
        with self._lock:
            self.pending = (accept, text)

    def handle(self, target, answering=None, type: str = "alert", message: str = "", defaultPrompt: str = "",
               **_) -> None:
        """Event handler (the session's event thread): log the dialog, tell ``answering(record)`` (the tab) how
        it is answered, then answer it."""
        with self._lock:
            chosen, self.pending = self.pending, None
        accept, text = chosen or (DEFAULT_ACCEPT.get(type, True), None)
        params: dict = {"accept": accept}
        if type == "prompt" and accept:
            text = defaultPrompt if text is None else text
            params["promptText"] = text
        else:
            text = None
        record = {"type": type, "message": message, "accepted": accept, "text": text, "chosen": chosen is not None}
        with self._lock:
            self.log.append(record)
        if answering is not None:
            answering(record)
        try:
            target.call("Page.handleJavaScriptDialog", timeout=5, **params)
        except Exception:  # the tab went away with its dialog
            pass

    def drain(self) -> list[dict]:
        with self._lock:
            out, self.log = self.log, []
        return [{k: r[k] for k in ("type", "message", "accepted", "text")} for r in out]


def dialog_note(record: dict) -> str:
    what = ARTICLES.get(record["type"], f"A {record['type']} dialog")
    how = "accepted" if record["accepted"] else "dismissed"
    note = f"{what} was shown and {how}: {record['message']!r}"
    if record["type"] == "prompt" and record["accepted"]:
        note += f" (answered {record['text']!r})"
    return note
