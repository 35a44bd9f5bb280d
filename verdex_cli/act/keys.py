"""Key names (`Enter`, `Control+A`, `Shift+Tab`) -> CDP Input.dispatchKeyEvent parameters."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.errors import UsageError

MODIFIERS = {"alt": ("Alt", 1, 18), "control": ("Control", 2, 17), "ctrl": ("Control", 2, 17),
             "meta": ("Meta", 4, 91), "cmd": ("Meta", 4, 91), "shift": ("Shift", 8, 16)}

NAMED = {  # key -> (keyCode, text); its code is its name
    "Enter": (13, "\r"), "Tab": (9, ""), "Escape": (27, ""), "Backspace": (8, ""), "Delete": (46, ""),
    "Space": (32, " "), "ArrowUp": (38, ""), "ArrowDown": (40, ""), "ArrowLeft": (37, ""), "ArrowRight": (39, ""),
    "Home": (36, ""), "End": (35, ""), "PageUp": (33, ""), "PageDown": (34, ""), "Insert": (45, ""),
}
ALIASES = {"esc": "Escape", "return": "Enter", "del": "Delete", "up": "ArrowUp", "down": "ArrowDown",
           "left": "ArrowLeft", "right": "ArrowRight", "pgup": "PageUp", "pgdn": "PageDown", " ": "Space"}
for _i in range(1, 13):
    NAMED[f"F{_i}"] = (111 + _i, "")
PUNCT = {"-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219), "]": ("BracketRight", 221),
         "\\": ("Backslash", 220), ";": ("Semicolon", 186), "'": ("Quote", 222), ",": ("Comma", 188),
         ".": ("Period", 190), "/": ("Slash", 191), "`": ("Backquote", 192)}


@dataclass
class Key:
    key: str
    code: str
    key_code: int
    text: str
    modifiers: int
    modifier_keys: list[tuple[str, int, int]]

    def events(self) -> list[dict]:
        """keyDown/keyUp parameter dicts, modifiers pressed around the key."""
        out: list[dict] = []
        mods = 0
        for name, bit, code in self.modifier_keys:
            mods |= bit
            out.append({"type": "rawKeyDown", "key": name, "code": name + "Left",
                        "windowsVirtualKeyCode": code, "modifiers": mods})
        text = self.text if not (self.modifiers & (1 | 2 | 4)) else ""
        down = {"type": "keyDown" if text else "rawKeyDown", "key": self.key, "code": self.code,
                "windowsVirtualKeyCode": self.key_code, "modifiers": self.modifiers}
        if text:
            down["text"] = text
            down["unmodifiedText"] = text
        out.append(down)
        out.append({"type": "keyUp", "key": self.key, "code": self.code, "windowsVirtualKeyCode": self.key_code,
                    "modifiers": self.modifiers})
        for name, bit, code in reversed(self.modifier_keys):
            mods &= ~bit
            out.append({"type": "keyUp", "key": name, "code": name + "Left", "windowsVirtualKeyCode": code,
                        "modifiers": mods})
        return out


def parse_key(spec: str) -> Key:
    raw = spec.strip()
    if not raw:
        raise UsageError("Usage: press KEY (e.g. Enter, Tab, Escape, ArrowDown, Control+A).")
    parts = raw.split("+") if raw != "+" else ["+"]
    if len(parts) > 2 and parts[-1] == "" and parts[-2] == "":  # "Control++"
        parts = parts[:-2] + ["+"]
    elif len(parts) > 1 and parts[-1] == "":  # "Shift+": the key is missing
        raise UsageError(f"Missing the key after '+' in '{raw}'. Usage: press KEY (e.g. Enter, Control+A).")
    *mods, main = parts
    modifier_keys = []
    bits = 0
    for m in mods:
        info = MODIFIERS.get(m.strip().lower())
        if info is None:
            raise UsageError(f"Unknown modifier '{m}'. Use Alt, Control, Meta or Shift.")
        modifier_keys.append(info)
        bits |= info[1]
    return _main_key(main, bits, modifier_keys, raw)


def _main_key(main: str, bits: int, modifier_keys, raw: str) -> Key:
    name = ALIASES.get(main.lower(), main)
    for known in NAMED:
        if known.lower() == name.lower():
            kc, text = NAMED[known]
            return Key(known if known != "Space" else " ", known, kc, text, bits, modifier_keys)
    if len(main) == 1:
        ch = main
        if bits & 8 and ch.isascii() and ch.isalpha():
            ch = ch.upper()
        if ch.isascii() and ch.isalpha():
            return Key(ch, "Key" + ch.upper(), ord(ch.upper()), ch, bits, modifier_keys)
        if ch.isascii() and ch.isdigit():
            return Key(ch, "Digit" + ch, ord(ch), ch, bits, modifier_keys)
        if ch in PUNCT:
            code, kc = PUNCT[ch]
            return Key(ch, code, kc, ch, bits, modifier_keys)
        return Key(ch, "", 0, ch, bits, modifier_keys)
    raise UsageError(f"Unknown key '{raw}'. Try Enter, Tab, Escape, Backspace, ArrowDown, Home, F5, a, Control+A.")


def char_events(ch: str) -> list[dict]:
    """Events that type one character into the focused element."""
    if ch == "\n":
        return parse_key("Enter").events()
    if ch == "\t":
        return parse_key("Tab").events()
    if len(ch) == 1 and (ch.isalnum() and ch.isascii() or ch in PUNCT or ch == " "):
        key = _main_key(ch if ch != " " else "Space", 0, [], ch)
        key.text = ch
        if ch.isupper():
            key.key = ch
        return key.events()
    return [{"type": "keyDown", "key": ch, "text": ch, "unmodifiedText": ch},
            {"type": "keyUp", "key": ch}]
