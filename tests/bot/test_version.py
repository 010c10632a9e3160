"""Issue 33: the bot says its version, at the command line and in `game status`."""

from __future__ import annotations

import pytest

from bot.service.version import bot_version
from bot.transports.cli import main
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_discord_ardennes import ANN, BOB, CHANNEL, fake, pinned_seed  # noqa: F401 - fixtures


def test_umpire_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"umpire {bot_version()}"
    assert bot_version()[0].isdigit()


async def test_game_status_gives_the_bot_version(fake: FakeDiscord) -> None:
    await fake.command(ANN, CHANNEL, "game create", scenario="initial-assault")
    await fake.command(ANN, CHANNEL, "game join", seat="german")
    await fake.command(BOB, CHANNEL, "game join", seat="allied")
    sent = await fake.command(BOB, CHANNEL, "game status")
    assert any(f"Umpire {bot_version()}." in s.content for s in sent)
