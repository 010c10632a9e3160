"""Slash commands generated from :data:`bot.commands.layer.COMMANDS`: the same words, options and help as the console.

Each option becomes a typed, described parameter (text, whole number with its range, number, yes/no, user, file),
with autocomplete when the command layer names a suggestion source. Autocomplete values are only suggestions:
the command layer checks every value again.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.commands.layer import COMMANDS, CommandDef, OptionDef
from bot.commands.rooms import all_rooms

if TYPE_CHECKING:
    from bot.transports.discord_app import UmpireBot

GROUPS = {"game": "Create, join and run the game of this channel."}
"""The shared command group; each room adds its own (:attr:`bot.systems.base.Room.groups`)."""


def groups() -> dict[str, str]:
    """Every slash command group: first word to description."""
    found = dict(GROUPS)
    for room in all_rooms():
        found.update(room.groups)
    return found


def _annotation(option: OptionDef) -> Any:
    if option.kind == "integer":
        if option.min_value is not None and option.max_value is not None:
            return app_commands.Range[int, int(option.min_value), int(option.max_value)]
        return int
    if option.kind == "number":
        if option.min_value is not None and option.max_value is not None:
            return app_commands.Range[float, float(option.min_value), float(option.max_value)]
        return float
    if option.kind == "boolean":
        return bool
    if option.kind == "user":
        return discord.User
    if option.kind == "attachment":
        return discord.Attachment
    return app_commands.Range[str, 1, 200]


def make_command(
    bot: UmpireBot, definition: CommandDef, parent: app_commands.Group | None
) -> app_commands.Command[Any, ..., Any]:
    """One slash command running ``definition`` through the bot's command layer."""

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await bot.handle_command(interaction, definition, values)

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    for option in definition.options:
        annotation = _annotation(option)
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation if option.required else annotation | None,
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.name: o.description[:100] for o in definition.options
    }
    command: app_commands.Command[Any, ..., Any] = app_commands.Command(
        name=definition.words[-1],
        description=definition.description[:100],
        callback=callback,
        parent=parent,
    )
    for option in definition.options:
        if option.autocomplete is not None:
            command.autocomplete(option.name)(_completer(bot, definition, option))
    return command


def _completer(bot: UmpireBot, definition: CommandDef, option: OptionDef) -> Any:
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[Any]]:
        return await bot.handle_autocomplete(interaction, definition, option, current)

    return complete


def add_commands(bot: UmpireBot) -> None:
    """Add every command of the command layer to the bot's tree."""
    tree_groups = {name: app_commands.Group(name=name, description=text) for name, text in groups().items()}
    for definition in COMMANDS:
        words = definition.words
        parent = tree_groups[words[0]] if len(words) == 2 else None
        command = make_command(bot, definition, parent)
        if parent is not None:
            parent.add_command(command)
        else:
            bot.tree.add_command(command)
    for group in tree_groups.values():
        bot.tree.add_command(group)
