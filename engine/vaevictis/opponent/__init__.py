"""[30] The computer opponent of the Vae Victis games (Ardennes 1944, Alsace 1944), either side.

:data:`COMPUTER_PLAYER` is the shared :class:`engine.contract.ComputerPlayer`; a game's own opponent is
``VaeVictisGame.computer_player`` (which also registers the game with the shared one). The method is told in
docs/ai.md.
"""

from engine.vaevictis.opponent.levels import LEVELS
from engine.vaevictis.opponent.player import GAMES, VaeVictisOpponent, register

COMPUTER_PLAYER = VaeVictisOpponent()
"""The computer opponent for every Vae Victis game whose :class:`VaeVictisGame` has been built."""

__all__ = ["COMPUTER_PLAYER", "GAMES", "LEVELS", "VaeVictisOpponent", "register"]
