"""The Historical ASL campaign-game keeper: the Refit Phase between CG Scenarios as a pure game system.

The bot does not play the scenarios; it keeps the campaign between them. :class:`AslCampaignSystem` offers the
engine contract (:mod:`engine.contract`) over a :class:`~engine.asl.state.CampaignState`:

- :mod:`engine.asl.module` - the module as data (dates, steps, tables, RG chart) and its validating loader;
- :mod:`engine.asl.tables` - rolls on a table with DRMs and their rounding;
- :mod:`engine.asl.roster` - the CG roster and RG Purchase Record;
- :mod:`engine.sealing` - sealing, receipts, reveal;
- :mod:`engine.asl.refit` - the RePh steps in order, as prompts and actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.asl.module import Module, ModuleError, load_table_override, parse_module, parse_module_text
from engine.asl.refit import ORGANISER, ModuleSource, apply, new_game, prompts, result, view
from engine.asl.state import CampaignState, state_from_json, state_to_json
from engine.contract import Action, Event, Prompt, Result, Seat
from engine.sealing import receipt_for, salt_for, verify_receipt

__all__ = [
    "ORGANISER",
    "AslCampaignSystem",
    "CampaignState",
    "Module",
    "ModuleError",
    "ModuleSource",
    "load_table_override",
    "parse_module",
    "parse_module_text",
    "receipt_for",
    "salt_for",
    "state_from_json",
    "state_to_json",
    "verify_receipt",
]


class AslCampaignSystem:
    """The HASL campaign-game keeper as a game system (see :class:`engine.contract.GameSystem`)."""

    seats: tuple[Seat, ...] = ("allied", "german")
    """A Bridge Too Far's sides, as its module data names them."""

    def __init__(self, modules: ModuleSource | None = None) -> None:
        self.modules = modules
        """Where the modules' data comes from (given by the caller: the engine reads no file). Without it a
        game needs the option ``module_text``."""

    def new_game(self, scenario: str, options: Mapping[str, Any], seed: bytes) -> CampaignState:
        """A campaign for a module id (``"a-bridge-too-far"``) and the CG options (see :func:`refit.new_game`)."""
        return new_game(scenario, options, seed, self.modules)

    def prompts(self, state: CampaignState) -> dict[Seat, Prompt]:
        """What each seat must decide now."""
        return prompts(state)

    def apply(self, state: CampaignState, action: Action) -> tuple[CampaignState, list[Event]]:
        """Apply one action; refusals raise :class:`engine.contract.RulesError` subclasses."""
        return apply(state, action)

    def view(self, state: CampaignState, seat: Seat | None) -> dict[str, Any]:
        """What a seat (or, with ``None``, the channel) may see."""
        return view(state, seat)

    def result(self, state: CampaignState) -> Result | None:
        """The CG's result once it is over."""
        return result(state)

    def state_to_json(self, state: CampaignState) -> dict[str, Any]:
        """The state as JSON data."""
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> CampaignState:
        """Read a state back."""
        return state_from_json(data)
