"""A page loads the game's own assets from what the game declares (issue 27): the console of a
roulette table its layout and its boards' drawing, a blackjack console none, the pit every game's
boards drawing; no page names a game's file itself."""

from __future__ import annotations

from controller.console.web import STATIC, page_with
from controller.table import registry
from controller.web.assets import MARKER, with_assets


def test_the_roulette_console_loads_its_layout_and_boards_from_its_package() -> None:
    roulette = registry.game("roulette")
    page = page_with(roulette.assets)
    assert '<link rel="stylesheet" href="/game/roulette.css">' in page
    assert '<script src="/game/boards.js" defer></script>' in page
    assert '<script src="/game/roulette.js" defer></script>' in page
    assert page.index("/common/boards.js") < page.index("/game/boards.js") < page.index("/static/console.js")
    # the layout's drawing shared with the player's page comes before the console's part of it
    assert page.index("/game/felt.css") < page.index("/game/roulette.css")
    assert page.index("/common/croupier.js") < page.index("/game/felt.js") < page.index("/game/roulette.js")
    assert roulette.assets.folder is not None
    assert all((roulette.assets.folder / name).is_file()
               for name in (*roulette.assets.scripts, *roulette.assets.styles, *roulette.assets.boards))


def test_a_game_without_assets_loads_none() -> None:
    page = page_with(registry.game("blackjack").assets)
    assert "/game/" not in page and MARKER not in page


def test_the_console_page_names_no_game() -> None:
    for name in ("console.html", "console.js", "console.css"):
        text = (STATIC / name).read_text().lower()
        assert not any(game in text for game in ("roulette", "baccarat", "blackjack")), name


def test_asset_names_are_escaped() -> None:
    assert with_assets(f"<head>{MARKER}</head>", ['/a"b.css'], ["/c<d>.js"], defer=False) == (
        '<head><link rel="stylesheet" href="/a&quot;b.css">\n<script src="/c&lt;d&gt;.js"></script></head>')
