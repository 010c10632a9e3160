"""A fake Discord: the real discord.py client, command tree and view store, with no network.

Interactions are fed the way the gateway feeds them: an ``INTERACTION_CREATE`` payload (application command,
autocomplete or component, shaped like Discord's) goes to ``ConnectionState.parse_interaction_create``, which
hands it to the ``CommandTree`` or the ``ViewStore`` (dynamic items included) exactly as in production. The
HTTP layer is replaced by a recorder: ``HTTPClient.request`` (channel messages, DMs, login) and
``AsyncWebhookAdapter.request`` (interaction callbacks and follow-ups) record each route and payload and
answer with plausible JSON, so tests can assert every message the bot sent, where, pinging whom, with which
buttons and files. A user's DMs can be closed: sending to them fails with HTTP 403, code 50007.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.commands.layer import COMMANDS_BY_NAME
from bot.service.config import Settings
from bot.service.game_types import SystemFactory
from bot.store.opening import open_store
from bot.transports.discord_app import UmpireBot
from bot.transports.retiring import ANSWERED, SUPERSEDED

GUILD = 9000
APP = 4242
MODERATOR_ROLE = 4343
"""The id of the server's moderators' role (named as the default ``UMPIRE_MODERATOR_ROLE``)."""
BOT_USER = {
    "id": str(APP),
    "username": "umpire",
    "discriminator": "0",
    "global_name": "Umpire",
    "avatar": None,
    "bot": True,
}
OPTION_TYPES = {"text": 3, "integer": 4, "boolean": 5, "user": 6, "number": 10, "attachment": 11}
MANAGE_GUILD = 1 << 5
SEND_MESSAGES = 1 << 11


@dataclass
class Sent:
    """One HTTP call the bot made."""

    kind: str
    """``channel`` (a message in a channel or thread), ``dm``, ``callback`` (interaction response),
    ``followup``, ``edit`` (of the original response), ``thread`` (a thread opened under ``channel``; its
    name is the content, its id ``payload["thread"]``), ``retired`` (an old prompt's message edited to lose its
    buttons, in a channel or a DM: ``edit_of`` says which), ``other``."""
    channel: int | None
    content: str = ""
    ephemeral: bool = False
    pings: set[int] = field(default_factory=set)
    """Users this message actually pings: mentioned in the text and allowed by ``allowed_mentions``."""
    buttons: list[tuple[str, str]] = field(default_factory=list)
    """(label, custom id) of every button; select menus appear as (placeholder, custom id)."""
    files: list[str] = field(default_factory=list)
    file_data: dict[str, bytes] = field(default_factory=dict)
    """The content of each attached file, by name."""
    payload: dict[str, Any] = field(default_factory=dict)
    message: dict[str, Any] = field(default_factory=dict)
    """The message JSON answered to the bot (used to click its buttons)."""
    user: int | None = None
    """For a DM: the addressee."""
    callback_type: int | None = None
    edit_of: int | None = None
    """For a channel message edited by the bot (``kind`` stays ``channel``): the id of the message edited."""


@dataclass(frozen=True)
class FakeFile:
    """A file a user attaches to a slash command's file option."""

    name: str
    data: bytes


@dataclass(frozen=True)
class FakeUser:
    """A member of the fake server."""

    id: int
    name: str
    moderator: bool = False

    def user_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }

    def member_json(self) -> dict[str, Any]:
        permissions = SEND_MESSAGES | (MANAGE_GUILD if self.moderator else 0)
        return {
            "user": self.user_json(),
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        }


class _Response:
    """Enough of an aiohttp response for :class:`discord.HTTPException`."""

    status = 403
    reason = "Forbidden"


class FakeDiscord:
    """Drives one :class:`UmpireBot` through real discord.py code paths with HTTP recorded."""

    def __init__(self, bot: UmpireBot) -> None:
        self.bot = bot
        self.sent: list[Sent] = []
        self.closed_dms: set[int] = set()
        self._ids = itertools.count(10**17)
        self._dm_channels: dict[int, int] = {}
        self._patches: list[Any] = []
        self.threads: dict[int, int] = {}
        """Every thread the bot opened, with its parent channel."""
        self._token_channels: dict[str, int] = {}
        self._file_data: dict[str, bytes] = {}
        self.uploads: dict[str, bytes] = {}
        """Files users attached to commands, by their CDN address (what ``Attachment.read`` fetches)."""
        """The channel of each interaction token: where its private answers appear (to click their buttons)."""

    # --- Life ---------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Patch the HTTP layer and log the bot in (which runs its ``setup_hook``)."""
        fake = self

        async def http_request(http: HTTPClient, route: Route, **kwargs: Any) -> Any:
            return fake._http(route, **kwargs)

        async def webhook_request(adapter: AsyncWebhookAdapter, route: Route, session: Any, **kwargs: Any) -> Any:
            return fake._webhook(route, **kwargs)

        async def get_from_cdn(http: HTTPClient, url: str) -> bytes:
            if url not in fake.uploads:
                raise discord.NotFound(_Response(), "unknown attachment")
            return fake.uploads[url]

        self._patches = [
            mock.patch.object(HTTPClient, "request", http_request),
            mock.patch.object(HTTPClient, "get_from_cdn", get_from_cdn),
            mock.patch.object(AsyncWebhookAdapter, "request", webhook_request),
        ]
        for patch in self._patches:
            patch.start()
        await self.bot.login("fake-token")

    async def stop(self) -> None:
        """Close the bot (as at a shutdown) and restore the HTTP layer."""
        await self.settle()
        await self.bot.close()
        for patch in reversed(self._patches):
            patch.stop()
        self._patches = []

    async def settle(self) -> None:
        """Wait until every interaction task the bot started has finished."""
        while True:
            current = asyncio.current_task()
            tasks = [
                t
                for t in asyncio.all_tasks()
                if t is not current and (t.get_name() == "CommandTree-invoker" or t.get_name().startswith("discord-ui"))
            ]
            if not tasks:
                return
            await asyncio.wait(tasks)

    # --- HTTP recorder -------------------------------------------------------------------------------

    def _id(self) -> int:
        return next(self._ids)

    def _message(self, channel: int, payload: dict[str, Any], files: list[str]) -> dict[str, Any]:
        return {
            "id": str(self._id()),
            "channel_id": str(channel),
            "author": BOT_USER,
            "content": payload.get("content") or "",
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(self._id()),
                    "filename": name,
                    "size": 1,
                    "url": f"https://cdn.invalid/{name}",
                    "proxy_url": f"https://cdn.invalid/{name}",
                }
                for name in files
            ],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": payload.get("flags", 0) or 0,
            "components": payload.get("components", []),
        }

    def _payload(self, kwargs: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        payload = kwargs.get("json") or kwargs.get("payload") or {}
        for part in kwargs.get("form") or kwargs.get("multipart") or []:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
        files = [f.filename for f in kwargs.get("files") or []]
        self._file_data = {}
        for file in kwargs.get("files") or []:
            file.reset()
            self._file_data[file.filename] = file.fp.read()
            file.reset()
        return dict(payload), files

    def _record(self, kind: str, channel: int | None, payload: dict[str, Any], files: list[str]) -> Sent:
        content = payload.get("content") or ""
        allowed = payload.get("allowed_mentions")
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", content)}
        if allowed is None:
            pings = mentioned
        else:
            pings = (
                mentioned
                if "users" in allowed.get("parse", [])
                else mentioned & {int(u) for u in allowed.get("users", [])}
            )
        buttons = []
        for row in payload.get("components", []):
            for component in row.get("components", []):
                buttons.append((component.get("label") or component.get("placeholder") or "", component["custom_id"]))
        sent = Sent(
            kind,
            channel,
            content,
            bool((payload.get("flags") or 0) & 64),
            pings,
            buttons,
            files,
            {name: data for name, data in self._file_data.items() if name in files},
            payload,
        )
        self.sent.append(sent)
        return sent

    def _http(self, route: Route, **kwargs: Any) -> Any:
        path = route.path
        payload, files = self._payload(kwargs)
        if path == "/users/@me":
            return BOT_USER
        if path == "/oauth2/applications/@me":
            return {
                "id": str(APP),
                "name": "Umpire",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": BOT_USER,
                "summary": "",
                "verify_key": "00",
                "flags": 0,
            }
        if path == "/users/@me/channels":
            user = int(payload["recipient_id"])
            channel = self._dm_channels.setdefault(user, self._id())
            recipient = {"id": str(user), "username": f"user{user}", "discriminator": "0", "avatar": None}
            return {"id": str(channel), "type": 1, "recipients": [recipient], "last_message_id": None}
        if path == "/channels/{channel_id}/messages" and route.method == "POST":
            channel = int(route.channel_id or 0)
            dm_user = next((u for u, c in self._dm_channels.items() if c == channel), None)
            if dm_user is not None and dm_user in self.closed_dms:
                closed = {"code": 50007, "message": "Cannot send messages to this user"}
                raise discord.Forbidden(_Response(), closed)
            sent = self._record("dm" if dm_user is not None else "channel", channel, payload, files)
            sent.user = dm_user
            sent.message = self._message(channel, payload, files)
            return sent.message
        if path == "/channels/{channel_id}/messages" and route.method == "GET":  # the history, newest first
            channel = int(route.channel_id or 0)
            posted = [s.message for s in self.sent if s.channel == channel and s.message and not s.ephemeral]
            return list(reversed(posted))[: int((kwargs.get("params") or {}).get("limit", 50))]
        if path == "/channels/{channel_id}/threads" and route.method == "POST":
            parent = int(route.channel_id or 0)
            thread = self._id()
            self.threads[thread] = parent
            self._record("thread", parent, {"content": payload.get("name", "")}, []).payload["thread"] = thread
            return self._thread_json(thread, parent, str(payload.get("name", "")))
        if path == "/channels/{channel_id}/messages/{message_id}" and route.method == "PATCH":
            channel, edited = int(route.channel_id or 0), int(route.url.rsplit("/", 1)[1])
            retired = str(payload.get("content", "")).endswith((SUPERSEDED, ANSWERED))
            sent = self._record("retired" if retired else "channel", channel, payload, files)
            sent.user = next((u for u, c in self._dm_channels.items() if c == channel), None)
            sent.edit_of = edited
            sent.message = {**self._message(channel, payload, files), "id": str(edited)}
            return sent.message
        if path == "/guilds/{guild_id}/roles" and route.method == "GET":
            return [
                {"id": str(MODERATOR_ROLE), "name": "Umpire moderator", "color": 0, "hoist": False, "position": 1,
                 "permissions": "0", "managed": False, "mentionable": True},
            ]  # fmt: skip
        if route.method == "PUT" and "/commands" in path:
            return []
        self._record("other", None, payload, files).payload["route"] = f"{route.method} {path}"
        return {}

    def _webhook(self, route: Route, **kwargs: Any) -> Any:
        payload, files = self._payload(kwargs)
        path = route.path
        if path.endswith("/callback"):
            kind = int(payload.get("type", 0))
            data = dict(payload.get("data") or {})
            sent = self._record("callback", None, data, files)
            sent.callback_type = kind
            message = self._message(0, data, files) if kind == 4 else None
            response: dict[str, Any] = {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
                }
            }
            if message is not None:
                response["resource"] = {"type": kind, "message": message}
            return response
        channel = self._token_channels.get(str(getattr(route, "webhook_token", "")))
        sent = self._record("edit" if path.endswith("@original") else "followup", channel, payload, files)
        sent.message = self._message(channel or 0, payload, files)
        return sent.message

    @staticmethod
    def _thread_json(thread: int, parent: int, name: str) -> dict[str, Any]:
        return {
            "id": str(thread),
            "type": 11,
            "guild_id": str(GUILD),
            "parent_id": str(parent),
            "owner_id": str(APP),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 10080,
                "archive_timestamp": "2024-01-01T00:00:00+00:00",
                "locked": False,
            },
        }

    # --- Interactions --------------------------------------------------------------------------------

    def _base(self, type_: int, user: FakeUser, channel: int | None, dm: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self._id()),
            "application_id": str(APP),
            "type": type_,
            "token": f"token-{self._id()}",
            "version": 1,
            "locale": "en-US",
            "attachment_size_limit": 8 * 1024 * 1024,
            "entitlements": [],
            "app_permissions": str(SEND_MESSAGES),
        }
        if dm:
            dm_channel = self._dm_channels.setdefault(user.id, self._id())
            payload["channel_id"] = str(dm_channel)
            payload["channel"] = {"id": str(dm_channel), "type": 1, "recipients": [user.user_json()]}
            payload["user"] = user.user_json()
            payload["context"] = 1
        else:
            payload["guild_id"] = str(GUILD)
            payload["guild_locale"] = "en-US"
            payload["channel_id"] = str(channel)
            payload["channel"] = {
                "id": str(channel),
                "type": 0,
                "guild_id": str(GUILD),
                "name": f"game-{channel}",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
            if channel in self.threads:  # a thread the bot opened: the interaction comes from it
                payload["channel"] = self._thread_json(channel, self.threads[channel], f"thread-{channel}")
            payload["member"] = user.member_json()
            payload["context"] = 0
        return payload

    def _command_data(self, name: str, options: dict[str, Any], focused: str | None) -> dict[str, Any]:
        definition = COMMANDS_BY_NAME[name]
        kinds = {o.name: o.kind for o in definition.options}
        resolved: dict[str, Any] = {}
        items = []
        for key, value in options.items():
            kind = kinds.get(key, "text")
            item: dict[str, Any] = {"type": OPTION_TYPES[kind], "name": key, "value": value}
            if key == focused:
                item["focused"] = True
            if kind == "user" and isinstance(value, FakeUser):
                item["value"] = str(value.id)
                resolved.setdefault("users", {})[str(value.id)] = value.user_json()
            if kind == "attachment" and isinstance(value, FakeFile):
                attachment_id = str(self._id())
                url = f"https://cdn.discordapp.com/attachments/{GUILD}/{attachment_id}/{value.name}"
                self.uploads[url] = value.data
                item["value"] = attachment_id
                resolved.setdefault("attachments", {})[attachment_id] = {
                    "id": attachment_id,
                    "filename": value.name,
                    "size": len(value.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": "application/toml",
                }
            items.append(item)
        words = definition.words
        if len(words) == 2:
            items = [{"type": 1, "name": words[1], "options": items}]
        data: dict[str, Any] = {"id": str(self._id()), "name": words[0], "type": 1, "options": items}
        if resolved:
            data["resolved"] = resolved
        return data

    async def interact(self, payload: dict[str, Any]) -> list[Sent]:
        """Feed one INTERACTION_CREATE payload to the bot; return what it sent while handling it."""
        start = len(self.sent)
        if payload.get("channel_id"):
            self._token_channels[payload["token"]] = int(payload["channel_id"])
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return self.sent[start:]

    def command_payload(self, user: FakeUser, channel: int, name: str, /, **options: Any) -> dict[str, Any]:
        """The payload of a slash command (``name`` as in the command layer: ``"game create"``)."""
        payload = self._base(2, user, channel)
        payload["data"] = self._command_data(name, options, None)
        return payload

    async def command(self, user: FakeUser, channel: int, name: str, /, **options: Any) -> list[Sent]:
        """Run a slash command as ``user`` in ``channel``."""
        return await self.interact(self.command_payload(user, channel, name, **options))

    async def autocomplete(
        self, user: FakeUser, channel: int, name: str, focused: str, /, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices the bot suggests for option ``focused``."""
        payload = self._base(4, user, channel)
        payload["data"] = self._command_data(name, options, focused)
        sent = await self.interact(payload)
        answers = [s for s in sent if s.kind == "callback" and s.callback_type == 8]
        assert answers, "the bot did not answer the autocomplete"
        return list(answers[-1].payload.get("choices", []))

    def click_payload(
        self, user: FakeUser, message: Sent, label_or_id: str, values: list[str] | None = None
    ) -> dict[str, Any]:
        """The payload of a click on a button (or a choice in a select menu) of a message the bot sent."""
        custom = next((cid for label, cid in message.buttons if label_or_id in (label, cid)), None)
        if custom is None:
            custom = next(cid for label, cid in message.buttons if label.startswith(label_or_id))
        dm = message.kind == "dm"
        payload = self._base(3, user, message.channel, dm=dm)
        component_type = 3 if values is not None else 2
        payload["data"] = {"custom_id": custom, "component_type": component_type}
        if values is not None:
            payload["data"]["values"] = values
        payload["message"] = message.message
        return payload

    async def click(
        self, user: FakeUser, message: Sent, label_or_id: str, values: list[str] | None = None
    ) -> list[Sent]:
        """Click a button of a message the bot sent (in a channel or a DM)."""
        return await self.interact(self.click_payload(user, message, label_or_id, values))

    def submit_payload(
        self, user: FakeUser, modal: Sent, values: dict[str, str | list[str]], channel: int, dm: bool = False
    ) -> dict[str, Any]:
        """The payload of a form (a modal the bot opened, ``modal``) filled in with ``values`` by input custom id.

        Checks what Discord's client checks before it lets a form be sent: every required input filled, each
        text within its length limits, no value for an input the form does not have.
        """
        assert modal.kind == "callback" and modal.callback_type == 9, "not a form the bot opened"
        inputs = form_inputs(modal)
        unknown = set(values) - set(inputs)
        assert not unknown, f"the form has no input {sorted(unknown)}"
        answered = []
        for custom, component in inputs.items():
            value = values.get(custom)
            if component["type"] == 4:
                text = str(value or "")
                if component.get("required", True):
                    assert text, f"Discord will not send the form: {custom!r} is required"
                if text:
                    assert len(text) >= int(component.get("min_length") or 0), f"{custom!r} is too short"
                    assert len(text) <= int(component.get("max_length") or 4000), f"{custom!r} is too long"
                answered.append({"type": 18, "component": {"type": 4, "custom_id": custom, "value": text}})
            else:
                chosen = [str(v) for v in (value if isinstance(value, list) else [value] if value else [])]
                allowed = {str(o["value"]) for o in component.get("options", [])}
                assert set(chosen) <= allowed, f"{custom!r} offers no {sorted(set(chosen) - allowed)}"
                if component.get("required", True):
                    assert chosen, f"Discord will not send the form: {custom!r} is required"
                answered.append({"type": 18, "component": {"type": 3, "custom_id": custom, "values": chosen}})
        payload = self._base(5, user, channel, dm=dm)
        payload["data"] = {"custom_id": modal.payload["custom_id"], "components": answered}
        return payload

    async def submit(
        self, user: FakeUser, modal: Sent, values: dict[str, str | list[str]], channel: int, dm: bool = False
    ) -> list[Sent]:
        """Fill in and send a form the bot opened (see :meth:`submit_payload`)."""
        return await self.interact(self.submit_payload(user, modal, values, channel, dm))


def form_inputs(modal: Sent) -> dict[str, dict[str, Any]]:
    """The inputs of a form the bot opened, by custom id, in order (each in a label, or in an action row)."""
    inputs: dict[str, dict[str, Any]] = {}
    for top in modal.payload.get("components", []):
        inner = [top["component"]] if top.get("type") == 18 else list(top.get("components", []))
        for component in inner:
            inputs[str(component["custom_id"])] = component
    return inputs


def forms(sent: list[Sent]) -> list[Sent]:
    """The forms (modals) the bot opened."""
    return [s for s in sent if s.kind == "callback" and s.callback_type == 9]


def answers(sent: list[Sent]) -> list[Sent]:
    """The private answers to the caller (follow-ups and immediate responses with text)."""
    return [s for s in sent if s.kind in ("followup", "edit") or (s.kind == "callback" and s.content)]


def posts(sent: list[Sent], channel: int | None = None) -> list[Sent]:
    """The public messages posted in a channel."""
    return [s for s in sent if s.kind == "channel" and (channel is None or s.channel == channel)]


@asynccontextmanager
async def bot_behind_fake_discord(
    db_path: Path | str, systems: Mapping[str, SystemFactory], *, picture_workers: int = 0
) -> AsyncIterator[FakeDiscord]:
    """The bot over ``systems`` and a store at ``db_path`` (a SQLite file or a PostgreSQL address), started behind
    the fake Discord; stopped and closed on leaving. ``picture_workers``: worker processes drawing its pictures
    (0: its own process)."""
    store = await open_store(db_path)
    settings = Settings(token=None, db=str(db_path), picture_workers=picture_workers)
    umpire = UmpireBot(settings, store, dict(systems), sync_commands=False, run_background_tasks=False)
    opened = FakeDiscord(umpire)
    await opened.start()
    try:
        yield opened
    finally:
        await opened.stop()
        await store.close()
