"""Every room of the bot's commands besides the shared ones (:mod:`bot.commands.layer`): the cross-system rooms (the
moderators, the leagues) and each game system's (:func:`bot.systems.rooms`). The command layer asks these; it
names none of them.
"""

from __future__ import annotations

from bot.leagues.commands import LeagueRoom
from bot.moderation import ModeratorRoom
from bot.systems import rooms as system_rooms
from bot.systems.base import Room

MODERATORS = ModeratorRoom()
LEAGUES = LeagueRoom()


def cross_system_rooms() -> tuple[Room, ...]:
    """The rooms beside the game systems, in the order their commands are listed."""
    return (MODERATORS, LEAGUES)


def all_rooms() -> tuple[Room, ...]:
    """Every room, each once: the cross-system rooms, then the systems' in the registry's order."""
    unique: dict[int, Room] = {}
    for room in (*cross_system_rooms(), *system_rooms().values()):
        unique.setdefault(id(room), room)
    return tuple(unique.values())
