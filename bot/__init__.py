"""The bot: everything that is not rules, data or pictures. The only package that knows Discord.

Its packages are floors; each imports only from its own floor or below (``tests/test_architecture.py``):

1. :mod:`bot.store` - where games are kept (the interface, the SQLite backend, migrations, packing, the chain);
2. :mod:`bot.service` - every game operation for a channel and a caller, whatever the transport;
3. the words of answers (:mod:`bot.commands.replies`, :mod:`bot.commands.definitions`,
   :mod:`bot.commands.posted_files`), which the rooms answer in;
4. the rooms: :mod:`bot.systems` (each game system's commands and adapter), :mod:`bot.leagues` and
   :mod:`bot.moderation` (the cross-system rooms);
5. :mod:`bot.commands` - the shared command layer, the same for Discord and the console;
6. :mod:`bot.transports` - Discord, the console and the ``umpire`` command line.
"""
