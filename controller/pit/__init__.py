"""The pit dashboard (docs/pit.md): every table's feed on one page, statistics, pit commands.

``model`` folds the feed into the floor, ``stats`` and ``edges`` give the figures, ``views``
shapes the table view, ``commands`` builds what the pit sends, ``web`` serves it, ``server``
ties the broker link and uvicorn together, ``cli`` is ``croupier pit``.
"""
