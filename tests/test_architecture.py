"""The layering of DESIGN.md: the engine is pure (no I/O, no Discord, no randomness of its own)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {
    "discord", "aiosqlite", "asyncpg", "PIL", "asyncio", "random", "sqlite3", "socket", "requests",
}  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_io_discord_or_randomness() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & FORBIDDEN_IN_ENGINE)
        for path in (ROOT / "engine").rglob("*.py")
    }
    assert {file: mods for file, mods in offenders.items() if mods} == {}


def test_engine_does_not_open_files() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "open(" not in source.replace("Path.open", ""), f"{path} opens a file"


def test_render_never_imports_discord_or_the_database() -> None:
    for path in (ROOT / "render").rglob("*.py"):
        assert not imported_modules(path) & {"discord", "aiosqlite", "asyncpg", "sqlite3"}, path


# --- The rooms (docs/architecture.md): no import circles, the engine imports nothing above it ----------------

LAYERS = ("bot", "engine", "render", "scenarios")
SHARED_LAYER = ("bot/store", "bot/service", "bot/commands", "bot/transports")
"""The shared layer (the four layer packages of ``bot/``): it asks the systems' adapters, it names none. The
command line is in it: ``umpire validate`` and ``umpire render`` ask each system's data tools
(``bot.systems.base``)."""
SYSTEM_ROOMS = ("bot.systems.",)
"""What the shared layer may not import: a game system's room (``bot.systems`` itself, the registry, and
``bot.systems.base``, the adapter interface, it may)."""

FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("store", ("bot.store",)),
    ("service", ("bot.service",)),
    ("the words of answers", ("bot.commands.replies", "bot.commands.definitions", "bot.commands.posted_files")),
    ("rooms", ("bot.systems", "bot.leagues", "bot.moderation")),
    ("commands", ("bot.commands",)),
    ("transports", ("bot.transports",)),
)
"""The floors of ``bot/``, lowest first (docs/architecture.md): a module imports only from its own floor or
below. The rooms stand between the service and the command layer: they answer in the command layer's words
(replies, command definitions, posted files) and are handed the layer itself as a ``Layer`` protocol."""


def floor_of(module: str) -> int | None:
    """The floor of a ``bot`` module: its longest matching prefix in :data:`FLOORS` (``None`` for ``bot``)."""
    best: tuple[int, int] | None = None
    for number, (_name, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (number, len(prefix))
    return None if best is None else best[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for layer in LAYERS for path in (ROOT / layer).rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every project module ``path`` imports: at module level, inside functions, under TYPE_CHECKING."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_cycles_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_in_bot_engine_render() -> None:
    assert cycles(import_graph()) == []


def test_engine_imports_neither_bot_nor_render_nor_scenarios() -> None:
    graph = import_graph()
    upward = {
        name: sorted(t for t in targets if t.split(".")[0] in ("bot", "render", "scenarios"))
        for name, targets in graph.items()
        if name.split(".")[0] == "engine"
    }
    assert {name: targets for name, targets in upward.items() if targets} == {}


def test_render_imports_no_bot() -> None:
    graph = import_graph()
    upward = {name: sorted(t for t in targets if t.split(".")[0] == "bot") for name, targets in graph.items()}
    assert {n: t for n, t in upward.items() if t and n.split(".")[0] == "render"} == {}


def test_shared_layer_names_no_game_system() -> None:
    graph = import_graph()
    shared = {
        name
        for name, path in project_modules().items()
        if any(str(path.relative_to(ROOT)).startswith(prefix) for prefix in SHARED_LAYER)
    }
    named = {
        name: sorted(t for t in graph[name] if t.startswith(SYSTEM_ROOMS) and t != "bot.systems.base")
        for name in shared
    }
    assert {n: t for n, t in named.items() if t} == {}


def system_engines() -> tuple[str, ...]:
    """The game systems' engines (``engine.vaevictis`` ...): each package of ``engine/``."""
    return tuple(f"engine.{path.name}." for path in (ROOT / "engine").iterdir() if (path / "__init__.py").is_file())


def test_shared_layer_imports_no_systems_engine_or_data() -> None:
    graph = import_graph()
    shared = {
        name
        for name, path in project_modules().items()
        if any(str(path.relative_to(ROOT)).startswith(prefix) for prefix in SHARED_LAYER)
    }
    assert "bot.transports.cli" in shared and len(system_engines()) >= 3
    named = {
        name: sorted(t for t in graph[name] if f"{t}.".startswith((*system_engines(), "scenarios."))) for name in shared
    }
    assert {n: t for n, t in named.items() if t} == {}


def test_rooms_never_import_the_command_layer() -> None:
    graph = import_graph()
    rooms = [n for n in graph if n.startswith(("bot.systems", "bot.leagues", "bot.moderation"))]
    rooms_floor = floor_of("bot.systems") or 0
    found = {name: sorted(t for t in graph[name] if (floor_of(t) or 0) > rooms_floor) for name in rooms}
    assert {n: t for n, t in found.items() if t} == {}


def test_game_systems_do_not_import_each_other() -> None:
    graph = import_graph()

    def system_of(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[:2] == ["bot", "systems"] and parts[2] != "base" else None

    crossing = {
        name: sorted(t for t in targets if system_of(t) not in (None, system_of(name)))
        for name, targets in graph.items()
        if system_of(name) is not None
    }
    assert {n: t for n, t in crossing.items() if t} == {}


def test_scenarios_import_neither_bot_nor_render() -> None:
    graph = import_graph()
    found = {n: sorted(t for t in ts if t.split(".")[0] in ("bot", "render")) for n, ts in graph.items()}
    assert {n: t for n, t in found.items() if t and n.split(".")[0] == "scenarios"} == {}


# --- The layer packages of bot/ (issue 25) ---------------------------------------------------------------


def test_every_bot_module_stands_on_a_floor() -> None:
    homeless = sorted(n for n in import_graph() if n.startswith("bot.") and floor_of(n) is None)
    assert homeless == []


def test_floor_of_reads_the_longest_prefix() -> None:
    assert floor_of("bot.store.sqlite") == 0
    assert floor_of("bot.commands.replies") == 2
    assert floor_of("bot.commands.layer") == 4
    assert floor_of("bot.transports.cogs.slash") == 5
    assert floor_of("bot") is None


def upward_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each ``bot`` module's imports from a higher floor than its own."""
    found: dict[str, list[str]] = {}
    for name, targets in graph.items():
        own = floor_of(name)
        if own is None:
            continue
        above = sorted(t for t in targets if (floor_of(t) or 0) > own)
        if above:
            found[name] = above
    return found


def test_layers_import_only_downwards() -> None:
    assert upward_imports(import_graph()) == {}


def test_a_layer_that_imports_upwards_is_caught() -> None:
    graph = {"bot.store.sqlite": {"bot.service.core"}, "bot.service.core": {"bot.store.sqlite"}}
    assert upward_imports(graph) == {"bot.store.sqlite": ["bot.service.core"]}
    assert upward_imports({"bot.systems.asl.campaign": {"bot.commands.layer"}}) != {}
    assert upward_imports({"bot.systems.asl.campaign": {"bot.commands.replies"}}) == {}


def test_each_layer_package_says_what_it_is_and_what_it_may_import() -> None:
    for package in ("store", "service", "commands", "transports", "systems", "leagues"):
        doc = (ROOT / "bot" / package / "__init__.py").read_text(encoding="utf-8")
        assert doc.startswith('"""') and "May import" in doc, package


def engine_system_of(module: str) -> str | None:
    """The game system an engine module belongs to (``engine.asl.refit`` -> ``asl``); ``None`` for the shared
    engine (``engine.dice``, ``engine.sealing`` ...)."""
    parts = module.split(".")
    if parts[0] != "engine" or len(parts) < 2:
        return None
    return parts[1] if f"engine.{parts[1]}." in system_engines() else None


def test_engine_systems_do_not_import_each_other() -> None:
    graph = import_graph()
    crossing = {
        name: sorted(t for t in targets if engine_system_of(t) not in (None, engine_system_of(name)))
        for name, targets in graph.items()
        if engine_system_of(name) is not None
    }
    assert {n: t for n, t in crossing.items() if t} == {}


def test_engine_system_of_names_the_package() -> None:
    assert engine_system_of("engine.asl.refit") == "asl"
    assert engine_system_of("engine.asl") == "asl"
    assert engine_system_of("engine.sealing") is None
    assert engine_system_of("bot.systems.asl") is None


def test_every_system_with_secrets_seals_through_one_module() -> None:
    graph = import_graph()
    sealing = {n for n, targets in graph.items() if "engine.sealing" in targets}
    assert {"engine.asl.refit.run", "engine.wargame_commander.series", "bot.service.game_service"} <= sealing


def test_every_folder_of_code_is_a_package() -> None:
    """A folder of code is a regular package, with the docstring that says what it holds: none is a namespace
    package by accident (``bot/leagues`` was one)."""
    folders = {path.parent for layer in ("bot", "engine", "render") for path in (ROOT / layer).rglob("*.py")}
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []
