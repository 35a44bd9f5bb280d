"""The bridge client's calls about text fields and focus, targets by meaning and page structure (a
mixin of ``bridge.Bridge``, which sends them: its ``_value``/``_object`` call one engine function with
values; see bridge.py)."""

from __future__ import annotations

from typing import Any


class FieldCalls:
    """Typed calls of the engine's ``fields``, ``targets`` and ``structure`` namespaces."""

    frames: Any

    def _value(self, fr, space: str, fn: str, *args: Any, timeout: float | None = None, later: bool = False):  # pragma: no cover
        raise NotImplementedError

    def _object(self, fr, space: str, fn: str, *args: Any, group: str | None = None) -> dict:  # pragma: no cover
        raise NotImplementedError

    def _closed_first(self, fr, answer, again):  # pragma: no cover - Bridge's
        raise NotImplementedError

    def _kept(self, fr, space: str, fn: str, *args: Any):  # pragma: no cover
        raise NotImplementedError

    def post(self, fr, space: str, fn: str, *args: Any) -> None:  # pragma: no cover
        raise NotImplementedError

    # -- fields and focus ----------------------------------------------------------------------------
    def field_info(self, fr, n: int) -> dict:
        """What the field is (kind, type, read-only, disabled, value): how fill/type may set it."""
        return self._value(fr, "fields", "info", n)

    def field_value(self, fr, n: int) -> dict:
        """The field's value and state now."""
        return self._value(fr, "fields", "value", n)

    def select_all(self, fr, n: int) -> bool:
        """Select the field's whole text (typed text replaces it); False when it has none to select."""
        return bool(self._value(fr, "fields", "selectAll", n))

    def caret_to_end(self, fr, n: int) -> Any:
        """Put the caret after the field's last character (typing then appends)."""
        return self._value(fr, "fields", "caretToEnd", n)

    def check_picker(self, fr, n: int, text: str) -> dict:
        """Whether ``text`` is a value the field's own picker could set (its format, min, max, step)."""
        return self._value(fr, "fields", "checkPicker", n, text)

    def set_picker(self, fr, n: int, value: str, key: str) -> dict:
        """Set the value the way the field's picker does (the value, then its input and change events);
        ``key`` names the timer watcher, so what the page's handlers start is waited for."""
        return self._value(fr, "fields", "setPicker", n, value, key)

    def files(self, fr, n: int) -> list[str]:
        """The names of the files a file input holds."""
        return self._value(fr, "fields", "files", n) or []

    def watch_field(self, fr, n: int) -> None:
        """Start recording every state the browser gives the field (read back by unwatch_field, which
        says whether it watched); no wait."""
        self.post(fr, "fields", "watchField", n)

    def unwatch_field(self, fr, n: int, timeout: float = 5) -> Any:
        return self._value(fr, "fields", "unwatchField", n, timeout=timeout)

    def options_now(self, fr, n: int) -> dict | None:
        """The options of select ``n`` now, or of the select the page put in its place (``replaced``)."""
        return self._value(fr, "fields", "optionsNow", n)

    def checked_now(self, fr, n: int) -> dict:
        """The checked state of ref ``n`` now, or of the control the page put in its place (``replaced``)."""
        return self._value(fr, "fields", "checkedNow", n)

    def focused(self, fr) -> dict:
        """The deep focused element of the frame's document (through open shadow roots), described."""
        return self._value(fr, "fields", "focused")

    def focused_element(self, fr) -> dict:
        return self._object(fr, "fields", "focusedElement")

    def focus_state(self, fr, n: int) -> dict:
        """Is ref ``n`` its document's deep focused element (``status`` ok), or where is focus?"""
        return self._value(fr, "fields", "focusState", n)

    def focus(self, fr, n: int) -> dict:
        return self._value(fr, "fields", "focus", n)

    def arm_keys(self, fr, n: int, later: bool = False) -> Any:
        """Guard the document: key events that would reach another element than ref ``n`` are stopped."""
        return self._value(fr, "fields", "armKeys", n, later=later)

    def disarm_keys(self, fr, timeout: float = 2) -> list:
        """Take the key guard down; the key events it stopped (each with where it would have gone)."""
        return self._value(fr, "fields", "disarmKeys", timeout=timeout) or []

    # -- targets by meaning ----------------------------------------------------------------------
    def search(self, fr, spec: dict) -> dict:
        again = lambda: self._value(fr, "targets", "search", spec)  # noqa: E731
        return self._closed_first(fr, again(), again)

    def issue(self, fr, indices: list[int]) -> list:
        return self._value(fr, "targets", "issue", indices)

    def facts(self, fr, n: int) -> dict:
        return self._value(fr, "targets", "facts", n)

    def locate(self, fr, n: int, kept: bool = False):
        """Element ``n``'s facts and stable-locator candidates, each checked in its own document
        (``{"facts": ..., "candidates": [{kind, value, role, name, scope, ok}]}``; None: gone).
        ``kept``: sent now (it runs before any later call to the frame), its Asked answered much later
        (None when its document went away before it ran: not asked again, the element is gone)."""
        return self._kept(fr, "targets", "locate", n) if kept else self._value(fr, "targets", "locate", n)

    def owner_attrs(self, fr, frame_id: str):
        """Sent now, a kept Asked: the owner element of child frame ``frame_id`` in ``fr`` as a test
        names it (``{tag, id, title, name}``, null when the last snapshot did not tag it)."""
        return self._kept(fr, "bridge", "ownerAttrs", frame_id)

    def title(self, fr) -> str:
        """The document's title, read in the isolated world."""
        return self._value(fr, "bridge", "title")

    # -- structure ---------------------------------------------------------------------------------
    def structure(self, fr, fn: str, n: int, *args: Any) -> Any:
        """``text``, ``container``, ``siblings`` or ``anchors`` of ref number ``n``."""
        if fn not in ("text", "container", "siblings", "anchors"):
            raise ValueError(f"no structure function {fn!r}")
        return self._value(fr, "structure", fn, n, *args)
