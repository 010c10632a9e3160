"""Prompts that retire themselves: a superseded prompt's message loses its buttons and says so.

A prompt is posted with buttons that answer for one seat of one game at one position (their custom ids carry
the game, the position and the seat). When a newer prompt for the same seat is posted (in the channel or by
DM), every older message that asked that seat is edited: its buttons go and a line says a newer prompt asks
now, so no visible button answers "earlier position" or "nothing to decide". An answered prompt (its button
accepted) retires too, and so does one whose button, clicked, turns out stale. Kept in memory, for the most
recent messages only: after a restart, an old button retires when it is clicked.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.commands.layer import Reply, parse_custom_id

PROMPT_VERBS = ("c", "s", "dm")
"""Custom-id verbs of a seat's prompt: a numbered choice, a select menu, "Show my choices"."""
KEPT = 4096
"""How many seats' prompt messages are remembered (the oldest is forgotten first)."""
SUPERSEDED = "\n*(Superseded: a newer prompt asks this now.)*"
STALE_ANSWERS = (
    "Refused: That choice belongs to an earlier position",
    "Refused: You have nothing to decide now",
    "You have nothing to decide now",
)
"""The answers to a stale prompt's button: the message it was clicked on is retired then (kept prompts are
retired when superseded; one posted before a restart, when clicked)."""
ANSWERED = "\n*(Answered.)*"


@dataclass(frozen=True)
class PromptMessage:
    """A message that asked a seat: where it is, what it said and at which position of the game."""

    channel: int
    message_id: int
    content: str
    revision: int


def asked_by(reply: Reply) -> tuple[int, str, int] | None:
    """The ``(game, seat, revision)`` a reply's prompt buttons answer for, or ``None`` for a reply without."""
    ids = [b.custom_id for b in reply.buttons] + [s.custom_id for s in reply.selects]
    for custom in ids:
        match = parse_custom_id(custom)
        if match is not None and match["verb"] in PROMPT_VERBS:
            return int(match["game"]), match["arg"].split(".")[0], int(match["state"])
    return None


class PromptMessages:
    """The messages that asked each seat of each game, newest last."""

    def __init__(self) -> None:
        self._asked: OrderedDict[tuple[int, str], list[PromptMessage]] = OrderedDict()

    def posted(self, game: int, seat: str, message: PromptMessage) -> list[PromptMessage]:
        """Remember a message that asks ``seat``; the older ones it supersedes (an earlier position), to edit."""
        key = (game, seat)
        kept = [m for m in self._asked.pop(key, []) if m.message_id != message.message_id]
        superseded = [m for m in kept if m.revision < message.revision]
        self._asked[key] = [*(m for m in kept if m.revision >= message.revision), message]
        while len(self._asked) > KEPT:
            self._asked.popitem(last=False)
        return superseded

    def answered(self, channel: int, message_id: int) -> PromptMessage | None:
        """Forget the message whose button was accepted; the message, to edit, if it was remembered."""
        for key, messages in self._asked.items():
            for message in messages:
                if message.channel == channel and message.message_id == message_id:
                    messages.remove(message)
                    if not messages:
                        del self._asked[key]
                    return message
        return None
