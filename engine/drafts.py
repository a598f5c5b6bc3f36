"""Frozen slotted dataclasses made on the hot paths (a card's trick, a deal's events).

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, and a slot's
own ``__set__`` is a method-wrapper call: both cost several times a plain attribute store. A
draft is an instance of a class with the same slots and nothing else, filled by plain stores
and then made the frozen class (``draft.__class__ = cls``, which Python allows between classes
of the same layout), as ``engine.state`` makes a ``MatchState``. The object is then exactly
what ``cls(...)`` would have made: equal, hashed, shown and pickled alike.
"""

from __future__ import annotations


def draft_class(cls: type) -> type:
    """A class with the slots of the slotted class ``cls``, whose instances may become ``cls``."""
    slots: tuple[str, ...] = cls.__dict__["__slots__"]
    return type(f"{cls.__name__}Draft", (), {"__slots__": slots})
