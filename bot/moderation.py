"""The moderators' room: ``mod assign``, ``mod substitute``, ``mod abandon``, ``mod correct`` (a room beside the
game systems; a system may add its own ``mod`` commands, e.g. the ASL campaign's ``mod load-table``).

Every moderator action is logged in the game. After a correction the game's system may add what it needs
(:meth:`bot.systems.base.Room.after_correct`: a campaign starts a new correction epoch).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.commands.definitions import CommandDef, OptionDef, opt
from bot.commands.replies import Context, Handler, Reply, seats_line
from bot.service.game_types import moderator_seats
from bot.systems.base import Layer, Room

COMMANDS: tuple[CommandDef, ...] = (
    CommandDef(
        "mod assign",
        "Moderator (or creator before the start): seat a player.",
        (opt("seat", "the seat", "seat"), OptionDef("user", "the player", "user")),
    ),
    CommandDef(
        "mod substitute",
        "Moderator: replace the player of a seat (logged in the game).",
        (opt("seat", "the seat", "seat"), OptionDef("user", "the new player", "user")),
    ),
    CommandDef("mod abandon", "Moderator: abandon the game (logged).", (opt("reason", "why"),)),
    CommandDef(
        "mod correct",
        "Moderator: take back the last actions, whoever made them (logged).",
        (OptionDef("count", "how many actions", "integer", True, None, 1, 100), opt("reason", "why")),
    ),
)
"""The moderators' commands."""


class ModeratorRoom(Room):
    """The moderators' commands (the ``mod`` group)."""

    commands = COMMANDS
    groups: ClassVar[Mapping[str, str]] = {"mod": "Moderators: fix a game (logged)."}

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        async def assign(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            before = (await layer.service.table(ctx.channel)).user_of(o["seat"])
            table = await layer.service.assign(ctx.channel, ctx.caller, o["seat"], int(o["user"]))
            displaced = before if before not in (None, int(o["user"])) else None
            told = f" <@{displaced}> no longer holds it." if displaced is not None else ""
            role = moderator_seats(layer.service.system(table.game.system)).get(o["seat"])
            if role is not None:  # the service checks the role when the seat acts, whoever seated them
                told += f" Only a moderator acts for this seat ({role})."
            return [
                Reply("Done."),
                Reply(
                    f"<@{o['user']}> now holds the **{o['seat']}** seat (by <@{ctx.caller.user_id}>).{told} "
                    f"{seats_line(table)}",
                    to="channel",
                    ephemeral=False,
                    mentions=(int(o["user"]),) + ((displaced,) if displaced is not None else ()),
                ),
            ]

        async def abandon(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            outcome = await layer.service.abandon(ctx.channel, ctx.caller, o["reason"])
            text = outcome.result.text if outcome.result else ""
            return [Reply("Done."), layer.game_over(ctx, outcome.table, text), *layer.record_at_end(ctx, outcome.table)]

        async def correct(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            outcome = await layer.service.correct(ctx.channel, ctx.caller, int(o["count"]), o["reason"])
            who = f"<@{ctx.caller.user_id}>"
            text = f"**Correction** by {who}: took back {len(outcome.undone)} action(s): {o['reason']}."
            replies = [Reply("Corrected."), Reply(text, to="channel", ephemeral=False)]
            table = outcome.table
            if (after := await layer.room_of(table.game.system).after_correct(layer, ctx)) is not None:
                replies += after[0]
                table = after[1]
            private = outcome.private_prompts
            return replies + await layer.prompt_replies(ctx, table, outcome.prompts, {}, private=private)

        return {"mod assign": assign, "mod substitute": assign, "mod abandon": abandon, "mod correct": correct}
