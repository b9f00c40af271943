"""What the dealer console and the pit dashboard share on the web side (docs/security.md, "The
pages"): the front-end module both pages load (``static/croupier.js``), the guard every request
passes (security headers, Origin, JSON bodies bounded before they are read), sign-in throttling,
and the uvicorn settings that keep a flood of connections from reaching the table's loop.
"""

from __future__ import annotations

from pathlib import Path

#: the shared front-end module, served by both apps under ``/common``
STATIC = Path(__file__).with_name("static")
