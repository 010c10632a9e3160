"""The ``league ...`` commands: parse, ask the league room, turn the answer into replies.

The games a round starts are announced in their own threads (the players pinged, the first prompts posted
there as in any game); the league channel gets the pairings.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.commands.definitions import CommandDef, OptionDef, opt
from bot.commands.replies import Attachment, Context, Handler, Reply
from bot.leagues.service import LeagueService, Started
from bot.leagues.standings import SWISS, TIEBREAK_NAMES, Row
from bot.leagues.store import LeagueRow, Pairing
from bot.service.game_service import Refusal
from bot.systems.base import Layer, Room
from render.table_picture import table_picture

COMMANDS: tuple[CommandDef, ...] = (
    CommandDef(
        "league create",
        "Organiser: open a league in this channel (each pairing's game gets its own thread here).",
        (
            opt("name", "the league's name"),
            opt("scenario", "the scenario the rounds play (a round may change it)", "scenario"),
            opt("system", "the game system, any two-seat one (default: the bundled game)", "system", False),
            opt("format", "swiss (default), round-robin, or both-sides (twice, sides swapped)", None, False),
            OptionDef("rounds", "Swiss: how many rounds", "integer", False, None, 1, 30),
            opt("options", "optional rules of every game, separated by commas", "option", False),
            OptionDef("days_per_move", "correspondence: days per move (0: live play)", "number", False, None, 0, 60),
            OptionDef("reserve_days", "correspondence: reserve of days", "number", False, None, 0, 120),
            OptionDef("round_days", "days each round lasts (0: no deadline)", "number", False, None, 0, 365),
            opt("levels", "victory levels worth less than a win, e.g. german-defensive=0.75", None, False),
        ),
    ),
    CommandDef(
        "league join", "Register for this channel's league.", (opt("side", "preferred side, or none", None, False),)
    ),
    CommandDef("league leave", "Withdraw your registration before the league starts."),
    CommandDef("league close", "Organiser: close registration; the season can start."),
    CommandDef(
        "league add",
        "Organiser: register a player (late entries too, in a Swiss).",
        (OptionDef("user", "the player", "user"), opt("side", "preferred side, or none", None, False)),
    ),
    CommandDef(
        "league remove", "Organiser: remove or withdraw a player (logged).", (OptionDef("user", "the player", "user"),)
    ),
    CommandDef(
        "league round",
        "Organiser: pair the next round and start its games, each in its own thread.",
        (
            opt("scenario", "this round's scenario (default: the last one)", "scenario", False),
            opt("system", "this round's game system (default: the last one)", "system", False),
        ),
        slow=True,
    ),
    CommandDef("league standings", "The league's standings and the current round.", slow=True),
    CommandDef(
        "league player",
        "A player's ratings, record by side and reliability on this server.",
        (OptionDef("user", "the player (default: you)", "user", False),),
        private=True,
    ),
    CommandDef("league late", "The league's games past their deadline.", private=True),
    CommandDef(
        "league forfeit",
        "Organiser: a player forfeits a league game being played (logged).",
        (
            OptionDef("player", "the player who forfeits", "user"),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league adjudicate",
        "Organiser: decide a league game being played (logged).",
        (
            OptionDef("winner", "the winner (none: a draw)", "user", False),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league correct",
        "Organiser: correct a decided result (logged); standings and ratings follow.",
        (
            OptionDef("winner", "the winner (none: a draw)", "user", False),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            opt("reason", "why", None, False),
        ),
    ),
    CommandDef(
        "league extend",
        "Organiser: give a league game more days (logged).",
        (
            OptionDef("days", "how many days", "number", True, None, 0.5, 60),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
        ),
    ),
    CommandDef("league export", "The standings and every result, as CSV files.", private=True),
    CommandDef("league log", "The league's log: every organiser decision.", private=True),
)
"""The league commands."""


class LeagueRoom(Room):
    """The leagues, a room beside the game systems: the ``league`` group."""

    commands = COMMANDS
    groups: ClassVar[Mapping[str, str]] = {"league": "Leagues: registration, rounds, standings, ratings."}

    def handlers(self, layer: Layer) -> dict[str, Handler]:
        return handlers(layer)


def handlers(layer: Layer) -> dict[str, Handler]:
    """The league commands' handlers over a layer (the league room starts listening to game ends here)."""
    commands = LeagueCommands(layer, LeagueService(layer.service))
    return {
        "league create": commands.create,
        "league join": commands.join,
        "league leave": commands.leave,
        "league close": commands.close,
        "league add": commands.add,
        "league remove": commands.remove,
        "league round": commands.round,
        "league standings": commands.standings,
        "league player": commands.player,
        "league late": commands.late,
        "league forfeit": commands.forfeit,
        "league adjudicate": commands.adjudicate,
        "league correct": commands.correct,
        "league extend": commands.extend,
        "league export": commands.export,
        "league log": commands.log,
    }


def _public(text: str, channel: int | None = None, mentions: Sequence[int] = ()) -> Reply:
    return Reply(text[:1900], to="channel", ephemeral=False, channel=channel, mentions=tuple(mentions))


def _score(value: float) -> str:
    return f"{value:g}"


def _date(when: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when)) if when else "no deadline"


class LeagueCommands:
    """The handlers of the ``league`` commands."""

    def __init__(self, layer: Layer, room: LeagueService) -> None:
        self.layer = layer
        self.room = room

    async def create(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        names = [n.strip() for n in str(o.get("options", "")).split(",") if n.strip()]
        league = await self.room.create(
            guild=ctx.guild,
            channel=ctx.channel,
            caller=ctx.caller,
            name=o["name"],
            system_id=str(o.get("system") or self.layer.default_system),
            scenario=o["scenario"],
            options=dict.fromkeys(names, True),
            format_=str(o.get("format") or SWISS).strip().lower(),
            rounds=int(o.get("rounds", 0)),
            days_per_move=float(o.get("days_per_move", 0)),
            reserve_days=float(o.get("reserve_days", 0)),
            round_days=float(o.get("round_days", 0)),
            level_scores=parse_level_scores(str(o.get("levels", ""))),
        )
        seats = self.room.seats(league.system)
        rounds = f"{league.rounds} rounds" if league.format == SWISS else "every pairing"
        clock = (
            f"{league.days_per_move:g} days per move, {league.reserve_days:g} reserve"
            if league.days_per_move
            else "live"
        )
        terms = [
            f"time control {clock}",
            f"{league.round_days:g} days per round" if league.round_days else "no round deadline",
        ]
        if league.level_scores:
            levels = ", ".join(f"{level} {score:g}-{1 - score:g}" for level, score in league.level_scores.items())
            terms.append(f"victory levels: {levels}")
        text = (
            f"**League {league.name}** opens: {self.room.games.system(league.system).name}, {league.scenario}, "
            f"{league.format} ({rounds}); {'; '.join(terms)}.\n"
            f"Register with `/league join` (side {seats[0]}, {seats[1]} or none)."
        )
        return [Reply("League created."), _public(text)]

    async def join(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league = await self.room.join(ctx.channel, ctx.caller, o.get("side"))
        count = len([e for e in await self.room.store.entrants(league.id) if not e.withdrawn])
        return [
            Reply(f"You are registered in {league.name}."),
            _public(f"<@{ctx.caller.user_id}> joins {league.name} ({count} registered)."),
        ]

    async def leave(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league = await self.room.leave(ctx.channel, ctx.caller)
        return [Reply(f"You left {league.name}."), _public(f"<@{ctx.caller.user_id}> left {league.name}.")]

    async def close(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league = await self.room.close(ctx.channel, ctx.caller)
        entrants = [e for e in await self.room.store.entrants(league.id) if not e.withdrawn]
        text = (
            f"**{league.name}**: registration closed with {len(entrants)} players; {league.rounds} rounds. "
            "The organiser pairs each round with `/league round`."
        )
        return [Reply("Registration closed."), _public(text)]

    async def add(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o["user"])
        league = await self.room.add(ctx.channel, ctx.caller, user, f"player {user}", o.get("side"))
        text = (
            f"<@{user}> is registered in {league.name} (by the organiser); `/league join` sets your name in the "
            "standings and your side."
        )
        return [Reply("Added."), _public(text, None, [user])]

    async def remove(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o["user"])
        league = await self.room.remove(ctx.channel, ctx.caller, user)
        return [Reply("Removed."), _public(f"<@{user}> is no longer in {league.name} (by the organiser).")]

    async def round(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        opener = self.layer.open_thread
        if opener is None:
            raise Refusal("a league round opens a thread per game: run it on Discord")
        round_, pairings, started = await self.room.next_round(
            ctx.channel, ctx.caller, opener, guild=ctx.guild, scenario=o.get("scenario"), system_id=o.get("system")
        )
        league = await self.room.league(ctx.channel)
        seats = self.room.seats(round_.system)
        lines = [f"**{league.name}, round {round_.number}** ({round_.scenario}); deadline {_date(round_.deadline)}:"]
        for p in pairings:
            lines.append(self._pairing_line(p, seats))
        replies = [Reply(f"Round {round_.number} paired."), _public("\n".join(lines), ctx.channel)]
        for item in started:
            replies += await self._thread_replies(ctx, league, round_.deadline, seats, item)
        return replies

    @staticmethod
    def _pairing_line(p: Pairing, seats: tuple[str, str]) -> str:
        if p.second is None:
            return f"- bye: <@{p.first}> ({_score(p.first_score or 0)} point)"
        where = f"<#{p.thread}>" if p.thread else "thread being made"
        result = (
            f" {_score(p.first_score)}-{_score(p.second_score or 0)} ({p.how})" if p.first_score is not None else ""
        )
        game = f"game #{p.game}" if p.game is not None else "game being made"  # a restart mid-creation
        return f"- {game}: <@{p.first}> ({seats[0]}) v <@{p.second}> ({seats[1]}), {where}{result}"

    async def _thread_replies(
        self, ctx: Context, league: LeagueRow, deadline: float | None, seats: tuple[str, str], item: Started
    ) -> list[Reply]:
        p = item.pairing
        assert p.thread is not None and p.second is not None
        here = Context(ctx.caller, p.thread, ctx.guild)
        text = (
            f"<@{p.first}> ({seats[0]}) v <@{p.second}> ({seats[1]}): {league.name}, round {p.round}, game #{p.game}. "
            f"Deadline {_date(deadline)}."
        )
        replies = [_public(text, p.thread, [p.first, p.second])]
        if item.outcome is not None:
            for reply in await self.layer.outcome_replies(here, item.outcome, "Game started."):
                if reply.to == "caller" and reply.ephemeral:
                    continue  # the organiser's own "started" notes: one answer is enough
                replies.append(dataclasses.replace(reply, channel=reply.channel or p.thread))
        return replies

    async def standings(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league, rows, names = await self.room.standings(ctx.channel)
        rounds = await self.room.store.rounds(league.id)
        text = standings_text(league, rows, names, len(rounds))
        pairings = [p for p in await self.room.store.pairings(league.id) if rounds and p.round == rounds[-1].number]
        if pairings:
            seats = self.room.seats(rounds[-1].system)
            text += f"\nRound {rounds[-1].number}:\n" + "\n".join(self._pairing_line(p, seats) for p in pairings)
        png = await asyncio.to_thread(standings_picture, league, rows, names, len(rounds))
        return [Reply(text[:1900], to="channel", ephemeral=False, files=(Attachment("standings.png", png),))]

    async def player(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o.get("user") or ctx.caller.user_id)
        card = await self.room.player(ctx.guild, user)
        lines = [f"**<@{user}>** in this server's leagues:"]
        for system, (rating, seats, records) in card.systems.items():
            shown = f"{rating.rating:.0f} ± {2 * rating.deviation:.0f}" if rating else "unrated"
            lines.append(
                f"- {system}: rating {shown}; as {seats[0]} {records[0]}, as {seats[1]} {records[1]} (won-drawn-lost)"
            )
        r = card.reliability
        if r.games:
            lines.append(
                f"Reliability {100 * (r.figure or 0):.0f}%: {r.on_time} of {r.games} games played out on time; "
                f"resigned {r.resigned}, forfeited {r.forfeited}."
            )
        else:
            lines.append("No league game decided yet.")
        return [Reply("\n".join(lines))]

    async def late(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league, late = await self.room.late(ctx.channel)
        if not late:
            return [Reply(f"No game of {league.name} is past its deadline.")]
        lines = [f"Games of {league.name} past their deadline:"]
        lines += [
            f"- game #{p.game} (<#{p.thread}>): <@{p.first}> v <@{p.second}>, due {_date(p.deadline)}" for p in late
        ]
        lines.append("An organiser may `league forfeit`, `league adjudicate` or `league extend` them.")
        return [Reply("\n".join(lines))]

    async def forfeit(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        loser = int(o["player"])
        league = await self.room.league(ctx.channel)
        pairing = await self.room.pairing_for(league, ctx.channel, o.get("game"))
        if loser not in (pairing.first, pairing.second):
            raise Refusal(f"<@{loser}> does not play game #{pairing.game}")
        winner = pairing.second if loser == pairing.first else pairing.first
        return await self._decided(ctx, o, "forfeit", winner)

    async def adjudicate(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        winner = int(o["winner"]) if o.get("winner") else None
        return await self._decided(ctx, o, "adjudicated", winner)

    async def _decided(self, ctx: Context, o: dict[str, Any], how: str, winner: int | None) -> list[Reply]:
        pairing, outcome = await self.room.decide(
            ctx.channel, ctx.caller, o.get("game"), how, winner, o.get("reason", "")
        )
        assert pairing.thread is not None
        here = Context(ctx.caller, pairing.thread, ctx.guild)
        over = self.layer.game_over(here, outcome.table, outcome.result.text if outcome.result else "")
        note = f"Game #{pairing.game} {how}: {_score(pairing.first_score or 0)}-{_score(pairing.second_score or 0)}."
        return [Reply(note), dataclasses.replace(over, channel=pairing.thread)]

    async def correct(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        winner = int(o["winner"]) if o.get("winner") else None
        pairing = await self.room.correct(ctx.channel, ctx.caller, o.get("game"), winner, o.get("reason", ""))
        text = (
            f"**Correction** by <@{ctx.caller.user_id}>: game #{pairing.game} now "
            f"{_score(pairing.first_score or 0)}-{_score(pairing.second_score or 0)} "
            f"(<@{pairing.first}> v <@{pairing.second}>): {o.get('reason') or 'no reason given'}."
        )
        return [Reply("Corrected."), _public(text)]

    async def extend(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        pairing = await self.room.extend(ctx.channel, ctx.caller, o.get("game"), float(o["days"]))
        text = f"Game #{pairing.game} now has until {_date(pairing.deadline)} (by the organiser)."
        return [Reply("Extended."), _public(text, pairing.thread)]

    async def log(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league = await self.room.league(ctx.channel)
        lines = [
            f"{_date(line['time'])}: {line['kind']}: {line['text']}"
            + (f" (<@{line['moderator']}>)" if line["moderator"] else "")
            for line in await self.room.store.log_lines(league.id)
        ]
        shown = "\n".join(lines[-25:]) or "nothing yet"
        return [Reply(f"**{league.name}**, the organisers' log (latest 25):\n{shown}"[:1900])]

    async def export(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league, table, results = await self.room.export(ctx.channel)
        slug = "".join(c if c.isalnum() else "-" for c in league.name.lower())
        files = (
            Attachment(f"{slug}-standings.csv", table.encode()),
            Attachment(f"{slug}-games.csv", results.encode()),
        )
        return [Reply(f"{league.name}: the standings and every result.", files=files)]


def parse_level_scores(text: str) -> dict[str, float]:
    """``german-defensive=0.75, allied-marginal=0.6`` into a mapping.

    :raises Refusal: for a piece that is not ``level=score``.
    """
    found: dict[str, float] = {}
    for piece in text.replace(",", " ").split():
        level, sep, value = piece.partition("=")
        try:
            found[level] = float(value)
        except ValueError:
            sep = ""
        if not sep or not level:
            raise Refusal(f"write the victory levels as level=score, e.g. german-defensive=0.75, not {piece[:40]!r}")
    return found


def _title(league: LeagueRow, rounds_played: int) -> str:
    status = {"registration": "registration open", "finished": "final"}.get(league.status, "")
    return f"{league.name}: standings after round {rounds_played} of {league.rounds}" + (
        f" ({status})" if status else ""
    )


def standings_picture(league: LeagueRow, rows: Sequence[Row], names: dict[int, str], rounds_played: int) -> bytes:
    """The standings as a picture a phone shows whole."""
    first, second = TIEBREAK_NAMES[league.format]
    lines = [
        [str(r.rank), names.get(r.player, str(r.player)), _score(r.score), f"{r.wins}-{r.draws}-{r.losses}",
         _score(r.tiebreaks[0]), _score(r.tiebreaks[1])]
        for r in rows
    ]  # fmt: skip
    return table_picture(_title(league, rounds_played), ["#", "player", "pts", "W-D-L", first, second], lines)


def standings_text(league: LeagueRow, rows: Sequence[Row], names: dict[int, str], rounds_played: int) -> str:
    """The standings as a narrow monospaced table (it fits a phone's width)."""
    first, second = TIEBREAK_NAMES[league.format]
    title = f"**{_title(league, rounds_played)}**"
    lines = [f"{'#':>2} {'player':<12} {'pts':>4} {'W-D-L':>6} {first[:3]:>4} {second[:3]:>4}"]
    for row in rows:
        record = f"{row.wins}-{row.draws}-{row.losses}"
        lines.append(
            f"{row.rank:>2} {names.get(row.player, str(row.player))[:12]:<12} {_score(row.score):>4} "
            f"{record:>6} {_score(row.tiebreaks[0]):>4} {_score(row.tiebreaks[1]):>4}"
        )
    return title + "\n```\n" + "\n".join(lines) + "\n```"
