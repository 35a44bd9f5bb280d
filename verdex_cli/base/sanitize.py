"""The one gate between page-originated text and the terminal (or a JSON line).

Page text is untrusted. Before it is printed, every character a terminal would
act on instead of showing becomes a visible escape:

- C0 controls except tab (NUL, BEL, BS, ESC, ...), DEL and the C1 controls
  (U+0080-U+009F, e.g. the 8-bit CSI U+009B) become ``\\x1b``-style escapes;
  so an ESC/CSI/OSC/DCS sequence shows whole and inert (``\\x1b]0;title\\x07``);
- line and paragraph separators (U+2028, U+2029) become ``\\u2028``/``\\u2029``;
- with ``one_line=True`` (values, names, titles, URLs, messages) a newline or
  carriage return becomes ``\\n``/``\\r``, so one item stays one line.

JSON lines carry the real strings: :func:`json_line` relies on ``json.dumps``
for quotes, backslashes and C0, and additionally writes DEL, C1 and the two
separators as ``\\uXXXX``, so a JSON line is valid JSON that a terminal can
print safely and that never spans two lines.
"""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring
from typing import Any

# Everything a terminal might interpret, except tab and newline (handled separately).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_ONE_LINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clean(text: str, one_line: bool = True) -> str:
    """``text`` with every terminal control character shown as a visible escape.

    ``one_line=False`` keeps newlines (for multi-line output that we formatted
    ourselves, such as the snapshot tree, whose names are already one line).
    """
    if not isinstance(text, str):
        text = str(text)
    pattern = _CONTROL_ONE_LINE if one_line else _CONTROL
    if pattern.search(text) is None:  # the common case: nothing to do, no copy
        return text
    return pattern.sub(_escape, text)


def clean_data(value: Any) -> Any:
    """A copy of JSON-like data with every string cleaned to one line (keys too)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {clean(k) if isinstance(k, str) else k: clean_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_data(v) for v in value]
    return value


def json_quote(text: str) -> str:
    """A JSON string literal (non-ASCII kept) with every control character escaped as ``\\uXXXX``."""
    out = encode_basestring(text)
    if (out.isascii() and "\x7f" not in out) or _JSON_UNSAFE.search(out) is None:  # (ASCII: DEL the only one)
        return out
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def json_line(obj: Any) -> str:
    """One JSON Lines record (no newline inside, no raw control character: DEL, C1, U+2028/9 escaped
    as ``\\uXXXX``)."""
    text = json.dumps(obj, ensure_ascii=False, default=str)
    return text if _JSON_UNSAFE.search(text) is None else _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
