"""export: a session written as a verdex script (replayed with `verdex run --script`) and as a Playwright test."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ref_in, refs_named
from verdex_cli.app.demo_server import serve
from verdex_cli.browser import launch
from short_tmp import third_party_env

ROOT = Path(__file__).resolve().parent.parent
CHECKOUT = Path(__file__).resolve().parent / "fixtures" / "export"


def verdex(*args: str, timeout: float = 120):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def replay(chrome_http, url: str, script: Path, *extra: str) -> list[dict]:
    path = script.with_suffix(".replay")
    path.write_text(script.read_text() + "".join(line + "\n" for line in extra))
    proc = verdex("run", "--connect", chrome_http, url, "--script", str(path), "--json")
    lines = [json.loads(ln) for ln in proc.stdout.splitlines()]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert all(ln["ok"] for ln in lines)
    return lines


def shop_session(driver, demo) -> str:
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    adds = refs_named(snap, "Add to cart")
    driver.ok(f"click {adds[1]}")  # by ref: the Notebook's button
    driver.ok('click "article:Desk lamp >> button:Add to cart"')  # by target
    driver.ok("click button:Save")
    driver.fail("click button:Nonexistent", "no_match")  # failures are not exported
    snap = driver.ok("snapshot").data
    checkout = next(r for r, i in snap["refs"].items() if i["name"] == "Checkout")
    driver.ok(f"click {checkout}")
    driver.ok("press Escape")
    driver.ok("click button:Checkout")
    driver.ok(f"click {next(r for r, i in driver.ok('snapshot').data['refs'].items() if i['name'] == 'Confirm order')}")
    return driver.js('document.getElementById("order-status").textContent')


def form_session(driver, demo) -> str:
    driver.ok("open " + demo.url("form.html"))
    snap = driver.ok("snapshot").data
    ref = {(i["role"], i["name"]): r for r, i in snap["refs"].items()}
    driver.ok(f"fill {ref[('textbox', 'Name')]} Ada Lovelace")
    driver.ok("fill label=Email ada@example.com")
    driver.ok(f"fill {ref[('textbox', 'Password')]} hunter2")
    driver.ok(f"select {ref[('combobox', 'Country')]} France")
    driver.ok(f"check {ref[('checkbox', 'Subscribe')]}")
    driver.ok(f"uncheck {ref[('checkbox', 'Cheese')]}")
    driver.ok("check radio:Express")
    driver.ok(f"type {ref[('textbox', 'Comments')]} hello there")
    driver.ok(f"click {ref[('button', 'Submit')]}")
    return driver.js('document.getElementById("result").textContent')


def without_password(text: str) -> str:
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("Password:"))


def test_shop_session_replays_from_the_exported_script(driver, demo, chrome_http, tmp_path):
    status = shop_session(driver, demo)
    assert status.startswith("Order confirmed: $43.49")
    path = tmp_path / "shop.verdex"
    out = driver.ok(f"export {path}").data
    assert out["format"] == "script" and out["without_target"] == 0
    text = path.read_text()
    assert "c0p0" not in text  # stable targets, no refs
    assert 'click "article:Notebook >> button:Add to cart"' in text and "click button:Save" in text
    assert "Nonexistent" not in text and "snapshot" not in text and "press Escape" in text
    lines = replay(chrome_http, demo.url("shop.html"), path, 'eval document.getElementById("order-status").textContent')
    assert lines[-1]["result"]["value"] == status


def test_form_session_replays_and_never_writes_the_password(driver, demo, chrome_http, tmp_path):
    result = form_session(driver, demo)
    assert "Password: (7 characters)" in result and "Country: France" in result
    path = tmp_path / "form.verdex"
    out = driver.ok(f"export {path}")
    assert any("Password" in n for n in out.notes)
    text = path.read_text()
    assert "hunter2" not in text and "label=Password PASSWORD" in text
    assert "# The password is not exported" in text
    assert "fill label=Name 'Ada Lovelace'" in text and "select label=Country France" in text
    assert "click testid=submit-form" in text
    lines = replay(chrome_http, demo.url("form.html"), path, 'eval document.getElementById("result").textContent')
    assert without_password(lines[-1]["result"]["value"]) == without_password(result)


def test_export_needs_a_step_and_a_writable_file(driver, demo, tmp_path):
    driver.fail(f"export {tmp_path / 'x.verdex'}", "usage")
    driver.ok("open " + demo.url("shop.html"))
    driver.fail(f"export {tmp_path / 'missing-dir' / 'x.verdex'}", "usage")


def exported(driver, path: Path) -> str:
    """The text of the file ``export`` writes to ``path``."""
    driver.ok(f"export {path}")
    return path.read_text()


def passes_in_playwright(path: Path, *state_lines: str) -> None:
    """Runs an exported Playwright test with pytest (a subprocess), each of ``state_lines`` (Python,
    `page` in scope, asserting the page's state) added after its last step, and checks that it passes;
    skipped, with the reason, without Playwright."""
    if importlib.util.find_spec("playwright") is None:
        pytest.skip("Playwright for Python is not installed (pip install -e '.[test]'): the exported test "
                    "cannot be run")
    code = path.read_text()
    extra = "".join(f"            {ln}\n" for ln in state_lines)
    path.write_text(code.replace("        finally:\n", extra + "        finally:\n", 1))
    env = dict(third_party_env(), VERDEX_CHROME=launch.find_chrome(None))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
                          cwd=path.parent, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr


def test_playwright_export_runs_under_pytest(driver, demo, tmp_path):
    result = form_session(driver, demo)
    path = tmp_path / "test_form_export.py"
    code = exported(driver, path)
    compile(code, str(path), "exec")  # valid Python whatever is installed
    assert "hunter2" not in code and 'os.environ.get("VERDEX_PASSWORD", "PASSWORD")' in code
    assert 'page.get_by_label("Email", exact=True).fill("ada@example.com")' in code
    assert 'page.get_by_test_id("submit-form").click()' in code
    assert 'page.get_by_label("Country", exact=True).select_option(["France"])' in code
    check = (f"assert {json.dumps(without_password(result))} == '\\n'.join(ln for ln in page.locator"
             "('#result').text_content().splitlines() if not ln.startswith('Password:'))")
    passes_in_playwright(path, check)


def test_frames_session_replays_across_origins(driver, demo, chrome_http, tmp_path):
    driver.ok("open " + demo.url("frames.html"))
    driver.ok('click "button:Leaf button"')
    out = driver.fail("fill 'label=Frame input' typed", "ambiguous")
    snap = driver.ok("snapshot").data
    cross = next(f["index"] for f in snap["frames"] if f["cross_origin"] and f["index"] != 0)
    ref = next(r for r in re.findall(r"c0p0f\d+e\d+", out.message) if r.startswith(f"c0p0f{cross}e"))
    driver.ok(f"fill {ref} typed in the cross-origin frame")
    path = tmp_path / "frames.verdex"
    driver.ok(f"export {path}")
    text = path.read_text()
    assert "click \"button:Leaf button\"" in text
    assert "fill \"iframe:Cross-origin frame >> label=Frame input\" 'typed in the cross-origin frame'" in text
    lines = replay(chrome_http, demo.url("frames.html"), path, 'text "text=Leaf clicked"',
                   'text "iframe:Cross-origin frame >> label=Frame input"')
    assert lines[-2]["result"]["text"].strip() == "Leaf clicked"
    assert lines[-1]["result"]["value"] == "typed in the cross-origin frame"
    py = tmp_path / "test_frames_export.py"
    driver.ok(f"export {py}")
    assert 'page.frame_locator("#cross-frame").get_by_label("Frame input", exact=True).fill(' in py.read_text()


def test_waits_are_exported_with_stable_targets(driver, demo, chrome_http, tmp_path):
    driver.ok("open " + demo.url("shop.html"))
    snap = driver.ok("snapshot").data
    save = next(r for r, i in snap["refs"].items() if i["name"] == "Save")
    driver.ok(f"wait {save}")
    driver.ok("click button:Save")
    driver.ok("wait text Saving")
    driver.ok("wait 50")
    path = tmp_path / "waits.verdex"
    driver.ok(f"export {path}")
    text = path.read_text()
    assert "wait button:Save\n" in text and save not in text and "wait text Saving" in text and "wait 50" in text
    replay(chrome_http, demo.url("shop.html"), path)
    py = tmp_path / "test_waits.py"
    code = exported(driver, py)
    assert 'page.get_by_role("button", name="Save", exact=True).wait_for()' in code
    assert 'wait_for_text(page, "Saving")' in code and "page.wait_for_timeout(50)" in code


def test_labels_and_frames_export_as_stable_targets_and_replay(driver, chrome_http, tmp_path):
    """A label's target is its own text (not its select's options); an element whose name repeats in a
    frame gets a frame-scoped target: `role=document >> ...` in the main frame, `role=iframe >> ...` in
    an iframe without a name (the only one); the replay says 'no snapshot' once, not after every step."""
    page = tmp_path / "labels.html"
    inner = "<button onclick=&quot;document.body.dataset.clicked='frame'&quot;>Save</button>"
    page.write_text("<!doctype html><title>Labels</title>"
                    "<label>Country <select><option>Germany</option><option>France</option></select></label>"
                    "<button onclick=\"document.body.dataset.clicked='main'\">Save</button>"
                    f"<iframe srcdoc=\"{inner}\"></iframe>", encoding="utf-8")
    driver.ok(f"open {page}")
    refs = driver.ok("snapshot").data["refs"]
    saves = sorted(r for r, i in refs.items() if i["name"] == "Save")  # c0p0f0e..., c0p0f1e...
    driver.ok("select label=Country France")
    driver.ok(f"click {saves[0]}")
    driver.ok(f"click {saves[1]}")
    assert driver.ok(f"inspect {saves[0]}").data["locator"] == "role=document >> button:Save"
    path = tmp_path / "labels.verdex"
    assert driver.ok(f"export {path}").data["without_target"] == 0
    steps = [ln for ln in path.read_text().splitlines() if not ln.startswith("#")]
    assert steps[1:] == ["select label=Country France", 'click "role=document >> button:Save"',
                         'click "role=iframe >> button:Save"']
    py = tmp_path / "test_labels_export.py"
    code = exported(driver, py)
    # Playwright's label of the select is the label's whole text, options included: not "Country"
    assert 'page.get_by_role("combobox", name="Country", exact=True).select_option(["France"])' in code
    assert '            page.get_by_role("button", name="Save", exact=True).click()' in code
    assert 'page.frame_locator("iframe").get_by_role("button", name="Save", exact=True).click()' in code
    passes_in_playwright(py, "assert page.locator('select').input_value() == 'France'",
                         "assert page.evaluate('document.body.dataset.clicked') == 'main'",
                         "assert page.frame_locator('iframe').locator('body').get_attribute('data-clicked') == 'frame'")
    lines = replay(chrome_http, page.as_uri(), path, "eval document.querySelector('select').value",
                   "eval document.body.dataset.clicked",
                   "eval document.querySelector('iframe').contentDocument.body.dataset.clicked")
    assert [ln["result"]["value"] for ln in lines[-3:]] == ["France", "main", "frame"]
    notes = [n for ln in lines for n in ln["result"].get("notes", []) if "snapshot" in n]
    assert len(notes) == 1
    proc = verdex("run", "--connect", chrome_http, page.as_uri(), "--script", str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("Changes are not shown until you take a 'snapshot'") == 1, proc.stdout


@pytest.fixture(scope="module")
def checkout_site():
    """tests/fixtures/export on two loopback origins: a checkout page (origin a) rendered by its own
    script, with a hover menu, a form with a <details>, and a payment frame (origin b) that holds a card
    frame (origin a again): nested cross-origin frames that report to the page by postMessage."""
    server = serve(CHECKOUT)
    yield server
    server.stop()


def checkout_session(driver, site, receipt: Path) -> str:
    """Targets typed and refs, across the hover menu, the <details>, the form and both frames, with
    waits, a key and a file; the page's own echo of the order it received."""
    receipt.write_text("paid\n")
    driver.ok("open " + site.url("app.html"))
    driver.ok("hover text=Account")  # the button's text is "Account \u25be"
    driver.ok("click button:Settings")  # in the menu the hover opened
    text = driver.ok("snapshot").data["text"]
    driver.ok("click " + ref_in(text, 'button "Delivery options"'))  # a <summary>
    driver.ok("fill label=Instructions Leave at the door")  # inside the <details> it opened
    driver.ok("fill " + ref_in(text, 'textbox "Full name"') + " Ada Lovelace")
    driver.ok('press "label=Full name" End')
    driver.ok(f"upload label=Receipt {receipt}")
    driver.ok("select " + ref_in(text, 'combobox "Country"') + " France")
    driver.ok("check " + ref_in(text, 'checkbox "Gift wrap"'))
    driver.ok("check radio:Express")
    driver.ok("click " + ref_in(text, 'button "Pay by invoice"'))  # the payment frame (origin b)
    driver.ok("fill " + ref_in(text, 'textbox "Card number"') + " 4242 4242 4242 4242")  # its card frame
    driver.ok("click button:Verify")  # typed: found in the card frame
    driver.ok("wait text Verified 4242")  # the card frame's own status
    driver.ok("wait " + ref_in(text, 'button "Place order"'))
    driver.ok("wait 50")
    driver.ok("click " + ref_in(text, 'button "Place order"'))
    return driver.js('document.getElementById("echo").textContent')


def test_exported_playwright_test_runs_every_step_across_frames_details_hover_and_form(driver, checkout_site,
                                                                                       tmp_path):
    echo = checkout_session(driver, checkout_site, tmp_path / "receipt.txt")
    assert "receipt=receipt.txt (5 bytes)" in echo and "speed=express" in echo and "card=4242 4242 4242 4242" in echo and "payment=invoice" in echo
    path = tmp_path / "test_checkout_export.py"
    out = driver.ok(f"export {path}").data
    code = path.read_text()
    steps = [ln.strip() for ln in code.splitlines() if ln.startswith("            page.")]
    steps += [ln.strip() for ln in code.splitlines() if ln.startswith("            wait_for_text(")]
    assert out["steps"] == 18 and len(steps) == 18 and "# not exported" not in code, code
    # frames through frame_locator chains; no role Playwright does not give (a <summary> is no button
    # to it); a text target only where the element's whole text is it
    assert ('page.frame_locator("#pay").frame_locator("#card").get_by_role("button", name="Verify", '
            'exact=True).click()') in steps
    assert 'page.frame_locator("#pay").get_by_role("button", name="Pay by invoice", exact=True).click()' in steps
    assert 'page.get_by_text("Delivery options", exact=True).click()' in steps
    assert 'page.get_by_role("button", name="Account", exact=True).hover()' in steps
    state = tmp_path / "echo.txt"
    passes_in_playwright(path, f"open({str(state)!r}, 'w').write(page.locator('#echo').text_content())")
    assert state.read_text() == echo  # the page received the same order from the Playwright run


def test_exported_script_replays_across_frames_details_hover_and_form(driver, checkout_site, chrome_http, tmp_path):
    echo = checkout_session(driver, checkout_site, tmp_path / "receipt.txt")
    path = tmp_path / "checkout.verdex"
    assert driver.ok(f"export {path}").data["without_target"] == 0
    assert "c0p0" not in path.read_text()
    lines = replay(chrome_http, checkout_site.url("app.html"), path, 'eval document.getElementById("echo").textContent')
    assert lines[-1]["result"]["value"] == echo


FALLBACKS = """<!doctype html><title>Fallbacks</title>
<div id="app"></div>
<script>
window.hits = [];
const app = document.getElementById('app');
app.innerHTML =
  '<details><summary>More options</summary><p>Hidden text</p></details>' +
  '<div class="trigger" tabindex="0">Account <span>&#9662;</span></div>' +
  '<div id="tile" tabindex="0" style="width:40px;height:20px;background:#c00"></div>' +
  '<div tabindex="0">Account</div>' +
  '<label>Country <select><option>Germany</option><option>France</option></select></label>';
app.addEventListener('click', (e) => {
  const el = e.target.closest('summary, [tabindex]');
  if (el) window.hits.push(el.id || el.textContent.trim());
});
app.addEventListener('change', (e) => window.hits.push('country=' + e.target.value));
</script>"""


def test_elements_playwright_has_no_role_for_export_a_locator_it_finds(driver, tmp_path):
    """A <summary> (a button to verdex, no role to Playwright), a div whose text only contains the
    typed text, a div with nothing but an id, a select whose <label> holds its options: each exported
    step reaches the same element in Playwright (the page's own log of what was clicked matches)."""
    page = tmp_path / "fallbacks.html"
    page.write_text(FALLBACKS, encoding="utf-8")
    driver.ok(f"open {page.as_uri()}")
    text = driver.ok("snapshot").data["text"]
    driver.ok("click " + ref_in(text, 'button "More options"'))
    driver.ok('click "text=Account \u25be"')
    driver.ok("click " + ref_in(text, r"(?m)- generic (?=\[ref=\S+\]$)"))  # the tile: no name, no text
    driver.ok('click "text=Account"')
    driver.ok("select label=Country France")
    hits = driver.js("JSON.stringify(window.hits)")
    path = tmp_path / "test_fallbacks.py"
    code = exported(driver, path)
    assert 'page.get_by_text("More options", exact=True).click()' in code
    assert 'page.get_by_text("Account \u25be", exact=True).click()' in code
    assert 'page.locator("#tile").click()' in code
    assert 'page.get_by_text("Account", exact=True).click()' in code
    assert 'page.get_by_role("combobox", name="Country", exact=True).select_option(["France"])' in code
    passes_in_playwright(path, f"assert page.evaluate('JSON.stringify(window.hits)') == {hits!r}")


IDS = """<!doctype html><title>Ids</title>
<div id="app"></div>
<script>
window.hits = [];
document.getElementById('app').innerHTML = '<div id="maincontent" tabindex="0"><p>Hello there</p><span>Go</span>' +
  '</div><div id="save.v2" tabindex="0" style="width:40px;height:20px;background:#c00"></div>';
document.addEventListener('click', (e) => { const el = e.target.closest('[tabindex]'); if (el) window.hits.push(el.id); });
</script>"""


def test_id_steps_export_and_replay_in_both_forms(driver, chrome_http, tmp_path):
    """A container with nothing but its id is exported as `id=maincontent` / `locator("#maincontent")`
    (it had no target and Playwright got its whole text run together), and a typed `id=` target whose
    id needs CSS escaping reaches the same element in Playwright."""
    page = tmp_path / "ids.html"
    page.write_text(IDS, encoding="utf-8")
    driver.ok(f"open {page.as_uri()}")
    driver.ok("click " + driver.ok("inspect id=maincontent").data["ref"])
    driver.ok("click id=save.v2")
    hits = driver.js("JSON.stringify(window.hits)")
    assert hits == '["maincontent","save.v2"]'
    script, py = tmp_path / "ids.verdex", tmp_path / "test_ids.py"
    assert driver.ok(f"export {script}").data["without_target"] == 0
    assert "click id=maincontent\n" in script.read_text() and "click id=save.v2\n" in script.read_text()
    lines = replay(chrome_http, page.as_uri(), script, "eval JSON.stringify(window.hits)")
    assert lines[-1]["result"]["value"] == hits
    code = exported(driver, py)
    assert 'page.locator("#maincontent").click()' in code and 'page.locator("#save\\\\.v2").click()' in code
    passes_in_playwright(py, f"assert page.evaluate('JSON.stringify(window.hits)') == {hits!r}")
