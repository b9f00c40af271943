"""Export the wire messages' JSON Schemas from the pydantic models that validate them, into
docs/schemas/ (docs/protocols.md links each one). tests/unit/test_schemas.py fails when a model
and its file drift apart; then run:

    .venv/bin/python scripts/export_schemas.py            # rewrite docs/schemas/*.json
    .venv/bin/python scripts/export_schemas.py --check    # exit 1 naming each stale file
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, Union

from pydantic import BaseModel, Field, TypeAdapter

from controller.commands.models import BY_NAME, DEALER_NAMES
from controller.commands.parse import PitCommand
from controller.commands.studio import AnyStudio
from controller.records import FEED_LEAVES, RoundRecord, feed_type, round_type
from controller.studio.operators.schemas import SCHEMAS as OPERATOR_SCHEMAS
from controller.studio.protocol import SCHEMAS as STUDIO_SCHEMAS
from controller.table import registry  # noqa: F401 (the registered games' outcome models, for round records)
from drivers import events as common_events
from drivers.events import DeviceEvent
from drivers.shoe import events as shoe_events
from drivers.spots import events as spot_events
from drivers.spots.codec import LampPayload, PressPayload
from drivers.wheel import events as wheel_events

OUT = Path(__file__).resolve().parent.parent / "docs" / "schemas"


def _events(*modules: ModuleType) -> Any:
    """Every concrete event class of these modules (those with a fixed ``type``), as one union
    told apart by ``type``: a new event class is exported without touching this file. Where a
    device refines a shared event (``SpotRefused`` of ``Refused``), the device's own is kept."""
    found: dict[str, type[DeviceEvent]] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, DeviceEvent):
                kind = value.model_fields["type"].default
                if isinstance(kind, str) and (kind not in found or issubclass(value, found[kind])):
                    found[kind] = value
    members = tuple(found[kind] for kind in sorted(found))
    return Annotated[Union[members], Field(discriminator="type")]  # noqa: UP007 (a runtime tuple of classes)


def _dealer_commands() -> Any:
    """The commands a dealer gives (the dealer line, the console), told apart by ``command``."""
    members = tuple(BY_NAME[name] for name in DEALER_NAMES)
    return Annotated[Union[members], Field(discriminator="command")]  # noqa: UP007 (a runtime tuple of classes)


# file stem -> (what it describes, the model or type)
SCHEMAS: dict[str, tuple[str, Any]] = {
    **OPERATOR_SCHEMAS,
    "spot-press": ("croupier/<table>/spot/<n>/press: bet spot -> controller, QoS 1", PressPayload),
    "spot-lamp": ("croupier/<table>/spot/<n>/lamp: controller -> bet spot, retained", LampPayload),
    "pit-command": ("croupier/<table>/command: pit dashboard -> controller, QoS 1, never retained", PitCommand),
    "studio": ("croupier/<table>/studio: the studio -> a remote table, QoS 1, never retained (docs/studio.md)",
               AnyStudio),
    "command": ("a dealer command (the dealer line, the console's args with its name; journaled as command)",
                _dealer_commands()),
    "wheel-events": ("Cammegh SS2 driver events (croupier listen wheel --json; journaled device events)",
                     _events(wheel_events, common_events)),
    "shoe-events": ("CSP/1 shoe driver events (croupier listen shoe --json; journaled device events)",
                    _events(shoe_events, common_events)),
    "spot-events": ("bet-spot driver events (croupier listen spots --json; journaled device events)",
                    _events(spot_events, common_events)),
    **{f"feed-{leaf}": (f"croupier/<table>/{leaf}: controller -> pit, QoS 1"
                        + (", retained" if leaf in ("state", "prompt", "ledger", "betting") else ""), feed_type(leaf))
       for leaf in FEED_LEAVES},
    "round-record": ("a closed round as the table journals it (round_closed) and croupier recall --json prints it; "
                     "its outcome is its game's", round_type(RoundRecord)),
    **STUDIO_SCHEMAS,
}


def schema(stem: str) -> dict[str, Any]:
    description, model = SCHEMAS[stem]
    if isinstance(model, type) and issubclass(model, BaseModel):
        body = model.model_json_schema()
    else:
        body = TypeAdapter(model).json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{stem}.json",
            "$comment": description, **body}


def render(stem: str) -> str:
    return json.dumps(schema(stem), indent=2, ensure_ascii=False) + "\n"


def stale(directory: Path = OUT) -> list[str]:
    """The files that differ from the models (missing ones and strays included)."""
    out = [f"{stem}.json" for stem in SCHEMAS
           if not (directory / f"{stem}.json").exists() or (directory / f"{stem}.json").read_text() != render(stem)]
    out += sorted(p.name for p in directory.glob("*.json") if p.stem not in SCHEMAS)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 naming stale files")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.check:
        drift = stale(args.out)
        for name in drift:
            print(f"{args.out / name}: out of date with its model (run scripts/export_schemas.py)", file=sys.stderr)
        return 1 if drift else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for stem in SCHEMAS:
        (args.out / f"{stem}.json").write_text(render(stem))
        print(args.out / f"{stem}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
