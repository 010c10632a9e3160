"""The transports: where people reach the bot. Each acknowledges, runs the command layer, and delivers.

- :mod:`bot.transports.discord_app` - the Discord client (``UmpireBot``), :mod:`bot.transports.views` (persistent
  buttons, menus, forms), :mod:`bot.transports.cogs` (slash commands, reminders, league deadlines) and
  :mod:`bot.transports.retiring` (superseded prompts lose their buttons);
- :mod:`bot.transports.console` - the same games at the terminal, hot-seat;
- :mod:`bot.transports.cli` - the ``umpire`` command line; :mod:`bot.transports.allocator` - the C allocator's
  settings for a bot that draws big pictures.

May import: every floor below (the command layer, the rooms' registry, the service, the store). Nothing imports
a transport but another transport.
"""
