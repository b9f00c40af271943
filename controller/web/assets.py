"""The tags that load a game's own page assets (controller/table/game.py ``Assets``) into a page
at its marker: the console loads its table's game's, the pit every game's boards drawing. The
names come from the games' declarations (code, not data), escaped all the same."""

from __future__ import annotations

import html
from collections.abc import Iterable

#: where a page takes the games' own assets
MARKER = "<!-- the game's own assets -->"


def with_assets(page: str, styles: Iterable[str] = (), scripts: Iterable[str] = (), *, defer: bool = True) -> str:
    """``page`` with a style-sheet link per URL of ``styles`` and a script per URL of ``scripts``
    (in order, deferred as the page's own are) at its ``MARKER``."""
    tags = [f'<link rel="stylesheet" href="{html.escape(url)}">' for url in styles]
    tags += [f'<script src="{html.escape(url)}"{" defer" if defer else ""}></script>' for url in scripts]
    return page.replace(MARKER, "\n".join(tags))
