"""Files posted in Discord that a command reads: a table (``mod load-table``), a frame report (``frame report``).

A command takes a file as an attachment option (:class:`bot.commands.replies.Upload`) or as the link of a file posted
in the channel; a link is fetched only from Discord's own file hosts, and only up to :data:`MAX_FILE`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlparse

from bot.commands.replies import Upload
from bot.service.game_service import Refusal

MAX_FILE = 512 * 1024
"""The largest table file ``mod load-table`` fetches."""

FILE_HOSTS = ("cdn.discordapp.com", "media.discordapp.net")
"""Where ``mod load-table url:`` fetches a file from: a file posted in Discord."""


def check_url(url: str) -> Any:
    """The parsed link of a file posted in Discord.

    :raises Refusal: for any other link.
    """
    parsed = urlparse(url)
    if parsed.scheme != "https" or parsed.hostname not in FILE_HOSTS:
        raise Refusal(f"give the link of a file posted in Discord ({' or '.join(FILE_HOSTS)}), not {url[:80]!r}")
    return parsed


async def fetch_file(url: str) -> tuple[str, str]:
    """The name and text of a file posted in Discord (``mod load-table url:``).

    :raises Refusal: for another host, a file too big, not text, or a network failure.
    """
    parsed = check_url(url)
    import aiohttp

    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15)) as session,
            session.get(url) as response,
        ):
            if response.status != 200:
                raise Refusal(f"Discord answered {response.status} for that file; post it again and retry")
            data = await response.content.read(MAX_FILE + 1)
    except aiohttp.ClientError as error:
        raise Refusal(f"could not fetch the file ({error.__class__.__name__}); retry") from None
    if len(data) > MAX_FILE:
        raise Refusal(f"the file is larger than {MAX_FILE // 1024} KB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("the file is not UTF-8 text (a TOML file is expected)") from None
    return parsed.path.rsplit("/", 1)[-1] or "override.toml", text


async def read_upload(upload: Upload) -> tuple[str, str]:
    """The name and text of a file given as a command option.

    :raises Refusal: for a file too big or not UTF-8 text.
    """
    if upload.size > MAX_FILE:
        raise Refusal(f"the file is larger than {MAX_FILE // 1024} KB")
    data = await upload.read()
    if len(data) > MAX_FILE:
        raise Refusal(f"the file is larger than {MAX_FILE // 1024} KB")
    try:
        return upload.name, data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("the file is not UTF-8 text (a TOML file is expected)") from None


FETCH: Callable[[str], Awaitable[tuple[str, str]]] = fetch_file
"""How a posted file is fetched (tests replace it): call it as ``posted_files.FETCH`` to get the replacement."""
