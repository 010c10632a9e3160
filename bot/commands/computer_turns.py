"""The computer's turns as messages: what each of its decisions posts, and the line that explains it.

:meth:`ComputerTurns.computer_turn` plays one decision of a computer seat (:meth:`GameService.computer_move`) and
turns it into the same channel messages a human's action posts (the account, the next prompts, the map after an
activation), without the answers a human caller reads privately and with no ping for the computer's seat. The
computer's plan for an activation, the line it gave with the decision that opened it (an ``activation`` event),
else its first line since its last picture, is kept until the activation closes and then posted after the picture
(:attr:`ComputerTurn.explanation`), or, when its decision ends the game, after the account and before the result;
the reasons of a sealed decision are never posted (they would tell it). The
transports call it until it answers ``None`` after every change of a game (Discord in a task of its own per channel,
the console in turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.commands.prompting import Prompting
from bot.commands.replies import Context, Reply
from bot.service.computer import COMPUTER

ACTIVATION = "activation"
"""The kind of event that opens an activation (the picture after it shows the activation from there on)."""

EXPLANATION_LIMIT = 300
"""The longest explanation posted, in characters (a line, not an essay)."""


@dataclass(frozen=True)
class ComputerTurn:
    """The messages of one decision of the computer: ``replies`` (pictures to draw included), then, once they
    are posted and their pictures drawn, ``explanation``."""

    replies: list[Reply]
    explanation: Reply | None = None


class ComputerTurns(Prompting):
    """The computer's decisions as messages (a part of the command layer)."""

    _plans: dict[tuple[int, str], str]
    """Per game and computer seat, its plan for its activation under way, posted when it closes."""

    async def computer_turn(self, channel: int) -> ComputerTurn | None:
        """Play one decision of a computer seat of the channel's game; ``None`` when none has anything to decide."""
        move = await self.service.computer_move(channel)
        if move is None:
            return None
        plans = self._plans
        outcome = move.outcome
        notes = [Reply(move.note, to="channel", ephemeral=False, channel=channel)] if move.note else []
        if outcome is None:
            return ComputerTurn(notes)
        game = outcome.table.game
        ctx = Context(COMPUTER, channel, game.guild)
        key = (game.id, move.seat)
        opens = any(e.get("kind") == ACTIVATION for e in outcome.events)  # the decision that opened an activation
        if move.explanation and not move.sealed and (opens or key not in plans):  # sealed: its reasons would tell it
            plans[key] = move.explanation[:EXPLANATION_LIMIT]
        explanation = None
        if (outcome.picture_due or outcome.result is not None) and key in plans:
            text = f"**{move.seat}** (the computer, {move.level}): {plans.pop(key)}"
            explanation = Reply(text, to="channel", ephemeral=False, channel=channel)
        if outcome.result is not None:  # its reason for the last move comes before the result and the record
            ending = await self.outcome_replies(ctx, outcome, "", before_result=explanation)
            return ComputerTurn(notes + [r for r in ending if r.to != "caller" or not r.ephemeral])
        replies = [r for r in await self.outcome_replies(ctx, outcome, "") if r.to != "caller" or not r.ephemeral]
        return ComputerTurn(notes + replies, explanation)
