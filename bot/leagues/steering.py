"""Steering a season: an organiser edits a league, ends it early or cancels it, withdraws a player (his running
games forfeited) or brings him back, keeps two players apart or pairs two by hand.

Every decision is logged in the league's log.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bot.leagues.core import LeagueCore, rounds_said, shown
from bot.leagues.standings import SWISS
from bot.leagues.store import LeagueRow, Pairing
from bot.service.game_service import Caller, Refusal


class LeagueSteering(LeagueCore):
    """The organiser's steering of a season (a part of :class:`~bot.leagues.service.LeagueService`)."""

    async def edit(
        self,
        channel: int,
        caller: Caller,
        *,
        rounds: int | None = None,
        days_per_move: float | None = None,
        reserve_days: float | None = None,
        round_days: float | None = None,
        round_every: float | None = None,
        late_rule: str | None = None,
        level_scores: Mapping[str, float] | None = None,
    ) -> tuple[LeagueRow, list[str]]:
        """An organiser changes a league's settings (logged); what is not given stays. The time control and
        the round's days apply to the games started from now on; a Swiss's rounds may be changed until the
        season ends, never below the rounds already paired. Returns the league and what changed.

        :raises Refusal: for a non-organiser, a league over, or a bad setting.
        """
        league = await self.league(channel)
        self._organiser(caller, "edit a league")
        if not league.live:
            raise Refusal(f"the league is {league.status}: nothing more to change")
        changed: dict[str, Any] = {}
        if rounds is not None and rounds != league.rounds:
            if league.format != SWISS:
                raise Refusal("a round robin plays every pairing: its rounds follow from the field")
            paired = len(await self.store.rounds(league.id))
            if not max(1, paired) <= rounds <= 30:
                raise Refusal(f"a Swiss plays 1 to 30 rounds, and {paired} are paired already")
            if league.status == "running":
                active = [e for e in await self.store.entrants(league.id) if not e.withdrawn]
                most = math.ceil(len(active) / 2)
                if rounds > max(most, paired):
                    raise Refusal(
                        f"a Swiss of {len(active)} players plays at most {rounds_said(most)} (half the field)"
                    )
            changed["rounds"] = rounds
        pace = {
            "days_per_move": days_per_move,
            "reserve_days": reserve_days,
            "round_days": round_days,
            "round_every": round_every,
            "late_rule": late_rule,
        }
        given = {k: v for k, v in pace.items() if v is not None and v != getattr(league, k)}
        merged = {**{k: getattr(league, k) for k in pace}, **given}
        self._check_pace(
            merged["days_per_move"], merged["reserve_days"], merged["round_days"], merged["round_every"],
            merged["late_rule"],
        )  # fmt: skip
        changed.update(given)
        if level_scores is not None and dict(level_scores) != league.level_scores:
            self._check_levels(level_scores)
            changed["level_scores"] = dict(level_scores)
        if not changed:
            raise Refusal("nothing to change: give a setting different from the league's")
        await self.store.update(league.id, **changed)
        said = [
            f"{key.replace('_', ' ')} {shown(value)} (was {shown(getattr(league, key))})"
            for key, value in changed.items()
        ]
        await self.store.log(league.id, caller.user_id, "edit", "; ".join(said))
        fresh = await self.store.league(league.id)
        assert fresh is not None
        if fresh.status == "running":
            await self._maybe_finish(league.id)
            fresh = await self.store.league(league.id)
            assert fresh is not None
        return fresh, said

    async def end(self, channel: int, caller: Caller, reason: str) -> tuple[LeagueRow, list[Pairing]]:
        """An organiser ends a season early: no round is paired again; the games being played still count,
        and the season is final once they are decided (at once when none is). Returns them.

        :raises Refusal: for a non-organiser, or a league not running.
        """
        league = await self.league(channel)
        self._organiser(caller, "end a league")
        if league.status != "running":
            raise Refusal("only a running league can be ended early (`league cancel` drops one being registered)")
        paired = len(await self.store.rounds(league.id))
        await self.store.update(league.id, rounds=paired, round_every=0)
        text = f"ended early after round {paired}: {reason or 'no reason given'}"
        await self.store.log(league.id, caller.user_id, "end", text)
        await self._maybe_finish(league.id)
        pending = [p for p in await self.store.pairings(league.id) if not p.decided]
        fresh = await self.store.league(league.id)
        assert fresh is not None
        return fresh, pending

    async def cancel(self, channel: int, caller: Caller, reason: str) -> tuple[LeagueRow, list[Pairing]]:
        """An organiser cancels a league: its games being played are abandoned (0 to both, not rated), it frees
        its channel for a new league, and its standings stay readable. Returns the games abandoned.

        :raises Refusal: for a non-organiser, or a league already over.
        """
        league = await self.league(channel)
        self._organiser(caller, "cancel a league")
        if not league.live:
            raise Refusal(f"the league is {league.status} already")
        await self.store.set_status(league.id, "cancelled")
        await self.store.log(league.id, caller.user_id, "cancel", f"cancelled: {reason or 'no reason given'}")
        abandoned = []
        for pairing in await self.store.pairings(league.id):
            if pairing.decided or pairing.thread is None:
                continue
            game = await self.games.store.live_game_in(pairing.thread)
            if game is not None:
                await self.games.abandon(pairing.thread, caller, f"the league {league.name} is cancelled")
            else:
                await self.store.set_result(pairing.id, (0.0, 0.0), "abandoned", now=self.clock())
            fresh = await self.store.pairing(pairing.id)
            assert fresh is not None
            abandoned.append(fresh)
        refreshed = await self.store.league(league.id)
        assert refreshed is not None
        return refreshed, abandoned

    async def remove(
        self, channel: int, caller: Caller, user_id: int, reason: str = ""
    ) -> tuple[LeagueRow, list[Pairing]]:
        """An organiser removes a player: before the start he is unregistered; after it he withdraws (not paired
        again; in a round robin his games not yet started are walkovers to his opponents) and every game he is
        playing is forfeited to his opponent. Returns those forfeited games.

        :raises Refusal: for a non-organiser or a player not registered.
        """
        league = await self.league(channel)
        self._organiser(caller, "remove a player")
        found = next((e for e in await self.store.entrants(league.id) if e.user_id == user_id), None)
        if found is None or found.withdrawn:
            raise Refusal(f"<@{user_id}> is not registered in this league")
        withdraw = league.status != "registration"
        await self.store.remove_entrant(league.id, user_id, withdraw=withdraw)
        verb = "withdrawn" if withdraw else "removed"
        await self.store.log(league.id, caller.user_id, "remove", f"{verb} <@{user_id}>: {reason or 'no reason given'}")
        forfeited = []
        for pairing in await self.store.pairings(league.id):
            if pairing.decided or pairing.thread is None or user_id not in (pairing.first, pairing.second):
                continue
            game = await self.games.store.live_game_in(pairing.thread)
            if game is None or game.status != "active":
                continue
            winner = pairing.second if user_id == pairing.first else pairing.first
            assert winner is not None
            seat = self._seat_of(pairing, winner, game.system)
            await self.games.decide(pairing.thread, caller, seat, "forfeit", f"<@{user_id}> withdrew from the league")
            await self.store.log(league.id, caller.user_id, "forfeit", f"game #{pairing.game}: <@{user_id}> withdrew")
            fresh = await self.store.pairing(pairing.id)
            assert fresh is not None
            forfeited.append(fresh)
        return league, forfeited

    async def reinstate(self, channel: int, caller: Caller, user_id: int) -> LeagueRow:
        """An organiser undoes a withdrawal (logged): the player is paired again from the next round (a round
        robin plays his remaining games of the table; the walkovers already scored stay).

        :raises Refusal: for a non-organiser, a player not withdrawn, or a league over.
        """
        league = await self.league(channel)
        self._organiser(caller, "reinstate a player")
        if not league.live:
            raise Refusal(f"the league is {league.status}")
        if not any(e.user_id == user_id and e.withdrawn for e in await self.store.entrants(league.id)):
            raise Refusal(f"<@{user_id}> has not withdrawn from this league")
        await self.store.remove_entrant(league.id, user_id, withdraw=False, back=True)
        await self.store.log(league.id, caller.user_id, "reinstate", f"<@{user_id}> is back")
        return league

    async def forbid(self, channel: int, caller: Caller, a: int, b: int) -> LeagueRow:
        """An organiser forbids a pairing in a Swiss (players of one household or club): the two never meet,
        as if they had met already (logged).

        :raises Refusal: for a non-organiser, a round robin, a player not registered, or one player twice.
        """
        league = await self._steered_swiss(channel, caller, a, b, "forbid a pairing")
        pair = (min(a, b), max(a, b))
        if pair in league.forbidden:
            raise Refusal(f"<@{a}> and <@{b}> are already kept apart")
        await self.store.update(league.id, forbidden=[*league.forbidden, pair])
        await self.store.log(league.id, caller.user_id, "forbid", f"<@{a}> and <@{b}> never meet")
        return league

    async def fix_pairing(self, channel: int, caller: Caller, first: int, second: int) -> LeagueRow:
        """An organiser pairs two players by hand in the next Swiss round, ``first`` on the first seat (logged);
        the others are paired round them by the usual rules.

        :raises Refusal: for a non-organiser, a round robin, a player not active or already fixed, a rematch.
        """
        league = await self._steered_swiss(channel, caller, first, second, "pair players by hand")
        taken = {p for pair in league.fixed for p in pair}
        if {first, second} & taken:
            raise Refusal("one of them is already paired by hand for the next round")
        met = any({p.first, p.second} == {first, second} for p in await self.store.pairings(league.id))
        if met:
            raise Refusal(f"<@{first}> and <@{second}> have met already: no rematch in a Swiss")
        await self.store.update(league.id, fixed=[*league.fixed, (first, second)])
        await self.store.log(league.id, caller.user_id, "pair", f"next round: <@{first}> v <@{second}> by hand")
        return league

    async def _steered_swiss(self, channel: int, caller: Caller, a: int, b: int, what: str) -> LeagueRow:
        league = await self.league(channel)
        self._organiser(caller, what)
        if league.format != SWISS:
            raise Refusal("a round robin's table is fixed: only a Swiss pairs by hand or keeps players apart")
        if not league.live:
            raise Refusal(f"the league is {league.status}")
        if a == b:
            raise Refusal("name two different players")
        active = {e.user_id for e in await self.store.entrants(league.id) if not e.withdrawn}
        for player in (a, b):
            if player not in active:
                raise Refusal(f"<@{player}> is not playing in this league")
        return league
