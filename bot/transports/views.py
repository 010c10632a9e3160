"""Buttons and select menus that survive a restart: :class:`discord.ui.DynamicItem` rebuilt from custom ids.

Every prompt choice, attack confirmation and "answer here" button carries ``wg:<game>:<state_id>:<verb>:<arg>``
(:data:`bot.commands.layer.CUSTOM_ID`); the bot registers :class:`PromptButton` and :class:`PromptSelect` in
``setup_hook`` so that a click on a message posted before a restart still reaches the game. The click itself
is handled by the command layer (``CommandLayer.press``), which refuses stale or doubled clicks.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from bot.commands.replies import CUSTOM_ID, Form, Reply

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class PressReceiver(Protocol):
    """What these items need of the bot (:class:`bot.transports.discord_app.UmpireBot`, which imports this module)."""

    async def check_seat_owner(self, interaction: discord.Interaction[Any], match: re.Match[str] | None) -> bool:
        """Whether the clicker may press this (a prompt answers only to its seat's player)."""
        ...

    async def handle_press(self, interaction: discord.Interaction[Any], custom: str, values: Any) -> None:
        """Acknowledge the click, let the command layer decide, deliver the replies."""
        ...

    async def handle_submit(self, interaction: discord.Interaction[Any], custom: str, values: dict[str, str]) -> None:
        """Acknowledge the form, let the command layer decide, deliver the replies."""
        ...


def _bot(interaction: discord.Interaction[Any]) -> PressReceiver:
    return cast(PressReceiver, interaction.client)


class PromptButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID.pattern):
    """A button of a game (prompt choice, confirm, cancel, answer privately)."""

    def __init__(self, custom_id: str, label: str = "…", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style))
        self.match = CUSTOM_ID.fullmatch(custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PromptButton:
        return cls(match.string)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Only the seat's player may press a prompt button; others get a polite private refusal."""
        return await _bot(interaction).check_seat_owner(interaction, self.match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # Buttons and menus share one custom id template, so this item may receive a menu's choice: pass it on.
        await _bot(interaction).handle_press(interaction, self.item.custom_id or "", _values(interaction))


class PromptSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=CUSTOM_ID.pattern):
    """A select menu of a prompt with many choices."""

    def __init__(self, custom_id: str, placeholder: str = "Choose", entries: tuple[tuple[str, str], ...] = ()):
        options = [discord.SelectOption(label=label[:100], value=value) for label, value in entries] or [
            discord.SelectOption(label="…", value="0")
        ]
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150], options=options))
        self.match = CUSTOM_ID.fullmatch(custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PromptSelect:
        return cls(match.string)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return await _bot(interaction).check_seat_owner(interaction, self.match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).handle_press(interaction, self.item.custom_id or "", _values(interaction))


def _values(interaction: discord.Interaction[Any]) -> list[str]:
    """The entries chosen in a select menu (none for a button)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]


def build_view(reply: Reply) -> discord.ui.View | None:
    """The components of a reply as a persistent view (no timeout), or ``None`` without components."""
    if not reply.buttons and not reply.selects:
        return None
    view = discord.ui.View(timeout=None)
    for button in reply.buttons[:25]:
        view.add_item(PromptButton(button.custom_id, button.label, STYLES[button.style]))
    for select in reply.selects[: 5 - (len(reply.buttons) + 4) // 5]:
        view.add_item(PromptSelect(select.custom_id, select.placeholder, select.entries))
    return view


class FormModal(discord.ui.Modal):
    """A form (:class:`bot.commands.replies.Form`) as a Discord modal: one text input per field, its values given to the
    command layer (``CommandLayer.submit``) when sent. Discord keeps a modal for 15 minutes at most."""

    def __init__(self, form: Form) -> None:
        super().__init__(title=form.title[:45], custom_id=form.custom_id, timeout=15 * 60)
        self.inputs: dict[str, discord.ui.TextInput[Any]] = {}
        for field in form.fields[:5]:
            text_input: discord.ui.TextInput[Any] = discord.ui.TextInput(
                placeholder=field.placeholder[:100] or None,
                default=field.default[: field.max_length] or None,
                required=field.required,
                style=discord.TextStyle.paragraph if field.long else discord.TextStyle.short,
                max_length=field.max_length,
                custom_id=field.key,
            )
            self.inputs[field.key] = text_input
            self.add_item(discord.ui.Label(text=field.label[:45], component=text_input))

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        values = {key: text_input.value for key, text_input in self.inputs.items()}
        await _bot(interaction).handle_submit(interaction, self.custom_id, values)
