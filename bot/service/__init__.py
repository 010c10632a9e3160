"""The game service: every game operation for a channel and a caller, the same for every transport and system.

- :mod:`bot.service.game_service` - :class:`~bot.service.game_service.GameService`: seats, actions, previews,
  undo, corrections, in one store transaction per action;
- :mod:`bot.service.core` - systems, locks and states (snapshot + replay); :mod:`bot.service.caches` - the
  bounded locks and state cache;
- :mod:`bot.service.reading` - what a seat may read (descriptions, logs, pictures);
- :mod:`bot.service.correspondence` - reminders, vacations, timeouts; :mod:`bot.service.timekeeping` - each
  seat's clock, as arithmetic;
- :mod:`bot.service.verification` - the after-game check in layers (chain, dice, sealed decisions, rules replay),
  with :mod:`bot.service.sealed` (sealed decisions as the check reads them);
- :mod:`bot.service.computer` - seats the computer holds and its moves; :mod:`bot.service.thinking` - the worker
  processes where it decides;
- :mod:`bot.service.game_types` - its vocabulary (``Caller``, ``Table``, ``Outcome``, ``Refusal``) and the game
  half of a system's adapter (``SystemAdapter``);
- :mod:`bot.service.config` - the bot's settings; :mod:`bot.service.rendering` - the picture worker.

May import: :mod:`bot.store`, the shared engine (:mod:`engine.contract`, :mod:`engine.dice`,
:mod:`engine.sealing`, :mod:`engine.arguments`: an argument the rules never read is refused, not ignored).
Never a game system (its engine, its data or its room): the adapters are handed in.
"""
