"""Does the page's own item, as the page declares it, add to the trees'
held-out probability? Issue 65's lead: products drop their item's name and
price, and collections their cards' names,
while the CRF sees only the <title>. The columns, from the page's JSON-LD
and og:title:

- item.of / item.in: the share of the declared item's name (a JSON-LD
  Product's, else og:title) found in the block, and of the block's words
  found in it; item.first: the block is the page's first that holds most of it;
- price: the block holds a price the item's offers declare;
- named: the block is (most of) a name the JSON-LD gives another thing
  (a list's items, related products), not a site, person or picture;
- declares: the page declares a Product.

A stacker (research.stacking) over a saved draw with and without them:

    python3 -m research.item_stack RUNS/seed0.pkl
"""
from __future__ import annotations

import gzip
import html
import json
import pickle
import re
import sys
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from research.stacking import cross_fit, rows_of, scored, shown
from victor.config import load_config
from victor.reading.text import words

_SCRIPT = re.compile(r"<script[^>]*application/ld\+json[^>]*>(.*?)</script>", re.I | re.S)
_OG = re.compile(r"<meta[^>]*(?:property|name)=[\"']og:title[\"'][^>]*>", re.I)
_CONTENT = re.compile(r"content=(?:\"([^\"]*)\"|'([^']*)')", re.I)
_NUMBER = re.compile(r"\d[\d,.\s]*\d|\d")
_SKIP = {"website", "organization", "person", "imageobject", "breadcrumblist", "listitem",
         "brand", "corporation", "localbusiness", "sitenavigationelement", "searchaction",
         "webpage", "rating", "aggregaterating", "review", "offer", "aggregateoffer"}


def _types(item: dict) -> set[str]:
    t = item.get("@type")
    return {x.rsplit("/", 1)[-1].lower() for x in (t if isinstance(t, list) else [t])
            if isinstance(x, str)}


def _walk(value, depth, found):
    if depth > 6:
        return
    if isinstance(value, list):
        for v in value[:200]:
            _walk(v, depth + 1, found)
    elif isinstance(value, dict):
        types = _types(value)
        name = value.get("name")
        if isinstance(name, str) and name.strip():
            if types & {"product", "productgroup"} and not found["item"]:
                found["item"] = name
                for offer in (value.get("offers") if isinstance(value.get("offers"), list)
                              else [value.get("offers")]):
                    if isinstance(offer, dict):
                        for k in ("price", "lowPrice", "highPrice"):
                            found["prices"].append(str(offer.get(k, "")))
            elif not types & _SKIP:
                found["names"].append(name)
        for k, v in value.items():
            if k != "@type" and isinstance(v, (dict, list)):
                _walk(v, depth + 1, found)


def declared(page: str) -> dict:
    found = {"item": "", "prices": [], "names": [], "og": ""}
    for script in _SCRIPT.findall(page[:3_000_000]):
        try:
            _walk(json.loads(script.strip(),
                             strict=False), 0, found)
        except (ValueError, RecursionError):
            pass
    m = _OG.search(page)
    if m:
        c = _CONTENT.search(m.group(0))
        if c:
            found["og"] = html.unescape(c.group(1) or c.group(2) or "")
    return found


def _amount(text: str) -> float | None:
    t = re.sub(r"\s", "", text)
    if "," in t and "." in t:
        t = t.replace(",", "") if t.rfind(".") > t.rfind(",") else t.replace(".", "").replace(",", ".")
    elif "," in t:
        t = t.replace(",", ".") if len(t) - t.rfind(",") == 3 else t.replace(",", "")
    try:
        return float(t)
    except ValueError:
        return None


def columns(blocks: list[str], page: str) -> np.ndarray:
    d = declared(page)
    name = set(words(d["item"] or d["og"]))
    prices = {a for a in (_amount(p) for p in d["prices"]) if a}
    names = [set(words(n)) for n in d["names"][:500]]
    names = [n for n in names if n]
    known = set().union(*names)  # every word of those names
    out = np.zeros((len(blocks), 6), np.float32)
    first = False
    for i, text in enumerate(blocks):
        ws = words(text)
        if not ws:
            continue
        s = set(ws)
        if name:
            common = name & s
            out[i, 0] = len(common) / len(name)
            out[i, 1] = sum(w in name for w in ws) / len(ws)
            if not first and out[i, 0] >= 0.6:
                out[i, 2] = 1; first = True
        if prices and len(ws) <= 12:
            found = {_amount(m) for m in _NUMBER.findall(text)}
            out[i, 3] = float(bool(found & prices))
        if names and len(ws) <= 20 and sum(w in known for w in ws) / len(ws) >= 0.8:
            out[i, 4] = max((len(n & s) / len(n) for n in names if n & s), default=0.0)
        out[i, 5] = float(bool(d["item"]))
    return out


def _page(path: str) -> str:
    data = open(path, "rb").read()
    return (gzip.decompress(data) if path.endswith(".gz") else data).decode("utf-8", "replace")


def main() -> None:
    run = pickle.load(open(sys.argv[1], "rb"))
    config = load_config("general")
    rows = rows_of(run)
    t = time.time()
    cols = np.vstack([columns(blocks, _page(ann.source))
                      for blocks, ann in zip(rows.blocks, rows.annotations)])
    print("columns of", len(rows.y), "blocks in", round(time.time() - t), "s;",
          "blocks with a share of the item's name:", int((cols[:, 0] > 0).sum()),
          "with its price:", int(cols[:, 3].sum()), "named:", int((cols[:, 4] > 0).sum()),
          flush=True)
    base = rows.base()
    print(shown("as saved", scored(run, config, rows, rows.q)), flush=True)
    for name, X in {"stack q only": base, "stack q + item": np.hstack([base, cols])}.items():
        t = time.time(); qq = cross_fit(X, rows)
        print(shown(f"{name} (AUC {roc_auc_score(rows.y, qq):.4f}, {round(time.time() - t)} s)",
                    scored(run, config, rows, qq)), flush=True)


if __name__ == "__main__":
    main()
