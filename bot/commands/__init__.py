"""The shared command layer: commands, buttons and prompts into messages, the same for Discord and the console.

The words of answers, which the rooms use too (a floor below the rooms):

- :mod:`bot.commands.replies` - ``Reply``, buttons, menus, forms, custom ids;
- :mod:`bot.commands.definitions` - ``CommandDef`` and ``OptionDef``, how a command is declared;
- :mod:`bot.commands.posted_files` - files posted in Discord that a command reads.

The layer itself (above the rooms):

- :mod:`bot.commands.layer` - ``CommandLayer``: run, press, autocomplete, play, confirm;
- :mod:`bot.commands.game_life` (``game ...``), :mod:`bot.commands.info` (information commands),
  :mod:`bot.commands.prompting` (outcomes and prompts into messages), :mod:`bot.commands.paging` (long answers),
  :mod:`bot.commands.clock_notices` (a correspondence clock's notices and digest),
  :mod:`bot.commands.computer_turns` (the computer's decisions as messages);
- :mod:`bot.commands.catalogue` (every command) and :mod:`bot.commands.rooms` (every room).

May import: :mod:`bot.service`, :mod:`bot.store`'s records, the registry :mod:`bot.systems` and the room interface
:mod:`bot.systems.base`, the cross-system rooms (:mod:`bot.leagues.commands`, :mod:`bot.moderation`). Never a game
system's room or engine, never a transport.
"""
