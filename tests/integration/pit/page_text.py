"""What every pit page must never show (issues 18 and 26): ``null``, ``undefined``, ``NaN``, a JSON
fragment, an amount without its currency, an internal code (``shoe.noread``,
``console:dealer``, ``split:25-28``), a raw card code (``6S`` for 6♠), or a control without an
accessible name."""

from __future__ import annotations

import re
from typing import Any

FORBIDDEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\{\"|\[object |\b\d+ ?-> ?\d+\b")
#: an amount with cents (1,234.50) that is not followed by its currency code or a percent sign
BARE_AMOUNT = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d.])(?! (?:[A-Z]{3}\b|%))")
#: a dotted code (``round.correction_pending``), a source or bet kind with its colon, a raw card
CODE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*){1,3}\b|\b[a-z_]{2,}:[a-z0-9]"
                  r"|\b(?:10|[2-9TJQKA])[SHDC]\b")
UNNAMED = """() => [...document.querySelectorAll('button, input, select, textarea, a[href]')]
  .filter((e) => e.offsetParent !== null)
  .filter((e) => !((e.getAttribute('aria-label') || '').trim() || (e.textContent || '').trim()
    || (e.labels && [...e.labels].some((l) => l.textContent.trim())) || (e.getAttribute('title') || '').trim()))
  .map((e) => e.outerHTML.slice(0, 120))"""


async def assert_clean(page: Any) -> str:
    """The page's visible text, checked; returns it."""
    shown = str(await page.evaluate("document.body.innerText"))
    assert not FORBIDDEN.search(shown), FORBIDDEN.search(shown)
    code = CODE.search(shown)
    assert code is None, shown[max(0, code.start() - 60):code.end() + 20]
    bare = BARE_AMOUNT.search(shown)
    assert bare is None, shown[max(0, bare.start() - 60):bare.end() + 20]
    assert await page.evaluate(UNNAMED) == []
    return shown
