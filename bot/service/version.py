"""The bot's version, as installed (``pyproject.toml``), for ``umpire --version`` and ``game status``."""

from __future__ import annotations

from importlib import metadata

UNKNOWN = "unknown"
"""The version said when the package is not installed (run from a bare checkout)."""


def bot_version() -> str:
    """The installed version of the ``umpire`` package."""
    try:
        return metadata.version("umpire")
    except metadata.PackageNotFoundError:
        return UNKNOWN
