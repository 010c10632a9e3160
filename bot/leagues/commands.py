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
from bot.leagues.core import rounds_said
from bot.leagues.service import LeagueService, Started
from bot.leagues.sides import PRIOR_GAMES
from bot.leagues.standings import SWISS, TIEBREAK_NAMES, Row
from bot.leagues.store import LeagueRow, Pairing
from bot.service.game_service import Refusal
from bot.systems.base import Layer, Room
from render.record.season import season_page
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
            OptionDef(
                "round_every",
                "scheduled rounds: days between round starts (0: you start each)",
                "number",
                False,
                None,
                0,
                365,
            ),
            opt(
                "late_rule",
                "scheduled rounds: a game still going when the next starts: carry, forfeit, adjudicate",
                None,
                False,
            ),
            OptionDef("all_at_once", "round robin: start every game at once", "boolean", False),
        ),
    ),
    CommandDef(
        "league edit",
        "Organiser: change the league's rounds, time control, round days, schedule or levels (logged).",
        (
            OptionDef("rounds", "Swiss: how many rounds", "integer", False, None, 1, 30),
            OptionDef("days_per_move", "days per move of the games started from now", "number", False, None, 0, 60),
            OptionDef("reserve_days", "reserve of days of the games started from now", "number", False, None, 0, 120),
            OptionDef("round_days", "days each round lasts, from the next round", "number", False, None, 0, 365),
            OptionDef(
                "round_every", "days between scheduled round starts (0: you start each)", "number", False, None, 0, 365
            ),
            opt("late_rule", "a game still going when the next round starts: carry, forfeit, adjudicate", None, False),
            opt(
                "levels", "victory levels worth less than a win, e.g. german-defensive=0.75 (none: clear)", None, False
            ),
        ),
    ),
    CommandDef(
        "league end",
        "Organiser: end the season early; the games being played still count (logged).",
        (opt("reason", "why", None, False),),
    ),
    CommandDef(
        "league cancel",
        "Organiser: cancel the league; its games being played are abandoned, the channel is free (logged).",
        (opt("reason", "why", None, False),),
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
        "league remove",
        "Organiser: remove or withdraw a player; a game he is playing is forfeited (logged).",
        (OptionDef("user", "the player", "user"), opt("reason", "why", None, False)),
    ),
    CommandDef(
        "league reinstate",
        "Organiser: undo a withdrawal; the player is paired again from the next round (logged).",
        (OptionDef("user", "the player", "user"),),
    ),
    CommandDef(
        "league forbid",
        "Organiser: two players of a Swiss never meet (logged).",
        (OptionDef("player", "one player", "user"), OptionDef("other", "the other", "user")),
    ),
    CommandDef(
        "league pair",
        "Organiser: pair two players by hand in the next Swiss round (logged).",
        (OptionDef("first", "the first seat's player", "user"), OptionDef("second", "the second seat's", "user")),
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
        "league sides",
        "How much each scenario favours a side, from this server's rated league games (used in the ratings).",
        private=True,
    ),
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
            opt("level", "the victory level won, one the league scores below a full win", None, False),
        ),
    ),
    CommandDef(
        "league correct",
        "Organiser: correct a decided result (logged); standings and ratings follow.",
        (
            OptionDef("winner", "the winner (none: a draw)", "user", False),
            OptionDef("game", "the game's number (default: this thread's)", "integer", False, None, 1, 10**12),
            opt("reason", "why", None, False),
            opt("level", "the victory level won, one the league scores below a full win", None, False),
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
    CommandDef(
        "league export", "The standings and every result, as CSV files, and the season's web page.", private=True
    ),
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
        "league reinstate": commands.reinstate,
        "league forbid": commands.forbid,
        "league pair": commands.pair,
        "league edit": commands.edit,
        "league end": commands.end,
        "league cancel": commands.cancel,
        "league round": commands.round,
        "league standings": commands.standings,
        "league player": commands.player,
        "league late": commands.late,
        "league sides": commands.sides,
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
            round_every=float(o.get("round_every", 0)),
            late_rule=str(o.get("late_rule") or "carry").strip().lower(),
            all_at_once=bool(o.get("all_at_once", False)),
        )
        seats = self.room.seats(league.system)
        rounds = rounds_said(league.rounds) if league.format == SWISS else "every pairing"
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
        if league.round_every:
            terms.append(f"a round starts every {league.round_every:g} days, late games: {league.late_rule}")
        if league.all_at_once:
            terms.append("every game starts at once")
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
            f"**{league.name}**: registration closed with {len(entrants)} players; {rounds_said(league.rounds)}. "
            "The organiser pairs each round with `/league round`."
        )
        return [Reply("Registration closed."), _public(text)]

    async def add(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o["user"])
        name = ctx.names.get(user) or f"player {user}"
        league = await self.room.add(ctx.channel, ctx.caller, user, name, o.get("side"))
        text = f"<@{user}> is registered in {league.name} as {name} (by the organiser); `/league join` sets your side."
        return [Reply(f"Added {name}."), _public(text, None, [user])]

    async def remove(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o["user"])
        league, forfeited = await self.room.remove(ctx.channel, ctx.caller, user, o.get("reason", ""))
        text = f"<@{user}> is no longer in {league.name} (by the organiser)."
        if forfeited:
            games = ", ".join(f"#{p.game}" for p in forfeited)
            text += f" Game(s) {games} being played are forfeited to the opponent."
        if league.status == "running" and league.format != SWISS:
            text += " His games not yet started are walkovers, not rated."
        replies = [Reply("Removed."), _public(text)]
        replies += [_public(f"<@{user}> withdrew from {league.name}: forfeited.", p.thread) for p in forfeited]
        return replies

    async def reinstate(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        user = int(o["user"])
        league = await self.room.reinstate(ctx.channel, ctx.caller, user)
        text = f"<@{user}> is back in {league.name} (by the organiser), paired again from the next round."
        return [Reply("Reinstated."), _public(text, None, [user])]

    async def forbid(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        a, b = int(o["player"]), int(o["other"])
        await self.room.forbid(ctx.channel, ctx.caller, a, b)
        return [Reply(f"<@{a}> and <@{b}> will never be paired together.")]

    async def pair(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        first, second = int(o["first"]), int(o["second"])
        await self.room.fix_pairing(ctx.channel, ctx.caller, first, second)
        return [Reply(f"Next round: <@{first}> v <@{second}>, paired by hand; the others by the usual rules.")]

    async def edit(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        levels = o.get("levels")
        league, said = await self.room.edit(
            ctx.channel,
            ctx.caller,
            rounds=int(o["rounds"]) if "rounds" in o else None,
            days_per_move=float(o["days_per_move"]) if "days_per_move" in o else None,
            reserve_days=float(o["reserve_days"]) if "reserve_days" in o else None,
            round_days=float(o["round_days"]) if "round_days" in o else None,
            round_every=float(o["round_every"]) if "round_every" in o else None,
            late_rule=str(o["late_rule"]).strip().lower() if "late_rule" in o else None,
            level_scores=None if levels is None else parse_level_scores("" if levels == "none" else str(levels)),
        )
        text = f"**{league.name}** changed by <@{ctx.caller.user_id}>: " + "; ".join(said) + "."
        if league.status == "finished":
            text += " Every round is decided: the season is over."
        return [Reply("Changed."), _public(text)]

    async def end(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league, pending = await self.room.end(ctx.channel, ctx.caller, o.get("reason", ""))
        text = f"**{league.name}** ends early, after round {league.rounds} (by the organiser)."
        if pending:
            games = ", ".join(f"#{p.game}" for p in pending)
            text += f" The standings are final once game(s) {games} are decided."
        else:
            text += " The standings are final (`/league standings`)."
        return [Reply("Ended."), _public(text)]

    async def cancel(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        league, abandoned = await self.room.cancel(ctx.channel, ctx.caller, o.get("reason", ""))
        text = f"**{league.name}** is cancelled (by the organiser): {o.get('reason') or 'no reason given'}."
        if abandoned:
            text += f" Game(s) {', '.join(f'#{p.game}' for p in abandoned)} are abandoned, not rated."
        text += " A new league may be created in this channel."
        replies = [Reply("Cancelled."), _public(text)]
        replies += [_public(f"{league.name} is cancelled: this game is abandoned.", p.thread) for p in abandoned]
        return replies

    async def round(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        opener = self.layer.open_thread
        if opener is None:
            raise Refusal("a league round opens a thread per game: run it on Discord")
        here = await self.room.league(ctx.channel)
        going = [p for p in await self.room.store.pairings(here.id) if not p.decided and p.thread is not None]
        round_, pairings, started = await self.room.next_round(
            ctx.channel, ctx.caller, opener, guild=ctx.guild, scenario=o.get("scenario"), system_id=o.get("system")
        )
        league = await self.room.league(ctx.channel)
        seats = self.room.seats(round_.system)
        ruled = []  # games a scheduled round's rule for late games has just decided: their players are told
        for before in going:
            after = await self.room.store.pairing(before.id)
            if after is not None and after.decided and after.thread is not None:
                score = f"{_score(after.first_score or 0)}-{_score(after.second_score or 0)}"
                text = (
                    f"{league.name}: the next round started while this game was being played; by the league's "
                    f"rule for late games it is {after.how}, {score} (<@{after.first}> v <@{after.second}>)."
                )
                ruled.append(_public(text, after.thread, [after.first, after.second or 0]))
        numbers = sorted({p.round for p in pairings}) or [round_.number]
        named = f"round {numbers[0]}" if len(numbers) == 1 else f"rounds {numbers[0]} to {numbers[-1]}"
        lines = [f"**{league.name}, {named}** ({round_.scenario}); deadline {_date(round_.deadline)}:"]
        for p in pairings:
            lines.append(("" if len(numbers) == 1 else f"R{p.round} ") + self._pairing_line(p, seats))
        replies = [Reply(f"{named.capitalize()} paired."), _public("\n".join(lines), ctx.channel), *ruled]
        for item in started:
            replies += await self._thread_replies(ctx, league, round_.deadline, seats, item)
        return replies

    @staticmethod
    def _pairing_line(p: Pairing, seats: tuple[str, str]) -> str:
        if p.second is None:
            return f"- bye: <@{p.first}> ({_score(p.first_score or 0)} point)"
        if p.how in ("walkover", "double-forfeit"):
            return (
                f"- <@{p.first}> v <@{p.second}>: not played ({p.how}), "
                f"{_score(p.first_score or 0)}-{_score(p.second_score or 0)}"
            )
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

    async def sides(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        balances = await self.room.side_balances(ctx.guild)
        lines = ["The sides' balance in this server's rated league games (the ratings expect it):"]
        for system, scenarios in balances.items():
            first, second = self.room.seats(system)
            for scenario, balance in sorted(scenarios.items()):
                favoured = first if balance.advantage >= 0 else second
                lines.append(
                    f"- {system}, {scenario}: {first} scores {100 * balance.first_points / balance.games:.0f}% over "
                    f"{balance.games} game(s); estimated {100 * balance.share:.0f}% with {PRIOR_GAMES} drawn games "
                    f"of prior, worth {abs(balance.advantage):.0f} rating points to {favoured}"
                )
        if len(lines) == 1:
            lines.append("no rated league game yet: every scenario counts as balanced")
        return [Reply("\n".join(lines)[:1900])]

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
            ctx.channel, ctx.caller, o.get("game"), how, winner, o.get("reason", ""), o.get("level")
        )
        assert pairing.thread is not None
        here = Context(ctx.caller, pairing.thread, ctx.guild)
        over = self.layer.game_over(here, outcome.table, outcome.result.text if outcome.result else "")
        note = f"Game #{pairing.game} {how}: {_score(pairing.first_score or 0)}-{_score(pairing.second_score or 0)}."
        records = self.layer.record_at_end(here, outcome.table)  # posted in the game's thread, like the result
        return [Reply(note), dataclasses.replace(over, channel=pairing.thread), *records]

    async def correct(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        winner = int(o["winner"]) if o.get("winner") else None
        pairing = await self.room.correct(
            ctx.channel, ctx.caller, o.get("game"), winner, o.get("reason", ""), o.get("level")
        )
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
        page = season_page(await self.room.season(ctx.channel))
        files = (
            Attachment(f"{slug}-standings.csv", table.encode()),
            Attachment(f"{slug}-games.csv", results.encode()),
            Attachment(f"{slug}-season.html", page.encode()),
        )
        return [
            Reply(
                f"{league.name}: the standings and every result (CSV), and the season's page: open it in any browser "
                "(its links open the games' records kept beside it).",
                files=files,
            )
        ]


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
    status = {"registration": "registration open", "finished": "final", "cancelled": "cancelled"}.get(league.status, "")
    when = f"after round {rounds_played}" if rounds_played else "before round 1"
    return f"{league.name}: standings {when} of {league.rounds}" + (f" ({status})" if status else "")


def standings_picture(league: LeagueRow, rows: Sequence[Row], names: dict[int, str], rounds_played: int) -> bytes:
    """The standings as a picture a phone shows whole."""
    first, second = TIEBREAK_NAMES[league.format]
    lines = [
        [str(r.rank), _name(r, names, 16), _score(r.score), f"{r.wins}-{r.draws}-{r.losses}", str(r.byes),
         str(r.unplayed), _score(r.tiebreaks[0]), _score(r.tiebreaks[1])]
        for r in rows
    ]  # fmt: skip
    short = {"Buchholz": "BH", "S-B": "SB"}  # the usual abbreviations: eight columns share a phone's width
    header = ["#", "player", "pts", "W-D-L", "B", "U", short.get(first, first), short.get(second, second)]
    return table_picture(_title(league, rounds_played), header, lines, first_width=0.3)


def _name(row: Row, names: dict[int, str], width: int = 40) -> str:
    """The player's name in the standings, marked ``(w)`` once he has withdrawn."""
    mark = " (w)" if row.withdrawn else ""
    return names.get(row.player, str(row.player))[: width - len(mark)] + mark


STANDINGS_KEY = "W-D-L: games played out; B: byes; U: unplayed (walkovers, double forfeits, abandoned); (w): withdrawn."
"""What the standings' columns say."""


def standings_text(league: LeagueRow, rows: Sequence[Row], names: dict[int, str], rounds_played: int) -> str:
    """The standings as a narrow monospaced table (it fits a phone's width)."""
    first, second = TIEBREAK_NAMES[league.format]
    title = f"**{_title(league, rounds_played)}**"
    lines = [f"{'#':>2} {'player':<12} {'pts':>4} {'W-D-L':>6} B U {first[:3]:>4} {second[:3]:>4}"]
    for row in rows:
        record = f"{row.wins}-{row.draws}-{row.losses}"
        lines.append(
            f"{row.rank:>2} {_name(row, names, 12):<12} {_score(row.score):>4} {record:>6} {row.byes} {row.unplayed} "
            f"{_score(row.tiebreaks[0]):>4} {_score(row.tiebreaks[1]):>4}"
        )
    return title + "\n```\n" + "\n".join(lines) + "\n```\n" + STANDINGS_KEY
