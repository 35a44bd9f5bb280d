"""The one command registry: help strings, parsing rules, and completion."""

from __future__ import annotations

import threading

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from conftest import until
from verdex_cli.commands import REGISTRY
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.registry import Command, Registry, Result
from verdex_cli.base.errors import UsageError
from verdex_cli.ui.repl.completer import VerdexCompleter
from verdex_cli.commands.runner import execute

FOUNDATION = ("open", "back", "forward", "reload", "eval", "screenshot", "help", "quit", "snapshot")


def _noop(ctx, args, flags):
    return Result("value", {"value": None})


def registry_with(name: str, usage: str, **kw) -> Registry:
    """The real registry when it has ``name``; otherwise one with a stand-in of the same shape."""
    if REGISTRY.get(name) is not None:
        return REGISTRY
    reg = Registry()
    reg.add(Command(name, _noop, usage, f"Stand-in for {name}.", **kw))
    return reg


TEXT_COMMANDS = [
    ("type", "type REF TEXT"),
    ("fill", "fill REF TEXT"),
]


def _text_registry(name, usage):
    return registry_with(name, usage, min_args=2, max_args=2, rest="after_first", ref_args=(0,))


def no_browser() -> Workspace:
    def factory():
        raise AssertionError("this command must not start a browser")
    return Workspace(factory)


# -- the registry's contents ---------------------------------------------------------------

def test_foundation_commands_are_registered():
    for name in FOUNDATION:
        assert REGISTRY.get(name) is not None, name
    assert REGISTRY.get("goto") is REGISTRY.get("open")
    assert REGISTRY.get("exit") is REGISTRY.get("quit")


@pytest.mark.parametrize("cmd", REGISTRY.commands(), ids=lambda c: c.name)
def test_help_is_one_sentence_ending_with_a_period(cmd):
    assert cmd.help.endswith("."), f"{cmd.name}: help must end with a period: {cmd.help!r}"
    assert cmd.help[:1].isupper(), f"{cmd.name}: help should start with a capital: {cmd.help!r}"
    assert "\n" not in cmd.help


@pytest.mark.parametrize("cmd", REGISTRY.commands(), ids=lambda c: c.name)
def test_usage_starts_with_the_name(cmd):
    assert cmd.usage == cmd.name or cmd.usage.startswith(cmd.name + " "), cmd.usage
    for flag in cmd.flags:
        assert flag in cmd.usage, f"{cmd.name}: flag {flag} missing from usage {cmd.usage!r}"


def test_names_and_aliases_are_unique():
    keys = [k for c in REGISTRY.commands() for k in (c.name, *c.aliases)]
    assert len(keys) == len(set(keys))
    assert sorted(keys) == REGISTRY.names()
    with pytest.raises(ValueError, match="duplicate"):
        Registry_with_dup = Registry()
        Registry_with_dup.add(Command("a", _noop, "a", "A."))
        Registry_with_dup.add(Command("b", _noop, "b", "B.", aliases=("a",)))


# -- parsing -------------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["x", "frobnicate now", "  x  "])
def test_unknown_command(line):
    word = line.split()[0]
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert info.value.message == f"Unknown command '{word}'. Type 'help'."
    assert info.value.kind == "usage"


@pytest.mark.parametrize("line,hint", [
    ("snap", " Did you mean 'snapshot'?"),          # the start of a name
    ("SNAPS", " Did you mean 'snapshot'?"),
    ("cli", " Did you mean 'click'?"),
    ("clik", " Did you mean 'click'?"),              # a near miss
    ("contex", " Did you mean 'context' or 'contexts'?"),
    ("cont", " Did you mean 'container', 'context' or 'contexts'?"),
    ("s", ""),                                      # one letter: too little to go on
    ("re", ""),                                     # more than three names start so: no guess
])
def test_did_you_mean_knows_prefixes_and_near_misses(line, hint):
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert info.value.message == f"Unknown command '{line}'.{hint} Type 'help'."


@pytest.mark.parametrize("line,usage", [
    ("click button:Delete account", 'Usage: click REF. Quote a target with spaces: click "button:Delete account"'),
    ("hover label=First name", 'Usage: hover REF. Quote a target with spaces: hover "label=First name"'),
    ("press button:Delete my account Enter",
     'Usage: press [REF] KEY. Quote a target with spaces: press "button:Delete my account" Enter'),
    ("siblings article:Coffee mug 2",
     'Usage: siblings TARGET [LEVEL]. Quote a target with spaces: siblings "article:Coffee mug" 2'),
    ("click Delete account", "Usage: click REF"),  # not a target: no quoting advice
])
def test_a_target_with_unquoted_spaces_gets_quoting_advice(line, usage):
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert info.value.message == usage
    fixed = usage.split("Quote a target with spaces: ")[-1]
    if fixed != usage:
        REGISTRY.parse(fixed)  # the advice itself parses


def test_unknown_command_through_the_runner_is_kind_usage():
    out = execute(no_browser(), "x")
    assert not out.ok
    assert (out.kind, out.message) == ("usage", "Unknown command 'x'. Type 'help'.")
    assert out.as_json()["error"] == {"kind": "usage", "message": "Unknown command 'x'. Type 'help'."}


@pytest.mark.parametrize("line,usage", [
    ("open", "Usage: open URL"),
    ("goto", "Usage: open URL"),
    ("open a b", "Usage: open URL"),
    ("back now", "Usage: back"),
    ("reload 1", "Usage: reload"),
    ("eval", "Usage: eval JS"),
    ("screenshot", "Usage: screenshot PATH [--full] [--refs]"),
    ("help a b", "Usage: help [COMMAND]"),
    ("quit now", "Usage: quit"),
    # a line that fits no form: the number that did not fit is named
    ("tab close x", "N must be a whole number, 0 or more (got 'x'). Usage: tab N | tab new [URL] | tab close N"),
    ("siblings c0p0f0e1 up", "LEVEL must be a whole number, 0 or more (got 'up'). Usage: siblings TARGET [LEVEL]"),
    ("diff 1 b", "M must be a whole number, 0 or more (got 'b'). Usage: diff [N [M]]"),
    ("wait text", "Usage: wait text TEXT | wait REF | wait gone REF | wait url TEXT | wait MS"),
    ("dialog dismiss now", "Usage: dialog accept [TEXT] | dialog dismiss"),
])
def test_wrong_argument_count_gives_the_usage_line(line, usage):
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert info.value.message == usage
    assert info.value.kind == "usage"


def test_shell_like_splitting_and_aliases():
    p = REGISTRY.parse('goto "http://example.test/a b"')
    assert p.command.name == "open"
    assert p.args == ["http://example.test/a b"]
    assert REGISTRY.parse("  back  ").args == []


def test_unbalanced_quote_is_a_usage_error():
    with pytest.raises(UsageError, match=r"Usage: open URL"):
        REGISTRY.parse('open "http://x')


@pytest.mark.parametrize("line,expected", [
    ('eval  1 + "a b"', '1 + "a b"'),
    ("eval document.title", "document.title"),
    ("eval a   b\t c", "a   b\t c"),
    ("eval 'unbalanced", "'unbalanced"),
    ("eval --not-a-flag", "--not-a-flag"),
    ('eval JSON.stringify({"a": [1, 2]})', 'JSON.stringify({"a": [1, 2]})'),
])
def test_eval_keeps_the_rest_of_the_line_verbatim(line, expected):
    p = REGISTRY.parse(line)
    assert p.command.name == "eval"
    assert p.args == [expected]
    assert p.flags == set()


@pytest.mark.parametrize("name,usage", TEXT_COMMANDS)
@pytest.mark.parametrize("tail,expected", [
    ("c0p0f0e1 some text", ["c0p0f0e1", "some text"]),
    ('c0p0f0e1 "quoted text"', ["c0p0f0e1", "quoted text"]),
    ("c0p0f0e1 'single quoted'", ["c0p0f0e1", "single quoted"]),
    ("c0p0f0e1 it's fine", ["c0p0f0e1", "it's fine"]),
    ('c0p0f0e1 "a" and "b"', ["c0p0f0e1", '"a" and "b"']),
    ('c0p0f0e1 ""', ["c0p0f0e1", ""]),
    ('"button:Add to cart" two words', ["button:Add to cart", "two words"]),
    ("c0p0f0e1 --not-a-flag", ["c0p0f0e1", "--not-a-flag"]),
])
def test_type_and_fill_take_the_rest_of_the_line_as_text(name, usage, tail, expected):
    reg = _text_registry(name, usage)
    p = reg.parse(f"{name} {tail}")
    assert p.command.name == name
    assert p.args == expected


@pytest.mark.parametrize("name,usage", TEXT_COMMANDS)
def test_type_and_fill_without_a_target_give_the_usage_line(name, usage):
    reg = _text_registry(name, usage)
    with pytest.raises(UsageError) as info:
        reg.parse(name)
    assert info.value.message == f"Usage: {reg.get(name).usage}"


def test_type_without_text_gives_the_usage_line():
    reg = _text_registry("type", "type REF TEXT")
    with pytest.raises(UsageError) as info:
        reg.parse("type c0p0f0e1")
    assert info.value.message == f"Usage: {reg.get('type').usage}"


def test_known_flags_are_separated_from_arguments():
    p = REGISTRY.parse("screenshot --full out.png")
    assert p.args == ["out.png"] and p.flags == {"--full"}
    p = REGISTRY.parse("snapshot --all-refs --fresh")
    assert p.args == [] and p.flags == {"--all-refs", "--fresh"}


@pytest.mark.parametrize("line,usage", [
    ("snapshot --bogus", "snapshot [--all-refs] [--fresh] [--frame fN] [--no-frames] [--max-chars N] [--within TARGET] [--interactive] [--depth N]"),
    ("screenshot out.png --fast", "screenshot PATH [--full] [--refs]"),
    ("back --force", "back"),
])
def test_unknown_flag_is_a_usage_error(line, usage):
    flag = next(w for w in line.split() if w.startswith("--"))
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert info.value.message == f"Unknown option '{flag}'. Usage: {usage}"


def test_empty_line_is_a_usage_error():
    with pytest.raises(UsageError, match="Type 'help'"):
        REGISTRY.parse("   ")


# -- help and quit need no browser ------------------------------------------------------------

def test_help_lists_every_command_without_a_browser():
    out = execute(no_browser(), "help")
    assert out.ok, out.message
    listed = {row["name"] for row in out.result.data["commands"]}
    assert listed == {c.name for c in REGISTRY.commands()}
    row = next(r for r in out.result.data["commands"] if r["name"] == "open")
    assert row["aliases"] == ["goto"] and row["usage"] == "open URL"


def test_help_for_one_command_and_an_alias():
    out = execute(no_browser(), "help goto")
    assert out.ok
    assert out.result.data["name"] == "open"
    assert out.result.data["usage"] == "open URL"
    bad = execute(no_browser(), "help frobnicate")
    assert (bad.kind, bad.message) == ("usage", "Unknown command 'frobnicate'. Type 'help'.")
    near = execute(no_browser(), "help snap")  # the same hint as the command line itself gives
    assert near.message == execute(no_browser(), "snap").message == "Unknown command 'snap'. Did you mean 'snapshot'? Type 'help'."


def test_quit_sets_the_flag_without_a_browser():
    ctx = no_browser()
    assert execute(ctx, "quit").ok
    assert ctx.quit_requested


# -- completion ------------------------------------------------------------------------------

def completions(text: str, completer: VerdexCompleter | None = None):
    completer = completer or VerdexCompleter(REGISTRY)
    return list(completer.get_completions(Document(text, len(text)), CompleteEvent(completion_requested=True)))


def test_declared_sub_verbs_complete_and_a_word_that_is_no_target_is_a_usage_error():
    assert [c.text for c in completions("scroll ")] == ["up", "down"]
    assert [c.text for c in completions("scroll d")] == ["down"]
    assert [c.text for c in completions("tab ")] == ["new", "close"]
    assert [c.text for c in completions("dialog a")] == ["accept"]
    with pytest.raises(UsageError) as info:
        REGISTRY.parse("scroll sideways")
    assert info.value.message == "Usage: scroll REF | scroll up|down"


def test_command_names_complete_with_their_help_as_meta():
    got = {c.text: c.display_meta_text for c in completions("re")}
    assert got["reload"] == REGISTRY.get("reload").help
    assert all(name.startswith("re") for name in got)
    every = {c.text for c in completions("")}
    assert every == set(REGISTRY.names())


def test_aliases_complete_too():
    got = {c.text: c.display_meta_text for c in completions("go")}
    assert got == {"goto": REGISTRY.get("open").help}


def test_completion_replaces_the_typed_prefix():
    (only,) = completions("scre")
    assert only.text == "screenshot" and only.start_position == -4


def test_flags_complete():
    got = [c.text for c in completions("snapshot --a")]
    assert got == ["--all-refs"]
    assert {c.text for c in completions("snapshot --")} == {"--all-refs", "--fresh", "--max-chars", "--frame", "--no-frames",
                                                           "--within", "--interactive", "--depth"}
    assert [c.text for c in completions("screenshot out.png --f")] == ["--full"]


def test_no_completions_inside_eval_or_for_unknown_commands():
    assert completions("eval docu") == []
    assert completions("nosuch ") == []


def test_refs_complete_with_role_and_name_as_meta():
    reg = registry_with("click", "click REF", min_args=1, max_args=1, ref_args=(0,))
    refs = [("c0p0f0e1", 'button "Save"'), ("c0p0f0e2", 'link "Home"'), ("c0p0f1e1", 'button "Pay"')]
    completer = VerdexCompleter(reg, lambda: refs)
    got = {c.text: c.display_meta_text for c in completions("click c0p0f0", completer)}
    assert got == {"c0p0f0e1": 'button "Save"', "c0p0f0e2": 'link "Home"'}
    assert len(completions("click ", completer)) == 3
    assert completions("click c0p0f0e1 ", completer) == []  # only the REF position completes


def test_tab_completes_in_a_prompt_session():
    # Completion runs asynchronously, so each chunk after a Tab is typed once the completion is in.
    with create_pipe_input() as inp:
        def typist():
            inp.send_text("scre\t")
            until(lambda: session.default_buffer.text == "screenshot", 10)
            inp.send_text(" out.png --fu\t")
            until(lambda: session.default_buffer.text.endswith("--full"), 10)
            inp.send_text("\r")

        session = PromptSession(completer=VerdexCompleter(REGISTRY), complete_while_typing=False,
                                input=inp, output=DummyOutput())
        th = threading.Thread(target=typist, daemon=True)
        th.start()
        line = session.prompt("verdex> ")
        th.join()
    assert line == "screenshot out.png --full"


def test_each_command_declares_its_effect_and_the_runner_follows_it():
    """Cache invalidation, change watching and the export log come from each command's declared
    effect: actions act on a ref and are logged; reads leave pages alone; unknown effects are refused."""
    by_effect: dict[str, set[str]] = {}
    for cmd in REGISTRY.commands():
        by_effect.setdefault(cmd.effect, set()).add(cmd.name)
        if cmd.effect in ("action", "navigate"):
            assert cmd.logged, cmd.name
    assert {"click", "fill", "hover", "press", "scroll"} <= by_effect["action"]
    assert {"open", "back", "forward", "reload"} == by_effect["navigate"]
    assert {"snapshot", "refs", "inspect", "diff", "tabs", "wait"} <= by_effect["read"]
    assert {"eval", "tab", "reset-refs"} <= by_effect["change"]
    assert REGISTRY.get("wait").logged and not REGISTRY.get("snapshot").logged
    with pytest.raises(ValueError, match="unknown effect"):
        Command("x", _noop, "x", "x", effect="sometimes")


def test_usage_counts_and_parsing_mode_come_from_the_declared_forms():
    from verdex_cli.commands.signature import Signature

    tab = Signature(("N", "new [URL]", "close N"))
    assert tab.usage("tab") == "tab N | tab new [URL] | tab close N"
    assert (tab.min_args, tab.max_args, tab.rest) == (1, 2, None)
    assert tab.takes("path", 1) and not tab.takes("path", 0)
    wait = Signature(("text TEXT", "REF", "gone REF", "url TEXT", "MS"))
    assert (wait.min_args, wait.max_args, wait.rest, wait.positions("target")) == (1, 2, "after_first", (0, 1))
    assert Signature(("REF PATH...",)).rest == "words" and Signature(("REF PATH...",)).max_args is None
    assert Signature(("REF PATH...",)).takes("path", 5)
    assert Signature(("[N [M]]",)).min_args == 0 and Signature(("[N [M]]",)).max_args == 2
    assert Signature(("JS",)).rest == "line" and Signature(("TEXT",)).rest == "line"
    snap = Signature(("",), ("--fresh", "--frame fN"))
    assert snap.usage("snapshot") == "snapshot [--fresh] [--frame fN]"
    assert snap.flags == ("--fresh", "--frame") and snap.value_flags == ("--frame",)
    # every registered command's usage line is generated from its declaration
    for cmd in REGISTRY.commands():
        assert cmd.signature is not None and cmd.usage == cmd.signature.usage(cmd.name), cmd.name


def test_help_completes_command_names():
    completer = VerdexCompleter(REGISTRY)
    doc = Document("help cl", len("help cl"))
    names = [c.text for c in completer.get_completions(doc, CompleteEvent())]
    assert names == ["click"]


@pytest.mark.parametrize("line, form, values, handler", [
    ("wait 500", "MS", {"ms": 500}, "wait_time"),
    ("wait 1.5", "MS", {"ms": 1.5}, "wait_time"),
    ("wait text Saved it", "text TEXT", {"action": "text", "text": "Saved it"}, "wait_text"),
    ("wait gone c0p0f0e3", "gone REF", {"action": "gone", "ref": "c0p0f0e3"}, "wait_gone"),
    ("wait c0p0f0e2", "REF", {"ref": "c0p0f0e2"}, "wait_visible"),
    ("tab 2", "N", {"n": 2}, "tab_switch"),
    ("tab new form.html", "new [URL]", {"action": "new", "url": "form.html"}, "tab_new"),
    ("context close 1", "close N", {"action": "close", "n": 1}, "context_close"),
    ("press Enter", "[REF] KEY", {"key": "Enter"}, "press_cmd"),
    ("press c0p0f0e1 Enter", "[REF] KEY", {"ref": "c0p0f0e1", "key": "Enter"}, "press_cmd"),
    ("diff #1 3", "[N [M]]", {"n": 1, "m": 3}, "diff_cmd"),
    ("select c0p0f0e1 a 'b c'", "REF VALUE...", {"ref": "c0p0f0e1", "values": ["a", "b c"]}, "select_cmd"),
    ("scroll up", "up|down", {"action": "up"}, "scroll_page"),
    ("scroll down", "up|down", {"action": "down"}, "scroll_page"),
    ("scroll c0p0f0e4", "REF", {"ref": "c0p0f0e4"}, "scroll_to"),
    ("scroll button:Save", "REF", {"ref": "button:Save"}, "scroll_to"),
    ("fill c0p0f0e1", "REF TEXT", {"ref": "c0p0f0e1", "text": ""}, "fill_cmd"),
])
def test_forms_are_typed_and_routed_to_their_handler(line, form, values, handler):
    parsed = REGISTRY.parse(line)
    assert (parsed.args.form, parsed.args.values, parsed.handler.__name__) == (form, values, handler)



@pytest.mark.parametrize("line,meant", [("snapshot --depht 2", "--depth"), ("snapshot --interactiv", "--interactive"),
                                        ("refs --stal", "--stale")])
def test_did_you_mean_for_a_mistyped_option(line, meant):
    with pytest.raises(UsageError) as info:
        REGISTRY.parse(line)
    assert f"Did you mean '{meant}'?" in info.value.message, info.value.message


def test_option_numbers_and_help_groups_come_from_the_declarations():
    assert REGISTRY.parse("snapshot --depth 3 --max-chars #0").flags.values == {"--depth": 3, "--max-chars": 0}
    assert REGISTRY.parse("console --level error").flags.values == {"--level": "error"}  # LEVEL here: a name
    with pytest.raises(UsageError, match=r"^--depth must be a whole number, 0 or more \(got 'x'\)\. Usage: snapshot "):
        REGISTRY.parse("snapshot --depth x")
    assert REGISTRY.parse("snapshot --frame f2").flags.values == {"--frame": 2}  # fN: a frame index, typed
    with pytest.raises(UsageError, match=r"^--level must be one of error, warning, info, debug \(got 'loud'\)\. "
                                         r"Usage: console \[--level error\|warning\|info\|debug\] \[--clear\]$"):
        REGISTRY.parse("console --level loud")  # a declared choice of words, checked by the registry
    from verdex_cli.commands.tools import input_schema
    assert input_schema(REGISTRY.get("console"))["properties"]["level"]["enum"] == ["error", "warning", "info", "debug"]
    for bad in ("2", "fx", "f"):
        with pytest.raises(UsageError) as info:
            REGISTRY.parse(f"snapshot --frame {bad}")
        assert info.value.message.startswith(f"--frame must be a frame index like f1 ('frames' lists them) "
                                             f"(got '{bad}'). Usage: snapshot ") and "\n" not in info.value.message
    from verdex_cli.commands.meta import GROUPS
    assert {c.name for c in REGISTRY.commands() if c.group not in GROUPS} == set()
    assert REGISTRY.get("wait").group == "navigation" and REGISTRY.get("frames").group == "snapshot"
