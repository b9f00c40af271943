"""The dashboard's edge for the feed: every message checked against its model before it can
reach the floor model, a tile or a page (docs/pit.md, "What the dashboard refuses").

Refused: anything that is not UTF-8 JSON of an object, ``NaN``/``Infinity`` (and numbers too
large for a float), lone surrogates (``"\\ud800"``: no page or JSON response can carry them),
a message that does not match its ``controller.records`` model (a round's outcome its game's) (a time without its UTC
offset among them), and one that names another table than its topic. What passes is what the
responses serialise, so one table cannot make ``/api/floor`` or a broadcast fail.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import ValidationError

from controller import records
from controller.table import registry  # noqa: F401 (the registered games' outcome models, for round records)

#: far above any real message (a round of seven boxes is a few kB)
MAX_MESSAGE = 512 * 1024


class Refused(ValueError):
    """A feed message the dashboard will not fold in; ``str()`` says why, for people."""


def _no_constant(name: str) -> Any:
    raise Refused(f"{name} is not a number JSON allows")


def _explain(exc: ValidationError) -> str:
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in first["loc"]) or "message"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {str(first['msg']).removeprefix('Value error, ')}{more}"


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise Refused("a number out of range (infinite)")
    return value


#: one decoder for every message: ``json.loads`` with hooks builds a decoder and its scanner per call
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def _loads(payload: bytes) -> Any:
    """What ``json.loads(payload, parse_constant=..., parse_float=...)`` gives, the same way:
    the encoding detected from the bytes (UTF-8, 16 or 32, a BOM), decoded with surrogatepass."""
    return _DECODER.decode(payload.decode(json.detect_encoding(payload), "surrogatepass"))


def _serialisable(data: dict[str, Any]) -> None:
    try:
        json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except ValueError:
        raise Refused("a number out of range (infinite)") from None
    except UnicodeEncodeError:
        raise Refused("text that is not valid Unicode (a lone surrogate)") from None
    except RecursionError:
        raise Refused("nested too deep") from None


def check(table: str, leaf: str, payload: bytes) -> dict[str, Any]:
    """The message of ``croupier/<table>/<leaf>`` as a dict its model accepts, or ``Refused``."""
    if len(payload) > MAX_MESSAGE:
        raise Refused(f"larger than {MAX_MESSAGE // 1024} KiB")
    try:
        data = _loads(payload)
    except RecursionError:
        raise Refused("nested too deep") from None
    except UnicodeDecodeError:
        raise Refused("not UTF-8") from None
    except Refused:
        raise
    except ValueError:
        raise Refused("not JSON") from None
    if not isinstance(data, dict):
        raise Refused("not a JSON object")
    # what every response will do with it: no NaN or infinity (refused as parsed), no lone
    # surrogate. json.loads lets one in through a \u escape, through UTF-8 bytes (it decodes with
    # surrogatepass) or in UTF-16/32 (it detects the encoding from NUL bytes): plain ASCII
    # without an escape or a NUL, most messages, holds none and is not serialised once more
    if not payload.isascii() or b"\\u" in payload or b"\x00" in payload:
        _serialisable(data)
    try:
        records.parse(leaf, data)
    except ValidationError as exc:
        raise Refused(_explain(exc)) from None
    except RecursionError:
        raise Refused("nested too deep") from None
    if data.get("table") != table:
        raise Refused(f"it names table {str(data.get('table'))[:64]!r}, not the topic's")
    return data
