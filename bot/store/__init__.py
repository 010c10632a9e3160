"""Where games are kept: the store's interface and its backends.

- :mod:`bot.store.interface` - :class:`~bot.store.interface.GameStore`, the operations the service uses, naming
  no database;
- :mod:`bot.store.records` - the rows it returns, what an action writes, the errors it raises;
- :mod:`bot.store.sqlite` - the embedded backend (aiosqlite, WAL), with :mod:`bot.store.migrations` (the
  numbered schema changes) and :mod:`bot.store.packing` (how rows are compressed and archived);
- :mod:`bot.store.chain` - the hash chain over each game's action log.

May import: the standard library, aiosqlite, and nothing else of the project (the store knows no game, no
service, no transport).
"""
