"""The league room: seasons of many games, pairings, deadlines, standings and ratings (a cross-system room).

Pure parts: :mod:`~bot.leagues.pairing` (Swiss and round robin), :mod:`~bot.leagues.tiebreaks`,
:mod:`~bot.leagues.standings`, :mod:`~bot.leagues.glicko2`, :mod:`~bot.leagues.records` and
:mod:`~bot.leagues.sides` (each scenario's side balance). Around them: its tables (:mod:`~bot.leagues.store`),
its service (:mod:`~bot.leagues.service`, over :mod:`~bot.leagues.core`, with the organiser's steering in
:mod:`~bot.leagues.steering` and what the results say in :mod:`~bot.leagues.reading`) and its commands
(:mod:`~bot.leagues.commands`, a ``Room``).

May import: :mod:`bot.service`, :mod:`bot.store`, the words of answers (:mod:`bot.commands.replies`,
:mod:`bot.commands.definitions`) and the room interface :mod:`bot.systems.base`. Never the command layer or a
transport (its handlers are handed the layer), never a game system.
"""
