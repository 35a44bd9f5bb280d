"""Sessions and one-shot runs at their edges (issue 33): $VERDEX_SESSION, secrets off the command
line, bounded waits, the light client paths. Real session servers and real Chromium, as in
test_sessions.py (whose Env gives each test a private runtime directory and TMPDIR)."""

from __future__ import annotations

import json
import subprocess
import sys

from test_sessions import INDEX, ROOT, env  # noqa: F401 (env is a fixture)


def with_env(env, **extra):
    return dict(env.env, **extra)


def run(env, *args, extra=None, input=None, timeout=60):
    return subprocess.run(env.argv(*args), env=with_env(env, **(extra or {})), cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout, input=input,
                          stdin=None if input is not None else subprocess.DEVNULL)


# -- finding 1: $VERDEX_SESSION applies only to `run` without a URL ----------------------------------

def test_verdex_session_does_not_capture_a_one_shot_run_with_a_url(env):
    stale = {"VERDEX_SESSION": "gone"}  # a stale export: no such session runs
    proc = run(env, "run", "--json", INDEX, "eval 6 * 7", extra=stale)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [json.loads(x)["result"]["value"] for x in proc.stdout.splitlines()[-1:]] == [42]
    opted_out = run(env, "run", "--session", "", INDEX, "eval 1 + 1", extra=stale)
    assert opted_out.returncode == 0 and opted_out.stdout.strip().endswith("2"), opted_out.stderr


def test_verdex_session_messages_name_the_variable(env):
    proc = run(env, "run", "eval 1", extra={"VERDEX_SESSION": "gone"})
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert "No session 'gone'" in line and "VERDEX_SESSION" in line
    bad = run(env, "run", "--json", "eval 1", extra={"VERDEX_SESSION": "not a name"})
    assert bad.returncode == 2
    assert "VERDEX_SESSION" in json.loads(bad.stdout)["error"]["message"]
    given = run(env, "run", "--session", "gone", "eval 1", extra={"VERDEX_SESSION": "other"})
    assert given.returncode == 2 and "VERDEX_SESSION" not in given.stderr  # it chose nothing here
    attach = run(env, "attach", extra={"VERDEX_SESSION": "gone"}, input="")
    assert attach.returncode == 2 and "VERDEX_SESSION" in attach.stderr


def test_run_without_url_or_session_is_one_line_usage_error(env):
    proc = run(env, "run", "--keep-going")
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "URL" in proc.stderr and "--session" in proc.stderr


def test_verdex_session_used_by_run_without_url(env):
    env.start("fromenv", INDEX)
    proc = run(env, "run", "eval 6 * 7", extra={"VERDEX_SESSION": "fromenv"})
    assert proc.returncode == 0 and proc.stdout.strip() == "42", proc.stderr


# -- finding 2: secrets off the command line -----------------------------------------------------------

LOGIN = """<!doctype html><title>Login</title>
<label>User <input id="user"></label> <label>Token <input id="token"></label>
<label>Password <input id="pw" type="password"></label>
<p id="echo"></p>
<script>
  // the page echoes what is typed, as many apps do (rendered with innerHTML on every input)
  function render() {
    document.getElementById("echo").innerHTML = "<b>Token:</b> " + document.getElementById("token").value;
  }
  document.getElementById("token").addEventListener("input", render);
</script>"""
SECRET = "TopSecret-42"


def login_page(env) -> str:
    path = env.base / "login.html"
    path.write_text(LOGIN)
    return str(path)


def test_fill_and_type_take_the_text_from_the_environment_masked_everywhere(env):
    page = login_page(env)
    env.start("sec", page)
    secret_env = {"TOK": SECRET, "PW": "pw-" + SECRET}
    proc = run(env, "run", "--session", "sec", "--json", "fill textbox:Token --env TOK",
               "type textbox:Password --env PW",
               "eval [document.getElementById('token').value, document.getElementById('pw').value]"
               ".map(v => [...v].reverse().join('')).join(' ')",  # the page's values, reversed
               "export " + str(env.base / "steps.txt"), extra=secret_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    fill, typed, check, _export = [json.loads(x) for x in proc.stdout.splitlines()]
    assert fill["result"]["value"] == "••••••" and fill["result"]["masked"] is True
    assert typed["result"]["value"] == "••••••"
    assert check["result"]["value"] == f"{SECRET[::-1]} {('pw-' + SECRET)[::-1]}"  # the page got the real values
    script = (env.base / "steps.txt").read_text()
    assert "--env TOK" in script and SECRET not in script
    unset = run(env, "run", "--session", "sec", "fill textbox:User --env NOT_SET_ANYWHERE")
    assert unset.returncode == 1 and "NOT_SET_ANYWHERE is not set" in unset.stderr  # it ran and typed nothing


def test_fill_env_in_a_one_shot_run(env):
    page = login_page(env)
    proc = run(env, "run", page, "fill textbox:Token --env TOK",
               "eval document.getElementById('echo').textContent.length",
               extra={"TOK": SECRET})
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith(str(len("Token: " + SECRET)))


# -- finding 3: a long TMPDIR ----------------------------------------------------------------------------

def long_tmpdir(env) -> str:
    path = env.base / ("t" * (100 - len(str(env.base)) - 1))
    path.mkdir()
    assert len(str(path)) == 100
    return str(path)


def leftovers(directory: str) -> list[str]:
    import os

    return sorted(os.listdir(directory))


def test_a_long_tmpdir_breaks_neither_launches_nor_sessions(env):
    tmp = long_tmpdir(env)
    one_shot = run(env, "run", INDEX, "eval 6 * 7", extra={"TMPDIR": tmp})
    assert one_shot.returncode == 0 and one_shot.stdout.strip() == "42", one_shot.stderr
    no_runtime = with_env(env, TMPDIR=tmp)
    no_runtime.pop("XDG_RUNTIME_DIR")  # the session socket would go under TMPDIR too
    def verdex(*args):
        return subprocess.run(env.argv(*args), env=no_runtime, cwd=ROOT, text=True, capture_output=True, timeout=90,
                              stdin=subprocess.DEVNULL)
    start = verdex("session", "start", "longtmp", INDEX)
    try:
        assert start.returncode == 0, start.stderr
        in_session = verdex("run", "--session", "longtmp", "eval 6 * 7")
        assert in_session.returncode == 0 and in_session.stdout.strip() == "42", in_session.stderr
    finally:
        stop = verdex("session", "stop", "longtmp")
    assert stop.returncode == 0, stop.stderr
    assert leftovers(tmp) == []  # no profile, no org.chromium.Chromium.* folder


# -- finding 5: every wait of a client is bounded and told ---------------------------------------------

def test_a_client_queued_behind_a_long_command_is_told_and_bounded(env):
    import signal
    import time

    from test_sessions import poll

    env.start("queue", INDEX, "--timeout", "60")
    spinner = env.popen("run", "--session", "queue", "--json", "eval while (true) {}")
    poll(lambda: env.sessions()[0].get("busy"), what="the loop to run")
    [row] = env.sessions()
    assert row["running"].startswith(f"run {spinner.pid}'s 'eval while")
    bounded = run(env, "run", "--session", "queue", "--json", "--wait", "1.5", "eval 1")
    assert bounded.returncode == 1, bounded.stdout + bounded.stderr
    err = json.loads(bounded.stdout)["error"]
    assert err["kind"] == "timeout" and "Gave up after 1.5 s" in err["message"]
    assert f"queued behind run {spinner.pid}'s 'eval while (true) {{}}'" in err["message"]
    also = run(env, "run", "--session", "queue", "--timeout", "1", "eval 1")  # --timeout bounds one call too
    assert also.returncode == 1 and "Gave up after 1 s" in also.stderr and len(also.stderr.splitlines()) == 1
    live = subprocess.Popen(env.argv("run", "--session", "queue", "--json", "--script", "-"), env=env.env, cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    live.stdin.write("eval 40 + 2\n")
    live.stdin.flush()
    poll(lambda: env.sessions()[0].get("queued", 0) >= 1, what="the live client to queue")
    time.sleep(0.3)  # (a wait the result must account for, not a synchronisation)
    spinner.send_signal(signal.SIGINT)
    spinner.communicate(timeout=30)
    out, _ = live.communicate(timeout=30)
    [res] = [json.loads(x) for x in out.splitlines()]
    assert res["result"]["value"] == 42 and res["queued_ms"] >= 300


def test_a_stopped_server_bounds_every_client_and_stop_force_ends_it(env):
    import os
    import signal

    from test_sessions import poll

    env.start("frozen", INDEX)
    [row] = env.sessions()
    os.kill(row["pid"], signal.SIGSTOP)
    try:
        client = run(env, "run", "--session", "frozen", "--wait", "2", "eval 1", timeout=30)
        assert client.returncode == 1 and "did not answer" in client.stderr and "--force" in client.stderr
        stop = run(env, "session", "stop", "frozen", timeout=30)
        assert stop.returncode == 1 and "does not answer" in stop.stderr and "--force" in stop.stderr
        listed = run(env, "session", "list", timeout=30)
        assert "frozen" in listed.stdout and "not answering" in listed.stdout
        forced = run(env, "session", "stop", "--force", "frozen", timeout=30)
        assert forced.returncode == 0 and "Stopped frozen." in forced.stdout, forced.stderr
    finally:
        try:
            os.kill(row["pid"], signal.SIGCONT)
        except ProcessLookupError:
            pass
    poll(lambda: not env.chrome_pids(), what="the browser to go with the killed server")
    assert env.sessions() == []


# -- finding 6: the idle timeout spares a connected client, and says why it ended a session ------------

def test_idle_timeout_waits_for_an_attached_or_live_client(env):
    import time

    from test_sessions import poll

    env.start("idle2", INDEX, "--idle-timeout", "0.1")  # 6 s
    live = subprocess.Popen(env.argv("run", "--session", "idle2", "--json", "--script", "-"), env=env.env, cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    live.stdin.write("eval 1\n")
    live.stdin.flush()
    assert json.loads(live.stdout.readline())["result"]["value"] == 1
    quiet_until = time.monotonic() + 14  # more than twice the idle timeout without a word
    while time.monotonic() < quiet_until:
        assert [r["name"] for r in env.sessions()] == ["idle2"]
        time.sleep(1)
    live.stdin.write("eval 2\n")
    live.stdin.flush()
    assert json.loads(live.stdout.readline())["result"]["value"] == 2  # still there for the live client
    live.stdin.close()
    live.wait(timeout=30)
    poll(lambda: env.sessions() == [], timeout=60, what="the session to end once its client left")
    gone = run(env, "run", "--session", "idle2", "eval 1")
    assert gone.returncode == 2 and "without a client (--idle-timeout)" in gone.stderr


def test_snapshot_json_carries_the_refs_of_the_text_it_returns(env):
    page = env.base / "rows.html"
    page.write_text("<!doctype html><title>Rows</title><main id=app></main><script>"
                    "document.getElementById('app').innerHTML = '<h1>Orders</h1><ul>' + Array.from({length: 300}, "
                    "(_, i) => `<li data-id=${i}>Order ${i} <button>Open</button></li>`).join('') + '</ul>';</script>")
    env.start("cut", str(page))
    proc = run(env, "run", "--session", "cut", "--json", "snapshot --depth 2", "snapshot --max-chars 2000",
               "snapshot --all-refs --max-chars 2000", "snapshot")
    assert proc.returncode == 0, proc.stderr
    depth, cut, every, whole = [json.loads(x)["result"] for x in proc.stdout.splitlines()]
    import re

    for snap in (depth, cut, whole):
        assert set(snap["refs"]) == set(re.findall(r"\[ref=([a-z0-9]+)\]", snap["text"]))
    assert len(whole["refs"]) >= 300 and len(cut["refs"]) < len(whole["refs"]) / 3
    assert len(every["refs"]) >= len(whole["refs"]) and len(every["text"]) <= 2000


# -- finding 11: the small ones ----------------------------------------------------------------------------

def test_session_start_refuses_a_word_that_is_no_name_and_help_lists_the_subcommands(env):
    for word in ("../x", "x.y", "localhost:8765/p.html", ""):
        proc = run(env, "session", "start", word, timeout=60)
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, (word, proc.stderr)
        assert "is not a session name" in proc.stderr and "give both" in proc.stderr
    assert env.sessions() == []
    top = run(env, "--help", timeout=60)
    assert top.returncode == 0
    flat = " ".join(top.stdout.split())
    for words in ("verdex run URL", "verdex run --session", "verdex session start", "verdex attach"):
        assert words in flat, top.stdout


def test_a_client_whose_folder_is_gone_writes_nothing_elsewhere_and_a_stop_says_why(env):
    from test_sessions import poll

    env.start("cwd", INDEX, "--timeout", "60")
    gone = env.base / "gone"
    gone.mkdir()
    live = subprocess.Popen(env.argv("run", "--session", "cwd", "--json", "--script", "-"), env=env.env, text=True,
                            cwd=str(gone), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    live.stdin.write("eval 1\n")
    live.stdin.flush()
    assert json.loads(live.stdout.readline())["ok"]
    other = run(env, "run", "--session", "cwd", "eval 2")  # another client, in its own folder (ROOT)
    assert other.returncode == 0
    gone.rmdir()  # the live client's folder goes away while it runs
    live.stdin.write("screenshot shot.png\n")
    live.stdin.flush()
    err = json.loads(live.stdout.readline())["error"]
    live.stdin.close()
    live.wait(timeout=60)
    assert err["kind"] == "usage" and "working folder" in err["message"] and "is gone" in err["message"]
    assert not (ROOT / "shot.png").exists() and not list(env.base.glob("**/shot.png"))
    spinner = env.popen("run", "--session", "cwd", "--json", "eval while (true) {}")
    poll(lambda: env.sessions()[0].get("busy"), what="the loop to run")
    assert run(env, "session", "stop", "cwd").returncode == 0
    out, _ = spinner.communicate(timeout=60)
    err = json.loads(out)["error"]
    assert err["kind"] == "cancelled" and "is stopping" in err["message"]
    assert spinner.returncode == 1


def test_attach_feed_sums_up_another_clients_long_output_and_says_when_it_waits(env):
    from test_sessions import attached, poll

    page = env.base / "list.html"
    page.write_text("<!doctype html><title>List</title><ul id=l></ul><script>document.getElementById('l').innerHTML"
                    " = Array.from({length: 60}, (_, i) => `<li>Item ${i} <button>Pick</button></li>`).join('')"
                    "</script>")
    env.start("feed", str(page), "--timeout", "60")
    with attached(env, "feed") as (proc, screen):
        other = env.popen("run", "--session", "feed", "snapshot")
        out, _ = other.communicate(timeout=60)
        assert other.returncode == 0 and out.count("button \"Pick\"") == 60
        screen.wait_for(f"[run {other.pid}] snapshot")
        screen.wait_for("(snapshot: ")
        assert "Item 59" not in screen.text()  # one summary line, not the 60 items
        spinner = env.popen("run", "--session", "feed", "eval while (true) {}")
        poll(lambda: env.sessions()[0].get("busy"), what="the loop to run")
        screen.type("eval 'after-' + 1\r")
        screen.wait_for(f"queued behind run {spinner.pid}'s 'eval while (true) {{}}'")
        spinner.send_signal(2)
        spinner.communicate(timeout=60)
        screen.wait_for("after-1")
        screen.type("\x04")
        proc.wait(timeout=30)


def test_ctrl_c_exits_130_in_a_one_shot_run(env):
    import signal

    live = subprocess.Popen(env.argv("run", "--timeout", "60", INDEX, "--script", "-"), env=env.env, cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    live.stdin.write("eval 40 + 2\n")
    live.stdin.flush()
    assert live.stdout.readline().strip() == "42"  # the browser is up
    live.stdin.write("eval while (true) {}\n")
    live.stdin.flush()
    live.send_signal(signal.SIGINT)
    live.communicate(timeout=60)
    assert live.returncode == 130


# each client its own current tab: another client's `tab new` does not move it ----------------------------

ORDERS = """<!doctype html><title>Orders</title><ul id=list></ul><p id=log></p><script>
  // rendered as frameworks do: rows rebuilt with innerHTML, clicks recorded by the record's own id
  const orders = [{id: 31, name: "Pears"}, {id: 32, name: "Kiwis"}, {id: 33, name: "Figs"}];
  const done = [];
  function render() {
    document.getElementById("list").innerHTML = orders.map(o =>
      `<li data-id="${o.id}">${o.name} <button data-id="${o.id}">Ship</button></li>`).join("");
    document.getElementById("log").textContent = "shipped: " + done.join(",");
  }
  document.getElementById("list").addEventListener("click", e => {
    const id = e.target.closest("button")?.dataset.id;
    if (id) { done.push(id); render(); }
  });
  render();
</script>"""


def test_each_client_keeps_its_own_current_tab(env):
    import re

    orders, other = env.base / "orders.html", env.base / "other.html"
    orders.write_text(ORDERS)
    other.write_text("<!doctype html><title>Other</title><button>Elsewhere</button>")
    env.start("tabs", str(orders), "--timeout", "30")
    live = subprocess.Popen(env.argv("run", "--session", "tabs", "--json", "--script", "-"), env=env.env, cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def ask(line: str) -> dict:
        live.stdin.write(line + "\n")
        live.stdin.flush()
        return json.loads(live.stdout.readline())

    try:
        text = ask("snapshot")["result"]["text"]
        refs = re.findall(r'button "Ship" \[ref=(\w+)\]', text)
        assert len(refs) == 3
        moved = run(env, "run", "--session", "tabs", "--json", "tab new " + str(other), "eval document.title")
        assert moved.returncode == 0, moved.stdout + moved.stderr
        assert json.loads(moved.stdout.splitlines()[-1])["result"]["value"] == "Other"
        shipped = ask("click " + refs[0])  # the live client's refs still act on the tab it chose
        assert shipped["ok"], shipped
        again = re.findall(r'button "Ship" \[ref=(\w+)\]', ask("snapshot")["result"]["text"])  # rows re-rendered
        assert ask("click " + again[1])["ok"]
        assert ask("eval document.getElementById('log').textContent")["result"]["value"] == "shipped: 31,32"
        assert [t["current"] for t in ask("tabs")["result"]["tabs"]] == [True, False]
        # a new invocation starts where the last tab change left: on the tab just opened
        after = run(env, "run", "--session", "tabs", "--json", "eval document.title", "tab 0", "eval document.title")
        assert [json.loads(x)["result"].get("value") for x in after.stdout.splitlines()] == ["Other", None, "Orders"]
        assert ask("tab 1")["ok"]  # now the live client is on the other tab, which another client closes
        closed = run(env, "run", "--session", "tabs", "tab close 1")
        assert closed.returncode == 0, closed.stderr
        res = ask("eval document.title")
        assert res["result"]["value"] == "Orders"
        assert res["result"]["notes"] == ["This client's tab 1 was closed; tab 0 is now its current tab."]
    finally:
        live.stdin.close()
        live.wait(timeout=60)


def test_a_command_that_ran_and_failed_exits_1_a_bad_command_line_2(env):
    env.start("codes", INDEX)
    for line in ("tab 5", "diff 99", "context 3"):  # they parse; the session has no such thing
        proc = run(env, "run", "--session", "codes", "--json", line)
        err = json.loads(proc.stdout)["error"]
        assert proc.returncode == 1 and err["kind"] == "usage", (line, proc.stdout)
    one_shot = run(env, "run", INDEX, "tab 5")
    assert one_shot.returncode == 1 and one_shot.stderr.strip() == "There is no tab 5. 'tabs' lists them."
    for args in (("run", "--session", "codes", "tab five"), ("run", INDEX, "frobnicate"),
                 ("run", "--downloads", "/dev/null", INDEX, "eval 1")):
        assert run(env, *args).returncode == 2, args  # the command line itself is wrong: nothing ran


def test_session_list_shows_a_gone_browser_who_is_busy_and_aligns_long_names(env):
    from test_sessions import poll
    from verdex_cli.browser import launch

    theirs = launch.launch(headless=True, debug_port=True)  # a browser verdex connects to, then it dies
    long_name = "n" * 40
    try:
        env.start(long_name, "--connect", theirs.http_endpoint)
        env.start("s", INDEX, "--timeout", "60")
        spinner = env.popen("run", "--session", "s", "eval while (true) {}")
        poll(lambda: next(r for r in env.sessions() if r["name"] == "s")["busy"], what="the loop to run")
        waiting = env.popen("run", "--session", "s", "eval 1")
        poll(lambda: next(r for r in env.sessions() if r["name"] == "s")["queued"] == 1, what="a queued client")
    finally:
        theirs.stop()
    poll(lambda: next(r for r in env.sessions() if r["name"] == long_name)["browser"].endswith("(gone)"),
         what="the connected browser to be listed as gone")
    listed = run(env, "session", "list").stdout.splitlines()
    head, rows = listed[0], {line.split()[0]: line for line in listed[1:]}
    assert head.split() == ["NAME", "PID", "TABS", "CLIENTS", "BUSY", "QUEUED", "IDLE", "BROWSER"]
    assert rows[long_name].endswith(f"{theirs.http_endpoint} (gone)")
    assert f"run {spinner.pid}'s 'eval while (true) {{}}'" in rows["s"]
    for column in ("PID", "TABS", "QUEUED", "IDLE"):  # right-aligned under their heads, long name or not
        end = head.index(column) + len(column)
        assert all(line[end - 1] != " " and line[end:end + 1] in (" ", "") for line in rows.values()), listed
    spinner.send_signal(2)
    spinner.communicate(timeout=60)
    assert waiting.communicate(timeout=60)[0].strip() == "1"


def test_session_commands_take_options_before_session_and_say_what_they_did_in_one_shape(env):
    stop = run(env, "--json", "session", "stop", "nope")  # options before `session`, as before `run`
    assert stop.returncode == 2 and stop.stderr == ""
    said = json.loads(stop.stdout)
    assert said["command"] == "session stop nope" and said["error"] == {"kind": "no_session",
                                                                        "message": stop_message("nope")}
    start = run(env, "--json", "session", "start", "far", "--connect", "http://127.0.0.1:9")
    failed = json.loads(start.stdout.splitlines()[-1])
    assert start.returncode == 1 and failed["command"] == "session start far"
    assert failed["error"]["kind"] == "connect_failed" and failed["elapsed_ms"] > 0
    client = run(env, "--json", "run", "--session", "nope", "eval 1")
    assert json.loads(client.stdout)["command"] == "run --session nope"


def stop_message(name: str) -> str:
    return f"No session '{name}'. Start one with 'verdex session start {name}'."


def test_an_attached_repl_gets_the_toolbar_and_the_live_refs(driver, demo):
    """The session server works out an attached REPL's status with the REPL's own functions: the
    toolbar's ref state, title and URL, and the refs and names completion offers (they were all
    empty: the server borrowed the REPL's methods, one of which needed its terminal)."""
    from verdex_cli.ui.repl.app import status_of

    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    status = status_of(driver.ctx)
    assert f"refs, snapshot #{snap['snapshot']}" in status["toolbar"]
    assert "c0 tab 0" in status["toolbar"] and "shop.html" in status["toolbar"]
    assert sorted(r[0] for r in status["refs"]) == sorted(snap["refs"])
    assert {e[0] for e in status["elements"]} == set(snap["refs"])
