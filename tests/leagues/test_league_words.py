"""The league's lines read as prose."""

from __future__ import annotations

from bot.leagues.commands import LeagueCommands
from bot.leagues.store import Pairing


def pairing(game: int | None, thread: int | None) -> Pairing:
    return Pairing(1, 1, 1, 11, 22, game, thread, None, None, None, None, None, False)


def test_a_pairing_whose_game_is_being_made_names_no_game_number() -> None:
    """Never "game #None": a pairing between its round's start and its game's creation says so in words."""
    line = LeagueCommands._pairing_line(pairing(None, None), ("german", "allied"))
    assert line == "- game being made: <@11> (german) v <@22> (allied), thread being made"
    assert LeagueCommands._pairing_line(pairing(7, 900), ("german", "allied")).startswith("- game #7: <@11>")
