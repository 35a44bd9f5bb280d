"""The commands as tools for an agent (MCP): each input schema comes from the command's declared forms
and options (parameters named as in signature.py; an option is its flag without dashes, `-` as `_`),
and a tool call's arguments become the command line it stands for."""

from __future__ import annotations

import shlex

from ..base.errors import UsageError
from .registry import REGISTRY, Command
from .signature import KINDS, Param, parse_form

# what each parameter is, by name (the tool's description carries the command's usage line)
ABOUT = {
    "ref": "Ref (c0p0f0e3) or target (button:Save, text=..., label=..., testid=..., id=...).",
    "text": "The text, as given.",
    "url": "A URL, or a path relative to the current page.",
    "key": "A key or chord: Enter, Tab, Escape, ArrowDown, Control+A.",
    "js": "JavaScript to evaluate in the page; its value is returned.",
    "path": "A file path (relative to the server's working directory).",
    "paths": "File paths (relative to the server's working directory).",
    "values": "Option values or visible labels to choose.",
    "n": "A number (an index, as listed).",
    "m": "A second number.",
    "ms": "Milliseconds.",
    "level": "Steps up from the element (0 = the element itself).",
    "command": "A command name.",
}


def _schema(word: str | None, about: str, many: bool = False) -> dict:
    """A parameter's or an option value's schema, by the word declaring it (N, fN, a|b, TEXT, ...; None:
    an option without a value); ``many``: a repeating parameter."""
    if many:
        return {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": about}
    if word is None:
        return {"type": "boolean", "description": about}
    if "|" in word:
        return {"type": "string", "enum": word.split("|"), "description": about}
    if KINDS.get(word) == "frame":
        return {"type": "string", "pattern": "^f[0-9]+$", "description": about}
    return {"type": "integer" if KINDS.get(word) == "int" else "string", "description": about}


def _option_name(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


def input_schema(cmd: Command) -> dict:
    sig = cmd.signature
    forms = [parse_form(f) for f in sig.forms]
    props: dict[str, dict] = {}
    verbs = list(dict.fromkeys(v for ps in forms for p in ps if p.upper is None for v in p.literals))
    if verbs:  # every word of a choice (`scroll up|down`): each one an answer
        props["action"] = {"type": "string", "enum": verbs,
                           "description": "The form: " + " | ".join(sig.forms) + "."}
    for ps in forms:
        for p in ps:
            if p.upper is not None and p.name not in props:
                alternatives = f" Or one of: {', '.join(p.literals)}." if p.literals else ""
                props[p.name] = _schema(p.upper, ABOUT.get(p.name, f"{p.upper}.") + alternatives, p.variadic)
    for flag, (metavar, text) in sig.option_help().items():
        props[_option_name(flag)] = _schema(metavar, text or f"The {flag} option.")
    required = [name for name in props if _required(cmd, forms, name)]
    schema = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema


def _required(cmd: Command, forms: list[list[Param]], name: str) -> bool:
    """Needed by every form (and not a parameter the command lets be left empty)."""
    for ps in forms:
        found = [p for p in ps if p.name == name or name == "action" and p.upper is None]
        if not found or not _needed(cmd, found[0]):
            return False
    return True


def _needed(cmd: Command, p: Param) -> bool:
    """Not optional, and not a parameter the command lets be left empty (`fill REF` clears)."""
    return not p.optional and (cmd.min_args >= cmd.signature.min_args or p.position < cmd.min_args)


def tool_list() -> list[dict]:
    """name, description, inputSchema and annotations of every tool (plain JSON)."""
    out = []
    for cmd in (c for c in REGISTRY.commands() if c.tool):
        forms = " | ".join(f"{cmd.name} {form}".strip() for form in cmd.signature.forms)  # options: in the schema
        tool = {"name": cmd.name, "description": f"{cmd.help} Usage: {forms}", "inputSchema": input_schema(cmd)}
        if cmd.effect == "read":
            tool["annotations"] = {"readOnlyHint": True}
        out.append(tool)
    return out


def line_for(name: str, arguments: dict | None) -> str:
    """The command line a tool call stands for; UsageError (with the usage line) for arguments that
    do not fit the command's schema."""
    cmd = REGISTRY.get(name)
    if cmd is None or not cmd.tool or cmd.name != name:
        raise UsageError(f"Unknown tool '{name}'.")
    args = dict(arguments or {})
    schema = input_schema(cmd)
    wrong = _misfits(schema, args)
    if wrong:
        raise UsageError(f"{wrong} Usage: {cmd.usage}")
    form = _form_for(cmd, args)
    if form is None:
        raise UsageError(f"Missing or conflicting parameters ({', '.join(sorted(args)) or 'none given'}). "
                         f"Usage: {cmd.usage}")
    words = [cmd.name] + _form_words(cmd, form, args)
    for flag, (metavar, _text) in cmd.signature.option_help().items():
        value = args.get(_option_name(flag))
        if value is True or metavar and value is not None and value is not False:
            words.append(flag)
            if metavar:
                words.append(shlex.quote(str(value)))
    return " ".join(words)


def _misfits(schema: dict, args: dict) -> str:
    props = schema["properties"]
    for key, value in args.items():
        spec = props.get(key)
        if spec is None:
            return f"Unknown parameter '{key}' (this tool takes: {', '.join(props) or 'none'})."
        if not _fits(spec, value):
            return f"Parameter '{key}' must be {_what(spec)}."
    missing = [k for k in schema.get("required", ()) if k not in args]
    return f"Missing parameter '{missing[0]}'." if missing else ""


def _fits(spec: dict, value) -> bool:
    kind = spec["type"]
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
    return isinstance(value, str) and ("enum" not in spec or value in spec["enum"])


def _what(spec: dict) -> str:
    if "enum" in spec:
        return "one of " + ", ".join(spec["enum"])
    return {"integer": "a whole number, 0 or more", "boolean": "true or false",
            "array": "a list of strings"}.get(spec["type"], "a string")


def _form_for(cmd: Command, args: dict) -> str | None:
    """The first declared form with the given sub-verb (or none) whose needed parameters are given and
    that has a place for every given one."""
    options = {_option_name(f) for f in cmd.signature.flags}
    given = {k for k in args if k not in options and k != "action"}
    for form in cmd.signature.forms:
        ps = parse_form(form)
        verbs = [p.literals for p in ps if p.upper is None]
        if [args.get("action") in v for v in verbs] != ([True] if "action" in args else []):
            continue
        names = {p.name for p in ps if p.upper is not None}
        needed = {p.name for p in ps if p.upper is not None and _needed(cmd, p)}
        if needed <= given <= names:
            return form
    return None


def _form_words(cmd: Command, form: str, args: dict) -> list[str]:
    """The words of ``form`` filled from ``args``: the rest-of-line text as the parser takes it back
    (verbatim for `eval`/`find`; one quoted word after a first word for `fill`/`type`/`wait`)."""
    words = []
    for p in parse_form(form):
        if p.upper is None:
            words.append(args["action"])
        elif p.name in args:
            value = args[p.name]
            if cmd.rest == "line":
                words.append(str(value).strip())
            else:
                words += [shlex.quote(str(v)) for v in (value if p.variadic else [value])]
    return words
