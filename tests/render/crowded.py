"""Crowded late-game positions of both games, from seeded random play, and their pictures in both fog views.

Random play (the weighted order of ``tests.vaevictis.random_play``) runs a few hundred actions from a
scenario's start under fog of war (11); from ``FROM`` on, every ``EVERY`` actions, the position and the
events of the activation being played are kept. Each position gives pictures as the German seat, the Allied
seat and both sides see it, with the last activation's arrows, results and crosses, whole and close up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from engine.contract import Event, RulesError
from engine.vaevictis.data import Side
from engine.vaevictis.game import VaeVictisGame
from engine.vaevictis.legal import candidate_actions
from engine.vaevictis.state import GameState
from engine.vaevictis.view import HIDDEN_FROM
from render.happened import last_activation
from render.picture import MapPicture
from render.view_picture import picture_from_view
from scenarios import load_game
from tests.vaevictis.alsace import alsace_game
from tests.vaevictis.random_play import weighted_order

GAMES = ("ardennes44", "alsace44")
FROM = 300
"""Actions played before the first position kept: both sides' counters well mixed along the front."""
EVERY = 60
KEPT = 3
"""Positions kept per game."""
SEATS: tuple[Side | None, ...] = ("german", "allied", None)


@dataclass(frozen=True)
class Crowded:
    """One position of random play and every event since the game began (the pictures take the last
    activation's)."""

    game: VaeVictisGame
    name: str
    state: GameState
    events: tuple[Event, ...]

    def picture(self, seat: Side | None) -> MapPicture:
        """The picture ``seat`` gets (``None``: both sides), with the events it may read."""
        readable = [e for e in self.events if seat is None or seat not in e.data.get(HIDDEN_FROM, ())]
        return picture_from_view(self.game.data, self.game.view(self.state, seat), last_activation(readable), seat=seat)


def crowded_game(which: str) -> VaeVictisGame:
    return VaeVictisGame(load_game("ardennes44")) if which == "ardennes44" else alsace_game()


@cache
def positions(which: str, seed: int = 7) -> tuple[Crowded, ...]:
    """``KEPT`` crowded positions of ``"ardennes44"`` or ``"alsace44"`` (the entire battle, fog of war)."""
    game = crowded_game(which)
    rng = random.Random(seed)
    state = game.new_game("entire-battle", {"fog_of_war": True}, seed.to_bytes(32, "big"))
    events: list[Event] = []
    kept: list[Crowded] = []
    for count in range(1, FROM + EVERY * KEPT):
        if state.result is not None:
            break
        side = rng.choice(sorted(game.prompts(state)))
        for action in weighted_order(rng, candidate_actions(game, state, side)):
            try:
                state, new = game.apply(state, action)
            except RulesError:
                continue
            events.extend(new)
            break
        if count >= FROM and (count - FROM) % EVERY == 0:
            kept.append(Crowded(game, f"{which}-{count}", state, tuple(events)))
    return tuple(kept)
