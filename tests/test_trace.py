"""--trace and timings: each command's phases with milliseconds."""

from __future__ import annotations

import json

from test_oneshot import verdex


def test_trace_in_json_lists_capture_render_and_cache_phases(chrome_http, demo):
    proc = verdex("run", "--connect", chrome_http, "--json", "--trace", demo.url("frames.html"),
                  "snapshot", "snapshot", "timings")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    first, second, timings = lines[-3:]
    names = [p["phase"] for p in first["trace"]]
    assert "capture f0" in names and "join texts" in names and names[-1] == "total"  # (the page renders: text.js)
    assert any(n.startswith("capture f") and n != "capture f0" for n in names)  # the child frames, each
    assert "set up frames" in names  # the first capture of the page: every frame at once (snapshot/first.py)
    assert all(isinstance(p["ms"], (int, float)) and p["ms"] >= 0 for p in first["trace"])
    assert second["result"]["cached"] is True
    second_names = [p["phase"] for p in second["trace"]]
    assert "cache check" in second_names and "capture f0" not in second_names
    assert timings["result"]["command"] == "snapshot"
    assert [p["phase"] for p in timings["result"]["phases"]] == second_names


def test_trace_in_text_mode_goes_to_stderr(chrome_http, demo):
    proc = verdex("run", "--connect", chrome_http, "--trace", "--no-color", demo.url("shop.html"), "snapshot")
    assert proc.returncode == 0, proc.stderr
    assert "trace:" in proc.stderr and "capture f0" in proc.stderr
    assert "trace:" not in proc.stdout


def test_timings_without_trace(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    driver.ok("snapshot")
    data = driver.ok("timings").data
    assert data["command"] == "snapshot"
    assert "capture f0" in [p["phase"] for p in data["phases"]]
    assert driver.ok("timings").data["command"] == "snapshot"  # 'timings' does not replace itself


def test_an_action_accounts_for_its_time(driver, demo):
    """A click's phases cover where its time goes: resolving, waiting, the events, the navigation check
    (which waits until the page has settled, or a navigation starts), the changes."""
    driver.ok("open " + demo.url("shop.html"))
    text = driver.ok("snapshot").data["text"]
    ref = next(line.split("[ref=")[1].rstrip("]") for line in text.splitlines() if "Add to cart" in line)
    driver.ok("click " + ref)
    phases = {p["phase"]: p["ms"] for p in driver.ok("timings").data["phases"]}
    for name in ("resolve", "stable locator", "wait actionable", "input events", "navigation check",
                 "changes: capture", "total"):
        assert name in phases, phases
    assert "navigation grace" not in phases  # no fixed wait: the check ends when the page has settled
    assert sum(ms for name, ms in phases.items() if name != "total") >= 0.8 * phases["total"]
