"""Arguments the rules never read: a misspelt or unknown argument is refused, never silently ignored.

A game system reads an action's arguments by name (``args.get("quality")``, ``"path" in args``). The service
hands it the arguments in a :class:`ReadArguments`, which notes each name looked up; an argument the accepted
action never looked at did nothing, so the action is refused with the arguments it did read (and the closest
one, for a misspelling). A system that reads its arguments wholesale (``dict(args)``) marks them all read: the
check then stands aside rather than refuse a name it cannot judge.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.contract import InvalidActionError


class ReadArguments(Mapping[str, Any]):
    """An action's arguments that remember which names were looked up."""

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
