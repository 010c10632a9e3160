"""What docs/hosting.md promises a server admin holds: the invite's permission number, the Docker image, the
health check."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import discord
import pytest

from bot.transports.cli import main

ROOT = Path(__file__).resolve().parents[1]
HOSTING = (ROOT / "docs" / "hosting.md").read_text()

PERMISSION_NAMES = {"View Channels": "view_channel"}
"""The listed names whose discord.py flag is not the name in snake case."""


def listed_permissions() -> list[str]:
    """The bot permissions the hosting page lists (section 1, step 4), each name once."""
    block = HOSTING.split("bot permissions:", 1)[1].split("The invite URL", 1)[0]
    names = []
    for line in block.splitlines():
        if line.strip().startswith("- "):
            text = re.sub(r"\(.*?\)", "", line.strip()[2:])
            names += [n.strip() for n in text.split(",") if n.strip()]
    return names


def test_the_invite_urls_permission_number_is_the_sum_of_the_listed_permissions() -> None:
    names = listed_permissions()
    assert {"View Channels", "Create Public Threads", "Send Messages in Threads"} <= set(names)
    assert "Add Reactions" not in names
    total = 0
    for name in names:
        flag = PERMISSION_NAMES.get(name, name.lower().replace(" ", "_"))
        total |= getattr(discord.Permissions, flag).flag
    (number,) = re.findall(r"permissions=(\d+)", HOSTING)
    assert int(number) == total == 311385246720


def test_the_hosting_page_lists_every_game_system() -> None:
    from bot.systems import registry

    for system in registry():
        assert f"`{system}`" in HOSTING


def test_the_docker_image_runs_unprivileged_with_a_health_check_and_leaves_secrets_out() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*umpire.*health", dockerfile, re.MULTILINE)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"*.sqlite3", ".env", ".git", ".venv"} <= set(ignored)
    compose = (ROOT / "compose.yaml").read_text()
    assert "postgres:" in compose and "UMPIRE_SHARDS" in compose and "UMPIRE_SHARD_COUNT" in compose


def test_umpire_health_says_whether_the_heartbeat_is_fresh(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    beat = tmp_path / "beat"
    assert main(["health", "--file", str(beat)]) == 1  # not connected yet
    beat.write_text("1\n")
    assert main(["health", "--file", str(beat)]) == 0
    old = time.time() - 600
    os.utime(beat, (old, old))
    assert main(["health", "--file", str(beat)]) == 1
    assert "not connected" in capsys.readouterr().err
