"""Values of `eval`, shown like the DevTools console.

:func:`to_data` turns a CDP RemoteObject into JSON-native data: ``{"value": ...}``, plus
``"type"`` and ``"description"`` wherever JSON cannot hold the value (undefined, NaN, Infinity,
-0, BigInt, symbols, functions, DOM nodes, Date, RegExp, Map, Set, Error, ...).
:func:`display_lines` is the REPL's rendering of such data.
"""

from __future__ import annotations

import json
import re

MAX_JSON_CHARS = 1_000_000  # larger results are cut in the data itself
MAX_SHOWN_CHARS = 10_000  # the REPL shows at most this much
BY_VALUE_SUBTYPES = (None, "array")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _visible(text: str) -> str:
    """Control characters as visible escapes (page text never reaches the terminal raw)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def js_quote(text: str) -> str:
    body = (text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
            .replace("\t", "\\t"))
    return "'" + _visible(body) + "'"


def _preview_value(p: dict) -> str:
    kind, sub, desc = p.get("type"), p.get("subtype"), p.get("description", "")
    if kind == "string":
        return js_quote(desc if "value" not in p else str(p.get("value", desc)))
    if kind == "object" and sub not in ("null",) and p.get("properties") is not None and "entries" not in p:
        return desc if sub not in (None, "array") else _preview_object(p)
    return str(p.get("value", desc)) if kind != "undefined" else "undefined"


def _preview_object(p: dict) -> str:
    props = p.get("properties") or []
    if p.get("subtype") == "array":
        inner = ", ".join(_prop(x, named=False) for x in props)
        return f"[{inner}{', …' if p.get('overflow') else ''}]"
    inner = ", ".join(_prop(x) for x in props)
    return f"{{{inner}{', …' if p.get('overflow') else ''}}}"


def _prop(x: dict, named: bool = True) -> str:
    kind = x.get("type")
    if kind == "string":
        val = js_quote(x.get("value", ""))
    elif kind == "object" and x.get("valuePreview"):
        val = _preview_object(x["valuePreview"])
    else:
        val = x.get("value", "undefined" if kind == "undefined" else "…")
    return f"{x.get('name')}: {val}" if named else str(val)


def describe(obj: dict) -> str:
    """DevTools-like text for a non-JSON object: its description, with Map/Set entries when known."""
    desc = obj.get("description") or obj.get("className") or obj.get("type", "")
    preview = obj.get("preview") or {}
    entries = preview.get("entries")
    if entries is not None:
        parts = []
        for e in entries:
            val = _preview_value(e.get("value", {}))
            parts.append(f"{_preview_value(e['key'])} => {val}" if e.get("key") else val)
        more = ", …" if preview.get("overflow") else ""
        return f"{desc} {{{', '.join(parts)}{more}}}"
    return desc


def to_data(obj: dict, by_value=None) -> dict:
    """JSON-native data for a RemoteObject; ``by_value`` fetches an object's JSON (or None)."""
    kind, sub = obj.get("type"), obj.get("subtype")
    if kind == "undefined":
        return {"value": None, "type": "undefined"}
    if kind in ("number", "bigint") and "unserializableValue" in obj:
        return {"value": None, "type": kind, "description": obj["unserializableValue"]}
    if kind in ("string", "number", "boolean"):
        return _capped({"value": obj.get("value")})
    if kind == "object" and sub == "null":
        return {"value": None}
    if kind == "object" and sub in BY_VALUE_SUBTYPES:
        value_json = by_value(obj) if by_value is not None else None
        if value_json is not None:
            return _capped(value_json)
        preview = obj.get("preview")
        text = _preview_object(preview) if preview and preview.get("properties") is not None else describe(obj)
        if obj.get("className") not in (None, "Object", "Array") and not text.startswith(obj["className"]):
            text = f"{obj['className']} {text}"  # Window {...}, like the console
        return {"value": None, "type": "object", "description": text}
    if kind == "function":
        return {"value": None, "type": "function", "description": obj.get("description", "function")}
    if kind == "object":
        return {"value": None, "type": sub or "object", "description": describe(obj)}
    return {"value": None, "type": kind or "unknown", "description": obj.get("description", "")}


def _capped(data: dict) -> dict:
    value = data["value"]
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) <= MAX_JSON_CHARS:
        return data
    if isinstance(value, str):
        return {"value": value[:MAX_JSON_CHARS], "truncated": True, "length": len(value)}
    return {"value": None, "type": "object", "description": text[:MAX_JSON_CHARS], "truncated": True,
            "length": len(text)}


def console_text(args: list[dict]) -> str:
    """One console.* call's arguments joined like the console shows them (strings unquoted)."""
    parts = []
    for a in args:
        if a.get("type") == "string":
            parts.append(a.get("value", ""))
        elif "value" in a and a.get("type") in ("number", "boolean"):
            parts.append(json.dumps(a["value"]))
        elif a.get("type") == "undefined":
            parts.append("undefined")
        elif a.get("subtype") == "null":
            parts.append("null")
        elif a.get("type") == "object" and a.get("subtype") in BY_VALUE_SUBTYPES and a.get("preview"):
            parts.append(_preview_object(a["preview"]))
        else:
            parts.append(a.get("unserializableValue") or describe(a))
    return " ".join(parts)


def display_lines(data: dict) -> list[tuple[str, str]]:
    """(text, style) lines for the REPL: strings quoted, undefined as undefined, descriptions as is."""
    if "type" in data and data.get("type") == "undefined":
        text = "undefined"
    elif "type" in data and "description" in data:
        text = _visible(str(data["description"]))
    elif isinstance(data.get("value"), str):
        text = js_quote(data["value"])
    else:
        text = _visible(json.dumps(data.get("value"), ensure_ascii=False, indent=2))
    lines: list[tuple[str, str]] = []
    if len(text) > MAX_SHOWN_CHARS:
        lines.append((text[:MAX_SHOWN_CHARS], ""))
        lines.append((f"(cut: showing {MAX_SHOWN_CHARS:,} of {len(text):,} characters; --json has all of it)", "dim"))
    else:
        lines.append((text, ""))
    if data.get("truncated"):
        lines.append((f"(the result was {data['length']:,} characters; cut to {MAX_JSON_CHARS:,})", "dim"))
    for entry in data.get("console") or []:
        lines.append((f"console.{entry['type']}: " + _visible(entry["text"]), "dim"))
    return lines


def describe_exception(details: dict) -> str:
    exc = details.get("exception") or {}
    text = exc.get("description") or details.get("text") or "Script error"
    return text.strip().splitlines()[0] if text.strip() else "Script error"
