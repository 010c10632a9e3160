"""Where games are kept: the store's interface and its backends.

- :mod:`bot.store.interface` - :class:`~bot.store.interface.GameStore`, the operations the service uses, naming
  no database;
- :mod:`bot.store.records` - the rows it returns, what an action writes, the errors it raises;
- :mod:`bot.store.sqlite` - the embedded backend (aiosqlite, WAL), with :mod:`bot.store.migrations` (the
  numbered schema changes) and :mod:`bot.store.packing` (how rows are compressed and archived);
- :mod:`bot.store.chain` - the hash chain over each game's action log;
- :mod:`bot.store.sql` - what the store's SQL runs through, whichever database answers;
- :mod:`bot.store.postgres` - the server backend (asyncpg), several processes sharing it, with
  :mod:`bot.store.pg_migrations` (its schema, numbered as SQLite's);
- :mod:`bot.store.opening` - which backend ``UMPIRE_DB`` names;
- :mod:`bot.store.copying` - a host's games copied from one store to another and checked (``umpire migrate-db``).

May import: the standard library, aiosqlite, asyncpg, and nothing else of the project (the store knows no game,
no service, no transport).
"""
