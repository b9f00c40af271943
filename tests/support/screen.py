"""What a page shows on a touch screen, measured from element boxes in the browser
(``screen_check.js``): no page scroll, every control whole on the screen and not under another
element at its centre, every control named, touch targets and numbers large enough, no text cut
off, the given parts and every box (``.spot``) on screen. An open dialog is checked on its own.

``problems = await screen_problems(page, numbers=".rl-grid .rl-cell:not(.rl-point)")`` is empty
on a screen a dealer can use without scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHECK = (Path(__file__).with_name("screen_check.js")).read_text()
#: a line or corner spot of the roulette layout sits on the line between two numbers: it cannot
#: be a whole touch target without covering them, so it is held to SMALL_PX
LINE_SPOTS = ".rl-point"


async def screen_problems(page: Any, *, numbers: str = "", small: str = LINE_SPOTS, must: tuple[str, ...] = (),
                          lists: tuple[str, ...] = (), touch_px: int = 48, number_px: int = 40, small_px: int = 24) -> list[str]:
    """Every problem the page has on its screen now (empty: none)."""
    options = {"numbers": numbers, "small": small, "must": list(must), "lists": list(lists),
               "touchPx": touch_px, "numberPx": number_px,
               "smallPx": small_px}
    return list(await page.evaluate(CHECK, options))
