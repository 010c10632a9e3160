"""The bundled Historical ASL campaign-game modules (one TOML file each).

This package does the file reading so that ``engine.asl`` stays free of I/O.
"""

from __future__ import annotations

from importlib import resources

MODULES = ("a-bridge-too-far",)
"""The HASL modules bundled with Umpire."""


def module_text(module_id: str) -> tuple[str, str]:
    """The file name and TOML text of a bundled module.

    :raises KeyError: if no such module is bundled.
    """
    if module_id not in MODULES:
        raise KeyError(f"no bundled ASL module {module_id!r}; available: {', '.join(MODULES)}")
    name = f"{module_id}.toml"
    return name, resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
