"""What a command is: its words, its options and what it does (:class:`CommandDef`, :class:`OptionDef`).

Pure data, shared by every room: the shared command layer (:mod:`bot.commands.layer`), each game system's room
(``bot/systems/<system>/commands.py``), the leagues (:mod:`bot.leagues.commands`) and the moderators
(:mod:`bot.moderation`) declare their commands with these; Discord (:mod:`bot.transports.cogs.slash`) and the console
(:mod:`bot.transports.console`) build their commands from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

OptionKind = Literal["text", "integer", "number", "boolean", "user", "attachment"]


@dataclass(frozen=True)
class OptionDef:
    """One option of a command."""

    name: str
    description: str
    kind: OptionKind = "text"
    required: bool = True
    autocomplete: str | None = None
    """The suggestion source (``unit``, ``hex``, ``target``, ``formation``, ``scenario`` ...), if any."""
    min_value: float | None = None
    max_value: float | None = None


@dataclass(frozen=True)
class CommandDef:
    """One command: its words, what it does, its options."""

    name: str
    """One word, or a group and a word (``"game create"``)."""
    description: str
    options: tuple[OptionDef, ...] = ()
    verb: str | None = None
    """For a play command: the engine verb it sends."""
    private: bool = False
    """Whether the answer is only for the caller (information commands)."""
    slow: bool = False
    """Whether it may take more than a moment (the transport acknowledges first)."""
    confirm: bool = False
    """Whether the player confirms a preview before the action is applied (attacks)."""
    form: bool = False
    """Whether it may answer with a form (:class:`bot.commands.replies.Form`): the transport then does not acknowledge
    first, since a form must be the first answer; such a command answers at once."""

    @property
    def words(self) -> tuple[str, ...]:
        """The command's words."""
        return tuple(self.name.split())


def opt(name: str, description: str, source: str | None = None, required: bool = True) -> OptionDef:
    """A text option (with ``source`` its suggestion source)."""
    return OptionDef(name, description, "text", required, source)


UNIT = opt("unit", "the unit (pick from the list)", "unit")
"""The usual unit option (several systems' commands take one)."""
