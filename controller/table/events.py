"""Device events back from the journal as the drivers' own typed models (docs/devices.md).

A ``device`` entry's payload is the driver's event as ``model_dump(mode="json")`` wrote it.
``parse_event`` turns it back into that very class through one discriminated union built from
every ``drivers/*/events.py`` (and the shared ``drivers/events.py``), so the table core matches
on model classes, live and on replay alike. The ``type`` literal names the class; where two
devices share a ``type`` (the shoe's and the wheel's ``fault``, the spots' ``refused``), the
payload's fields tell them apart. A payload no driver model accepts raises ``NotAnEvent``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import reduce
from operator import or_
from types import ModuleType
from typing import Annotated, Any

from pydantic import Discriminator, Tag, TypeAdapter, ValidationError

import drivers
from drivers import events as common
from drivers.events import DeviceEvent


def _event_modules() -> list[ModuleType]:
    """``drivers.events`` and every ``drivers.<device>.events`` there is."""
    modules = [common]
    for info in sorted(pkgutil.iter_modules(drivers.__path__), key=lambda i: i.name):
        if info.ispkg:
            try:
                modules.append(importlib.import_module(f"drivers.{info.name}.events"))
            except ModuleNotFoundError as exc:
                if exc.name != f"drivers.{info.name}.events":
                    raise
    return modules


def _type_literal(cls: type[DeviceEvent]) -> str | None:
    """The ``type`` a concrete event class is written with (None for a base class)."""
    default = cls.model_fields["type"].default
    return default if isinstance(default, str) else None


def _event_classes() -> list[type[DeviceEvent]]:
    found: list[type[DeviceEvent]] = []
    for module in _event_modules():
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, DeviceEvent) and value not in found
                    and _type_literal(value) is not None):
                found.append(value)
    return found


EVENT_CLASSES: tuple[type[DeviceEvent], ...] = tuple(_event_classes())
_TAGS = {cls: f"{cls.__module__}.{cls.__qualname__}" for cls in EVENT_CLASSES}
_BY_TYPE: dict[str, list[type[DeviceEvent]]] = {}
for _cls in EVENT_CLASSES:
    _BY_TYPE.setdefault(str(_type_literal(_cls)), []).append(_cls)


#: each class's (required fields, all fields), read once: a card's replay asks for them
_FIELDS: dict[type[DeviceEvent], tuple[frozenset[str], frozenset[str]]] = {
    cls: (frozenset(n for n, f in cls.model_fields.items() if f.is_required()), frozenset(cls.model_fields))
    for cls in EVENT_CLASSES
}


def _fits(cls: type[DeviceEvent], keys: set[str]) -> bool:
    required, known = _FIELDS[cls]
    return required <= keys <= known


def _tag(value: Any) -> str | None:
    """The union member a payload (or a model) belongs to."""
    if isinstance(value, DeviceEvent):
        return _TAGS.get(type(value))
    if not isinstance(value, Mapping):
        return None
    candidates = _BY_TYPE.get(str(value.get("type")), [])
    if len(candidates) == 1:  # one class has this type: nothing to tell apart
        return _TAGS[candidates[0]]
    keys = set(value)
    chosen = next((cls for cls in candidates if _fits(cls, keys)), candidates[0] if candidates else None)
    return _TAGS[chosen] if chosen is not None else None


_UNION = reduce(or_, [Annotated[cls, Tag(tag)] for cls, tag in _TAGS.items()])
_SCHEMA: Any = Annotated[_UNION, Discriminator(_tag)]
ANY_EVENT: TypeAdapter[DeviceEvent] = TypeAdapter(_SCHEMA)


class NotAnEvent(ValueError):
    """A payload no driver's event model accepts; the message says what is wrong with it."""


#: the validator of each ``type`` only one class has (a card's): the payload goes to it directly
_SOLE: dict[Any, Any] = {kind: classes[0].__pydantic_validator__ for kind, classes in _BY_TYPE.items()
                         if len(classes) == 1}


def parse_event(payload: Mapping[str, Any]) -> DeviceEvent:
    """The driver's model of a journaled device event (``NotAnEvent`` if none fits)."""
    kind = payload.get("type")
    try:
        try:
            sole = _SOLE.get(kind)
        except TypeError:  # a type that cannot be a key (a list): no class has it
            sole = None
        if sole is not None:  # the type names the class: validated by its own validator alone (a card's replay)
            event: DeviceEvent = sole.validate_python(payload if type(payload) is dict else dict(payload))
            return event
        if str(kind) not in _BY_TYPE:
            raise NotAnEvent(f"no device has an event of type {kind!r}")
        return ANY_EVENT.validate_python(dict(payload))
    except ValidationError as exc:
        said = "; ".join(f"{e['loc'][-1] if e['loc'] else kind}: {e['msg']}" for e in exc.errors())
        raise NotAnEvent(f"{kind} event: {said}") from None


def device_of(event: DeviceEvent) -> str:
    """The device an event names (every driver event carries ``device``; ``device`` if not)."""
    return str(getattr(event, "device", "device"))
