"""Issue 33: the bot says its version at the command line (and in `game status`: tests/bot/test_discord_info.py)."""

from __future__ import annotations

import pytest

from bot.service.version import bot_version
from bot.transports.cli import main


def test_umpire_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"umpire {bot_version()}"
    assert bot_version()[0].isdigit()
