"""The one gate between page text (untrusted) and the terminal or a JSON line.

Text: C0 controls but tab, DEL and C1 (the 8-bit CSI U+009B ...) become visible ``\\x1b``-style escapes,
so an escape sequence shows whole and inert; U+2028/9 become ``\\u2028``/``\\u2029``; ``one_line`` also
escapes newlines (one item, one line). JSON lines keep the real strings (``json.dumps``) and also write
DEL, C1 and U+2028/9 as ``\\uXXXX``: valid JSON, safe to print, never two lines."""

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
    """``text`` with every terminal control character shown as a visible escape; ``one_line=False`` keeps
    newlines (output we formatted ourselves, such as the snapshot tree)."""
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
    return _json_safe(encode_basestring(text))


def json_line(obj: Any) -> str:
    """One JSON Lines record (no newline inside, no raw control character: DEL, C1, U+2028/9 escaped
    as ``\\uXXXX``)."""
    return _json_safe(json.dumps(obj, ensure_ascii=False, default=str))


def _json_safe(out: str) -> str:
    # (ASCII: DEL the only one, found without the pattern, which takes ~9 ms over a 1 MB snapshot)
    if (out.isascii() and "\x7f" not in out) or _JSON_UNSAFE.search(out) is None:
        return out
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
