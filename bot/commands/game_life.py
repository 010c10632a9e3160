"""A game's life: ``game create``, ``join``, ``leave``, ``start``, ``status``, ``resign`` (confirmed first),
``undo``, ``vacation``, ``accept-vacation``, ``end-vacation``, ``claim-timeout``, ``verify``.

:class:`GameLife` is a part of the command layer (:class:`bot.commands.layer.CommandLayer` inherits it).
"""

from __future__ import annotations

from typing import Any

from bot.commands import info
from bot.commands.clock_notices import clock_lines
from bot.commands.prompting import Prompting
from bot.commands.replies import Button, Context, Reply, custom_id, seats_line, who
from bot.service.timekeeping import DEFAULT_VACATION_DAYS
from bot.service.verification import Verification
from bot.service.version import bot_version


class GameLife(Prompting):
    """The handlers of the ``game`` commands."""

    default_system: str

    async def _create(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        names = [n.strip() for n in str(o.get("options", "")).split(",") if n.strip()]
        table = await self.service.create(
            guild=ctx.guild,
            channel=ctx.channel,
            caller=ctx.caller,
            system_id=str(o.get("system") or self.default_system),
            scenario=o["scenario"],
            options=dict.fromkeys(names, True),
            days_per_move=float(o.get("days_per_move", 0)),
            reserve_days=float(o.get("reserve_days", 0)),
            vacation_days=float(o["vacation_days"]) if o.get("vacation_days") is not None else None,
        )
        game = table.game
        system = self.service.system(game.system)
        tc = game.time_control
        clock = (
            f"{tc['days_per_move']:g} days per move, {tc['reserve_days']:g} days reserve, "
            f"{tc.get('vacation_days', DEFAULT_VACATION_DAYS):g} vacation days per player"
            if tc
            else "live play"
        )
        text = (
            f"**Game #{game.id} created**: {system.name}, scenario {game.scenario}; "
            f"optional rules: {', '.join(names) or 'none'}; time control: {clock}.\n"
            f"Seats: {', '.join(table.seats)}. Take one with `game join`, then `game start`.\n"
            f"Dice commitment (SHA-256 of the secret seed, revealed at the end): `{game.seed_hash}`"
        )
        return [Reply("Game created.", channel=ctx.channel), Reply(text, to="channel", ephemeral=False)]

    async def _join(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.join(ctx.channel, ctx.caller, o.get("seat"))
        seat = ", ".join(table.seats_of(ctx.caller.user_id))
        return [
            Reply(f"You hold the {seat} seat."),
            Reply(
                f"<@{ctx.caller.user_id}> takes the **{seat}** seat. {seats_line(table)}",
                to="channel",
                ephemeral=False,
            ),
        ]

    async def _leave(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.leave(ctx.channel, ctx.caller)
        return [
            Reply("You left the game."),
            Reply(f"<@{ctx.caller.user_id}> left. {seats_line(table)}", to="channel", ephemeral=False),
        ]

    async def _start(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.start(ctx.channel, ctx.caller)
        replies = await self.outcome_replies(ctx, outcome, "Game started.")
        briefing = await info.brief_at_start(self.as_layer(), ctx)  # bot/commands/info.py
        reports = await info.turn_reports(self.as_layer(), ctx, outcome, at_start=True)
        return replies[:1] + briefing + reports + replies[1:]

    async def _status(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel, live=False)
        game = table.game
        lines = [f"**Game #{game.id}** ({game.system}, {game.scenario}): {game.status}. {seats_line(table)}"]
        if game.status in ("active", "finished", "abandoned"):
            lines.append(await self.service.describe(ctx.channel, ctx.caller, "status"))
        if game.result:
            lines.append(f"Result: {game.result.get('text')}")
        prompts = await self.service.prompts(game)
        private = await self.service.private_prompts(game)
        for seat, prompt in prompts.items():
            if prompt.optional:
                lines.append(f"**{seat}** may react (optional).")
            else:
                lines.append(f"Waiting for **{seat}** ({who(table, seat)})" + ("." if private else f": {prompt.text}"))
        if game.status == "active":
            lines += clock_lines(await self.service.seat_clocks(table))
        lines.append(f"Umpire {bot_version()}.")
        return [Reply("\n".join(lines), ephemeral=False)]

    async def _resign(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """Asks first: resigning ends the game at once."""
        table = await self.service.table(ctx.channel)
        if table.game.status != "active" or not table.seats_of(ctx.caller.user_id):
            return await self._resign_now(ctx)  # the service says why it cannot be done
        game, state = table.game.id, table.game.revision
        return [
            Reply(
                "Resign the game? Your opponent wins at once and the dice seed is revealed.",
                buttons=(
                    Button("Confirm", custom_id(game, state, "rsy", "0"), "danger"),
                    Button("Cancel", custom_id(game, state, "rsn", "0")),
                ),
            )
        ]

    async def _resign_now(self, ctx: Context) -> list[Reply]:
        outcome = await self.service.resign(ctx.channel, ctx.caller)
        return [
            Reply("You resigned."),
            self.game_over(ctx, outcome.table, outcome.result.text if outcome.result else ""),
            *self.record_at_end(ctx, outcome.table),
        ]

    async def _undo(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.undo(ctx.channel, ctx.caller)
        row = outcome.undone[-1]
        head = f"<@{ctx.caller.user_id}> (**{row.seat}**) took back their last action"
        # What was taken back, in the words of its events as the channel read them (under fog of war, only
        # what both sides may see), never the engine's verb and arguments.
        told = "".join(f"\n- {e['text']}" for e in outcome.public_events)
        notice = (f"{head}:{told}" if told else f"{head}.")[:1900]
        own = "".join(f"\n- {e['text']}" for e in row.events if not e.get("secret_to") or row.seat in e["secret_to"])
        mine = f"Undone:{own}" if outcome.private_prompts and own else "Undone."  # the undoer reads it all
        replies = [Reply(mine[:1900]), Reply(notice, to="channel", ephemeral=False)]
        return replies + await self.prompt_replies(
            ctx, outcome.table, outcome.prompts, {}, private=outcome.private_prompts
        )

    async def _vacation(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table, opponents = await self.service.request_vacation(ctx.channel, ctx.caller, int(o["days"]))
        now = self.service.clock()
        running = any((table.seats[s].vacation_until or 0) > now for s in table.seats_of(ctx.caller.user_id))
        asked = "an extension of their vacation by" if running else "a vacation of"
        pings = " ".join(f"<@{u}>" for u in opponents)
        return [
            Reply("Asked."),
            Reply(
                f"{pings}: <@{ctx.caller.user_id}> asks for {asked} {o['days']} day(s); accept with "
                "`game accept-vacation`.",
                to="channel",
                ephemeral=False,
                mentions=tuple(opponents),
            ),
        ]

    async def _accept_vacation(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table, seats = await self.service.accept_vacation(ctx.channel, ctx.caller)
        users = tuple(sorted({u for s in seats if (u := table.user_of(s)) is not None}))
        ends = ", ".join(f"{s} until <t:{int(table.seats[s].vacation_until or 0)}:f>" for s in seats)
        text = (
            f"{' '.join(f'<@{u}>' for u in users)}: vacation granted ({ends}): the clock stands still and no "
            "reminders come until it ends; `game end-vacation` ends it early."
        )
        return [Reply("Accepted."), Reply(text, to="channel", ephemeral=False, mentions=users)]

    async def _end_vacation(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        _, seats, opponents = await self.service.end_vacation(ctx.channel, ctx.caller)
        pings = " ".join(f"<@{u}>" for u in opponents)
        text = f"{pings}: <@{ctx.caller.user_id}> ({', '.join(seats)}) is back: the clock runs again where it stopped."
        return [Reply("Welcome back."), Reply(text, to="channel", ephemeral=False, mentions=tuple(opponents))]

    async def _claim_timeout(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        outcome = await self.service.claim_timeout(ctx.channel, ctx.caller)
        text = outcome.result.text if outcome.result else ""
        return [Reply("Claimed."), self.game_over(ctx, outcome.table, text), *self.record_at_end(ctx, outcome.table)]

    async def _verify(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await self.service.table(ctx.channel, live=False)
        posted = [str(o["head"]).strip().strip("`").lower()] if o.get("head") else []
        if posted and (len(posted[0]) < 16 or any(c not in "0123456789abcdef" for c in posted[0])):
            return [Reply("Give a chain head as the bot posted it: 16 to 64 hexadecimal digits.")]
        checked = await self.service.verify(table.game.id, posted)
        return [Reply(verification_text(checked))]

    async def _record(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """``game record``: the record as the caller may see it, attached to a private answer once it is made. While
        the game is played a player gets their own side's view and anyone else a spectator's; after the end any."""
        table = await self.service.table(ctx.channel, live=False)
        game = table.game
        mine = table.seats_of(ctx.caller.user_id)
        seat = str(o["seat"]) if o.get("seat") else (mine[0] if len(mine) == 1 else None)
        if seat is not None and seat not in table.seats:
            return [Reply(f"There is no seat {seat!r}; the seats are {', '.join(table.seats)}.")]
        if game.live and seat is not None and seat not in mine:
            return [Reply(f"Only the {seat} player may have that side's record while the game is played.")]
        view = f"the {seat} side's view" if seat else "a spectator's view"
        waits = " (while the game is played, the dice checks await the seed's reveal at the end)" if game.live else ""
        return [
            Reply(
                f"The record of game #{game.id}, {view}{waits}: open it in any browser.",
                picture=self.record_job(game.id, seat),
                picture_name=f"game-{game.id}-record.html",
            )
        ]


def verification_text(checked: Verification) -> str:
    """A verification in words, layer by layer: what each checked, then its problems and notes."""
    game = checked.game
    if checked.problems:
        verdict = f"Verification FAILED: {len(checked.problems)} problem(s), in the layers marked FAILED below."
    elif checked.notes:
        verdict = "Verification passed; what the notes below name could not be replayed with the rules."
    else:
        verdict = "Verification passed: every layer holds."
    lines = [verdict, f"Game #{game.id}: seed `{game.seed}`, published hash `{game.seed_hash}`."]
    for layer in checked.layers:
        verdict = "FAILED" if layer.problems else "holds"
        lines.append(f"- {layer.name}: {verdict} ({layer.checked})")
        lines += [f"  - PROBLEM: {p}" for p in layer.problems]
        lines += [f"  - note: {n}" for n in layer.notes]
    lines.append(
        f"Chain head `{checked.head}`: compare it with the last head the bot posted in the channel (with each map, "
        "and in full at the end), or give that head to this command to find it in the chain."
    )
    return "\n".join(lines)
