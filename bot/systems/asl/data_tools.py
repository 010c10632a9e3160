"""The command line's tools for an ASL campaign-game module (``umpire validate a-bridge-too-far``): the bundled
module's data checked as the engine reads it, every problem listed. ``umpire render`` draws no module.

Light on purpose, like the room: the engine and the data are imported when a tool runs.
"""

from __future__ import annotations

from bot.systems.base import DataReport, DataTools

MODULES = ("a-bridge-too-far",)
"""The bundled modules (``scenarios.asl.MODULES``, not imported here: it loads the engines)."""


class AslDataTools(DataTools):
    """Checks a module: its CG dates, RePh steps and tables, the RG chart and the CGs (or why they are absent)."""

    games = MODULES

    def validate(self, game: str) -> DataReport:
        from engine.asl.module import ModuleError, parse_module_text
        from scenarios.asl import module_text

        try:
            file, text = module_text(game)
            module = parse_module_text(text, file)
        except ModuleError as error:
            problems = "".join(f"\n  {problem}" for problem in error.problems)
            return DataReport(False, f"{game}: {len(error.problems)} problem(s){problems}")
        chart = f"{len(module.rg_chart)} entries" if module.rg_chart else "not in the module (`mod load-table`)"
        cgs = ", ".join(module.cgs) if module.cgs else "not in the module (given at `campaign create`)"
        return DataReport(
            True,
            f"{module.title}: sound. {len(module.dates)} CG dates, {len(module.steps)} RePh steps, "
            f"{len(module.tables)} tables, {len(module.reinforcements)} reinforcements, "
            f"{len(module.fortifications)} fortifications; RG chart: {chart}; CGs: {cgs}.",
        )
