"""An action's arguments, read and checked the same way for every game system.

An action carries its arguments as a mapping of names to values (``{"unit": "2-116", "to": "1817"}``): typed
by a player on the console or in Discord they are text, from a prompt's choice they may be numbers or lists.
Every system reads them here, so a malformed argument is refused in one wording whatever the game:

- ``missing argument 'to' (a hex such as 1817)`` when a needed argument is absent or empty;
- ``argument 'to' must be a hex such as 1817, not 'north'`` when it cannot be read as what it must be;
- ``hex 9917 is not on the map`` when a hex is well written but off the map;
- ``unknown argument stepz (did you mean steps?): detach takes division, steps; nothing changed`` when an
  argument is given that the action never reads (:func:`refuse_unread`, through :class:`ReadArguments`).

Each is an :class:`~engine.contract.InvalidActionError` (the action is malformed, so no rule is cited) raised
before anything changes; an argument that is well formed but forbidden by a rule is the rules' own refusal
(an ``IllegalActionError`` citing the rule), never this module's.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.contract import InvalidActionError
from engine.hexgrid import Grid, Hex, hex_name, parse_hex

TEXT = "text"
NAMES = "a comma-separated list"
FLAG = "true or false"
WHOLE = "a whole number"
NUMBER = "a number"
HEX = "a hex such as 1817"

_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def missing(key: str, kind: str) -> InvalidActionError:
    """The refusal of a needed argument that was not given (or given empty)."""
    return InvalidActionError(f"missing argument {key!r} ({kind})")


def malformed(key: str, kind: str, value: Any) -> InvalidActionError:
    """The refusal of an argument that cannot be read as ``kind``."""
    return InvalidActionError(f"argument {key!r} must be {kind}, not {value!r}")


def _given(args: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """The argument's value, ``default`` when it is absent, ``None`` when it is absent without a default or
    given as empty text."""
    value = args.get(key, default)
    return None if isinstance(value, str) and not value.strip() else value


def text(args: Mapping[str, Any], key: str, default: str | None = None) -> str:
    """A needed argument read as text, without surrounding spaces (a number, as a slash command's number option
    gives it, is read as Python writes it: ``12.0`` -> ``"12.0"``).

    :raises InvalidActionError: if it is missing, empty or neither text nor a number.
    """
    value = _given(args, key, default)
    if value is None:
        raise missing(key, TEXT)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise malformed(key, TEXT, value)
    return str(value).strip()


def optional_text(args: Mapping[str, Any], key: str) -> str | None:
    """An argument read as text when it is given and not empty, else ``None``.

    :raises InvalidActionError: if it is given but neither text nor a number.
    """
    return text(args, key) if _given(args, key) is not None else None


def names(args: Mapping[str, Any], key: str, required: bool = True) -> list[str]:
    """An argument read as a list of names: a list, or text separated by commas (``"a, b"`` -> ``["a", "b"]``);
    blanks are dropped. Without ``required``, a missing argument is the empty list.

    :raises InvalidActionError: if it is needed and missing, or neither a list nor text.
    """
    value = _given(args, key)
    if value is None:
        if required:
            raise missing(key, NAMES)
        return []
    if isinstance(value, list | tuple):
        items = [str(v).strip() for v in value]
    elif isinstance(value, str):
        items = [v.strip() for v in value.split(",")]
    else:
        raise malformed(key, NAMES, value)
    return [item for item in items if item]


def flag(args: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    """An argument read as true or false (``true``/``yes``/``1`` or ``false``/``no``/``0`` when written).

    :raises InvalidActionError: if it is missing without a default, or not one of those.
    """
    value = _given(args, key, default)
    if value is None:
        raise missing(key, FLAG)
    if isinstance(value, bool):
        return value
    written = value.strip().lower() if isinstance(value, str) else None
    if written in _TRUE or written in _FALSE:
        return written in _TRUE
    raise malformed(key, FLAG, value)


def whole(args: Mapping[str, Any], key: str, default: int | None = None) -> int:
    """An argument read as a whole number (``3``, ``"3"``, or ``3.0`` as a slash command's number option gives it).

    :raises InvalidActionError: if it is missing without a default, or not a whole number.
    """
    value = _given(args, key, default)
    if value is None:
        raise missing(key, WHOLE)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool | float):
        raise malformed(key, WHOLE, value)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise malformed(key, WHOLE, value) from None


def optional_number(args: Mapping[str, Any], key: str) -> float | None:
    """An argument read as a number (``2.5``, ``"2.5"``, ``3``) when it is given and not empty, else ``None``.

    :raises InvalidActionError: if it is given but not a number.
    """
    value = _given(args, key)
    if value is None:
        return None
    if isinstance(value, bool):
        raise malformed(key, NUMBER, value)
    try:
        return float(value)
    except (TypeError, ValueError):
        raise malformed(key, NUMBER, value) from None


def hex_number(args: Mapping[str, Any], key: str, grid: Grid) -> Hex:
    """An argument read as a hex of the map: its four-digit name (``"0203"``) or its number (``203``).

    :raises InvalidActionError: if it is missing, not a hex, or off the map.
    """
    value = _given(args, key)
    if value is None:
        raise missing(key, HEX)
    return hex_on_map(value, grid, key)


def hex_on_map(value: Any, grid: Grid, key: str = "hex") -> Hex:
    """A value read as a hex of the map (its four-digit name or its number); ``key`` names it in a refusal.

    :raises InvalidActionError: if it is not a hex or off the map.
    """
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise malformed(key, HEX, value)
    if isinstance(value, int):
        hex_ = value
    else:
        try:
            hex_ = parse_hex(value)
        except ValueError as error:
            raise InvalidActionError(str(error)) from None
    if not grid.contains(hex_):
        raise InvalidActionError(f"hex {hex_name(hex_)} is not on the map")
    return hex_


# --- Arguments never read ----------------------------------------------------------------------------------


class ReadArguments(Mapping[str, Any]):
    """An action's arguments that remember which names were looked up.

    A system reads an action's arguments by name (``args.get("quality")``, ``"path" in args``, or the readers
    above); an argument the accepted action never looked at did nothing, so :func:`refuse_unread` refuses it.
    Reading them wholesale (``dict(args)``) marks them all read: the check then stands aside rather than refuse
    a name it cannot judge.
    """

    def __init__(self, args: Mapping[str, Any]) -> None:
        self._args = dict(args)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._args[key]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return key in self._args

    def __iter__(self) -> Iterator[str]:
        self.read.update(self._args)  # read wholesale: every name may have mattered
        return iter(self._args)

    def __len__(self) -> int:
        return len(self._args)

    def unread(self) -> list[str]:
        """The names given that were never looked up, in the order given."""
        return [key for key in self._args if key not in self.read]


def closest(name: str, names: Sequence[str]) -> str | None:
    """The name a misspelt ``name`` most likely meant: one written inside it or around it (``quality`` in
    ``attacker_quality``), else the closest in spelling, else ``None``."""
    inside = [n for n in names if n in name or name in n]
    if inside:
        return max(inside, key=len)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    return close[0] if close else None


def refuse_unread(verb: str, args: ReadArguments, misspelt_only: bool = False) -> None:
    """Raise when an argument given to ``verb`` was never read, naming the arguments it takes; with
    ``misspelt_only`` (the rules refused the action before reading everything), only for a name close to one
    that was read.

    :raises InvalidActionError: for the first unread argument.
    """
    unread = args.unread()
    if not unread:
        return
    known = sorted(args.read)
    unknown = unread[0]
    close = closest(unknown, known)
    if misspelt_only and close is None:
        return
    hint = f" (did you mean {close}?)" if close else ""
    takes = f"{verb} takes {', '.join(known)}" if known else f"{verb} takes no arguments"
    raise InvalidActionError(f"unknown argument {unknown}{hint}: {takes}; nothing changed")
