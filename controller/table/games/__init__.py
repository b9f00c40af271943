"""What every game's table adapter shares (``base.GameAdapter`` declares the hooks,
``shoe_game.ShoeGameAdapter`` the shoe games' common part, ``views.GameView`` the views' base,
``describe`` a record's words by its game's view). Each game's own adapter and view live in its
package, ``controller/games/<game>/``, and are registered in ``controller.table.registry``.
"""
