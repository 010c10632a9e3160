"""[9.6] A new campaign: the module, the CG, its dates and each side's starting roster."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.asl.module import CgDef, Module, ModuleError, parse_module_text
from engine.asl.refit.arguments import split_ids
from engine.asl.roster import RgLine, Roster
from engine.asl.state import CampaignState, DateRecord
from engine.contract import InvalidActionError


def _side_ints(options: Mapping[str, Any], key: str, sides: tuple[str, ...]) -> dict[str, int] | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - set(sides):
        raise InvalidActionError(f"option {key!r} must give a number for each side ({', '.join(sides)})")
    result: dict[str, int] = {}
    for side, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int):
            raise InvalidActionError(f"option {key}.{side} must be a whole number, not {number!r}")
        result[side] = number
    return result


ModuleSource = Callable[[str], tuple[str, str]]
"""Where a module's data comes from: a module id to (file name, TOML text); raises :class:`KeyError` for an
unknown id. The caller gives it (the bot: ``scenarios.asl.module_text``): the engine reads no file."""


def new_game(
    module_id: str, options: Mapping[str, Any], seed: bytes, modules: ModuleSource | None = None
) -> CampaignState:
    """[9.6] A campaign for a module and a CG, ready for the RePh before its Initial Scenario.

    ``options``: ``cg`` (a CG id of the module, or a free name), ``start`` and ``end`` (CG Dates; the
    CG's own when the module defines it), ``elr`` and ``san`` (``{side: n}``, the CG Initial Scenario's),
    ``attack_chits`` / ``idle_chits`` (``{side: n}`` chit limits, 9.62131), ``cpp`` and ``fpp``
    (``{side: n}`` given for the initial purchase), ``initial_rgs`` (``{side: "I1,I2"}`` RGs in the
    Initial Scenario OB, recorded but never counted against limits, 9.6178), ``ammo_level`` (default 0)
    and ``module_text`` (a TOML module to use instead of the one ``modules`` gives for ``module_id``).

    :raises InvalidActionError: naming the option that is missing or wrong.
    """
    module = _module_for(module_id, options, modules)
    cg_id = str(options.get("cg", "custom"))
    cg_def = module.cgs.get(cg_id)
    start, end = _cg_dates(module, options, cg_id, cg_def)
    figures = _side_figures(module, options, cg_def)
    rosters = {
        side: Roster(
            side,
            elr=figures.elr[side],
            san=figures.san[side],
            ammo_level=int(options.get("ammo_level", 0)) if side == module.ammo_side else 0,
            cpp_left=figures.cpp.get(side, 0),
            cpp_available=figures.cpp.get(side, 0),
            fpp_given=figures.fpp.get(side, 0),
        )
        for side in module.sides
    }
    state = CampaignState(
        module=dict(module.raw),
        cg={
            "id": cg_id,
            "title": cg_def.title if cg_def else cg_id,
            "start": start,
            "end": end,
            "attack_chits": figures.attack_chits,
            "idle_chits": figures.idle_chits,
        },
        seed=seed.hex(),
        rosters=rosters,
        date=start,
        secret_rolls={side: 0 for side in module.sides},
        history=[DateRecord(start, initial=True)],
        phase="created",
    )
    for side in module.sides:
        rosters[side].line(start)
    _record_initial_rgs(module, options, rosters, start)
    return state


def _module_for(module_id: str, options: Mapping[str, Any], modules: ModuleSource | None) -> Module:
    """The module played: the TOML text the options give, else the one ``modules`` gives for its id."""
    text = options.get("module_text")
    try:
        if isinstance(text, str):
            return parse_module_text(text, f"{module_id}.toml")
        if modules is not None:
            file, text = modules(module_id)
            return parse_module_text(text, file)
        raise InvalidActionError(f"no data for the module {module_id!r}: give its TOML text (module_text)")
    except KeyError as error:
        raise InvalidActionError(str(error.args[0])) from None
    except ModuleError as error:
        raise InvalidActionError(str(error)) from None


def _cg_dates(module: Module, options: Mapping[str, Any], cg_id: str, cg_def: CgDef | None) -> tuple[str, str]:
    """The CG's first and last CG Dates: the options', else the CG's own (the last: the module's last date)."""
    date_ids = [d.id for d in module.dates]
    start = options.get("start") or (cg_def.start if cg_def else None)
    end = options.get("end") or (cg_def.end if cg_def else None) or date_ids[-1]
    if start is None:
        raise InvalidActionError(
            f"option 'start' is needed: the CG's start date, one of {', '.join(date_ids)}"
            + ("" if cg_def else f" (CG {cg_id!r} is not defined in the module: {module.cgs_status})")
        )
    for key, value in (("start", start), ("end", end)):
        if value not in date_ids:
            raise InvalidActionError(f"option {key!r} is {value!r}; CG Dates are {', '.join(date_ids)}")
    if date_ids.index(end) < date_ids.index(start):
        raise InvalidActionError(f"the CG cannot end ({end}) before it starts ({start})")
    return str(start), str(end)


@dataclass(frozen=True)
class _SideFigures:
    """Each side's starting figures: ELR and SAN, chit limits (9.62131), CPP and FPP for the first purchase."""

    elr: dict[str, int]
    san: dict[str, int]
    attack_chits: dict[str, int] | None
    idle_chits: dict[str, int] | None
    cpp: dict[str, int]
    fpp: dict[str, int]


def _side_figures(module: Module, options: Mapping[str, Any], cg_def: CgDef | None) -> _SideFigures:
    """The options' figures for each side, else the CG's own; ELR and SAN are needed for both."""
    sides = module.sides
    elr = _side_ints(options, "elr", sides) or (dict(cg_def.elr) if cg_def and cg_def.elr else None)
    san = _side_ints(options, "san", sides) or (dict(cg_def.san) if cg_def and cg_def.san else None)
    for key, value in (("elr", elr), ("san", san)):
        if value is None or set(value) != set(sides):
            raise InvalidActionError(
                f"option {key!r} is needed for each side ({', '.join(sides)}): the CG Initial Scenario's {key.upper()}"
            )
    attack = _side_ints(options, "attack_chits", sides) or (
        dict(cg_def.attack_chits) if cg_def and cg_def.attack_chits else None
    )
    idle = _side_ints(options, "idle_chits", sides) or (
        dict(cg_def.idle_chits) if cg_def and cg_def.idle_chits else None
    )
    cpp = _side_ints(options, "cpp", sides) or {}
    fpp = _side_ints(options, "fpp", sides) or {}
    assert elr is not None and san is not None
    return _SideFigures(elr, san, attack, idle, cpp, fpp)


def _record_initial_rgs(module: Module, options: Mapping[str, Any], rosters: dict[str, Roster], start: str) -> None:
    """[9.6178] The RGs of the Initial Scenario OB go on each side's RG Purchase Record (never counted against
    the purchase limits)."""
    initial_rgs = options.get("initial_rgs") or {}
    if not isinstance(initial_rgs, Mapping):
        raise InvalidActionError("option 'initial_rgs' must map each side to a list of RG IDs such as \"I1,I2\"")
    for side, ids in initial_rgs.items():
        if side not in module.sides:
            raise InvalidActionError(f"option 'initial_rgs' names unknown side {side!r}")
        for key in split_ids(str(ids)):
            entry = module.rg(side, key)
            rosters[side].rg_record.append(
                RgLine(start, entry.key if entry else key, entry.type if entry else "(not in the RG chart)", False)
            )
