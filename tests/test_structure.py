"""container, siblings, anchors, find, text and the snapshot views (--within, --interactive, --depth)."""

from __future__ import annotations


MUG = '"article:Coffee mug >> button:Add to cart"'


def test_container_is_the_ancestor_chain_to_body(shop):
    snap = shop.ok("snapshot").data
    out = shop.ok(f"container {MUG}").data
    chain = out["chain"]
    assert [c["tag"] for c in chain] == ["button", "article", "div", "section", "main", "body"]
    assert chain[0]["id"] == "add-mug" and chain[0]["ref"] == out["ref"] and out["ref"] in snap["refs"]
    assert chain[1]["role"] == "article" and chain[1]["name"] == "Coffee mug"
    assert chain[1]["classes"] == ["card", "product"]
    assert chain[2]["classes"] == ["products"] and chain[3]["role"] == "region" and chain[3]["name"] == "Products"
    cart = shop.ok("container testid=cart").data["chain"][0]
    assert cart["testid"] == "cart" and cart["id"] == "cart"


def test_siblings_at_the_repeating_ancestor_say_what_differs(shop):
    out = shop.ok(f"siblings {MUG}").data
    assert out["count"] == 4 and out["signature"] == "article.card.product" and out["level"] == 1
    names = [it["name"] for it in out["items"]]
    assert names == ["Coffee mug", "Notebook", "Desk lamp", "Headphones"]
    assert [it["self"] for it in out["items"]] == [True, False, False, False]
    assert {"name", "button@id", "button@data-product"} <= set(out["differ"])
    assert out["items"][2]["differs"]["button@data-product"] == "lamp"
    lamp = out["items"][2]["counterpart"]
    assert lamp["role"] == "button" and lamp["ref"]
    shop.ok(f"click {lamp['ref']}")  # the sibling's counterpart got a usable ref
    assert shop.js('document.getElementById("add-lamp").textContent') == "Added"


def test_siblings_at_a_given_level(form):
    out = form.ok("siblings label=Olives 0").data  # the checkbox itself: no look-alike siblings at level 0
    assert out["count"] in (0, 1) or out["level"] == 0
    out = form.ok("siblings label=Olives 1").data  # its label: three topping labels
    assert out["count"] == 3 and out["level"] == 1
    assert [it["counterpart"]["name"] for it in out["items"]] == ["Cheese", "Olives", "Basil"]
    form.fail("siblings label=Olives up", "usage")


def test_anchors_inside_the_card(shop):
    out = shop.ok(f"anchors {MUG}").data
    assert out["within"]["role"] == "article" and out["within"]["name"] == "Coffee mug"
    kinds = {(a["kind"], a.get("name") or a.get("text")) for a in out["anchors"]}
    assert ("heading", "Coffee mug") in kinds and ("text", "$12.00") in kinds
    assert not any(a.get("text") == "Add to cart" for a in out["anchors"])  # not unique on the page


def test_anchors_on_the_form_name_the_landmark_and_test_id(form):
    out = form.ok("anchors testid=submit-form 3").data
    kinds = [(a["kind"], a.get("value") or a.get("name") or a.get("text")) for a in out["anchors"]]
    assert ("landmark", "Demo form") in kinds and ("testid", "submit-form") in kinds
    assert ("heading", "Form controls") in kinds


def test_text_prints_everything_uncut(shop):
    long = "word " * 60
    shop.ok(f'eval document.getElementById("order-status").textContent = "{long.strip()}"')
    out = shop.ok("text role=status").data
    assert out["text"].strip() == long.strip() and len(out["text"].strip()) > 100


def test_text_of_a_field_gives_its_value_and_masks_passwords(form):
    form.ok("fill label=Password hunter2")
    out = form.ok("text label=Password").data
    assert out["value"] != "hunter2" and "hunter2" not in str(out)
    form.ok("fill label=Email a@b.co")
    assert form.ok("text label=Email").data["value"] == "a@b.co"


def test_find_lists_nodes_of_the_last_snapshot_with_ref_and_path(shop):
    shop.fail("find cart", "usage")  # no snapshot yet
    snap = shop.ok("snapshot").data
    out = shop.ok("find add to CART").data
    assert out["total"] == 4 and all(m["ref"] in snap["refs"] for m in out["matches"])
    assert out["matches"][1]["path"][-1] == 'article "Notebook"'
    assert 'region "Products"' in out["matches"][1]["path"]
    prices = shop.ok("find $34.99").data["matches"]
    assert prices[0]["role"] == "paragraph" and prices[0]["ref"] is None and prices[0]["text"] == "$34.99"
    assert shop.ok("find heading").data["total"] >= 7  # by role
    assert shop.ok("find zzz-nothing").data["matches"] == []
    for empty in ("find ''", 'find "  "'):  # nothing to look for: one line, not every node listed
        assert "find needs some text" in shop.fail(empty, "usage").message


def test_snapshot_within_one_subtree(shop):
    out = shop.ok("snapshot --within region:Cart").data
    lines = out["text"].splitlines()
    assert lines[0] == '- region "Cart":' and "Checkout" in out["text"] and "Coffee mug" not in out["text"]
    (ref,) = out["refs"]
    assert out["refs"][ref]["name"] == "Checkout"
    shop.ok("snapshot --within 'article:Coffee mug'")
    inner = shop.ok("snapshot --within 'article:Notebook'").data["text"]
    assert inner.startswith('- article "Notebook":') and "$8.50" in inner and "$12.00" not in inner


def test_snapshot_interactive_keeps_refs_landmarks_and_headings(shop):
    full = shop.ok("snapshot").data
    out = shop.ok("snapshot --interactive").data
    text = out["text"]
    for ref in full["refs"]:
        assert f"[ref={ref}]" in text
    assert "$12.00" not in text and "paragraph" not in text and "article" not in text
    assert '- region "Products":' in text and '- heading "Coffee mug" [level=3]' in text
    assert out["refs"] == full["refs"]


def test_snapshot_depth_cuts_and_counts(shop):
    out = shop.ok("snapshot --depth 2").data["text"]
    assert '- region "Products":' in out and "article" not in out
    assert "more nodes)" in out
    one = shop.ok("snapshot --depth 1").data["text"].splitlines()
    assert all(ln.endswith("more nodes)") for ln in one if ln.startswith("    -"))
    shop.fail("snapshot --depth 0", "usage")
    shop.fail("snapshot --depth", "usage")
    within = shop.ok("snapshot --within 'article:Desk lamp' --depth 1").data["text"]
    assert 'heading "Desk lamp"' in within and within.startswith('- article "Desk lamp":')


def test_snapshot_views_inside_frames(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    out = driver.ok("snapshot --interactive").data["text"]
    assert "Leaf button" in out and "[frame=f" in out
    inner = driver.ok('snapshot --within "button:Leaf button"').data["text"]
    assert inner.startswith('- button "Leaf button"')
