"""What a seat may see of the campaign, and its result once it is over."""

from __future__ import annotations

import hashlib
from typing import Any

from engine.asl.module import module_from_raw
from engine.asl.refit.prompts import prompts
from engine.asl.state import CampaignState
from engine.contract import Result, Seat
from engine.sealing import salt_for


def view(state: CampaignState, seat: Seat | None) -> dict[str, Any]:
    """What a seat may see (``None``: the channel). A seat sees its own secrets, never the other's."""
    module = module_from_raw(state.module)
    revealed = state.revealed_ids()
    step = module.steps[state.step] if state.phase == "refit" else None
    current = prompts(state)
    secrets = []
    for secret in state.secrets:
        item: dict[str, Any] = {
            "id": secret.id,
            "owner": secret.owner,
            "kind": secret.kind,
            "rule": secret.rule,
            "date": secret.date,
            "receipt": secret.receipt,
            "revealed": secret.revealed,
        }
        if secret.revealed or secret.owner == seat:
            item["content"] = secret.content
        if secret.revealed:
            item["salt"] = salt_for(bytes.fromhex(state.seed), secret.id, secret.epoch)
        secrets.append(item)
    rosters = {
        side: (roster.private() if side == seat else roster.public(revealed)) for side, roster in state.rosters.items()
    }
    visible = {
        side: {u.id for u in roster.units if side == seat or u.secret is None or u.secret in revealed}
        for side, roster in state.rosters.items()
    }
    history = []
    for record in state.history:
        history.append(
            {
                "date": record.date,
                "kind": record.kind,
                "initial": record.initial,
                "scenario_type": record.scenario_type,
                "chits": dict(record.chits),
                "setup_first": record.setup_first,
                "move_first": record.move_first,
                "weather": record.weather,
                "ec": record.ec,
                "wind": record.wind,
                "wind_direction": record.wind_direction,
                "cvp": dict(record.cvp),
                "entered": {side: len([i for i in ids if i in visible[side]]) for side, ids in record.entered.items()},
                "returned": {
                    side: len([i for i in ids if i in visible[side]]) for side, ids in record.returned.items()
                },
            }
        )
    data: dict[str, Any] = {
        "module": {"id": module.id, "title": module.title},
        "cg": dict(state.cg),
        "date": state.date,
        "phase": state.phase,
        "initial": state.initial,
        "after_idle": state.after_idle,
        "step": {"rule": step.rule, "title": step.title, "text": step.text} if step else None,
        "waiting_for": sorted(current),
        "rosters": rosters,
        "history": history,
        "secrets": secrets,
        "rg_chart_status": module.rg_chart_status,
        "cgs_status": module.cgs_status,
        "overrides": list(state.overrides),
        "dice": {"commitment": hashlib.sha256(bytes.fromhex(state.seed)).hexdigest(), "rolls_made": state.rolls_made},
        "result": dict(state.result) if state.result else None,
    }
    if seat is not None and seat in current:
        prompt = current[seat]
        data["prompt"] = {"text": prompt.text, "secret": prompt.secret, "rule": prompt.rule}
    if state.phase == "over":
        data["seed"] = state.seed
    return data


def result(state: CampaignState) -> Result | None:
    """The CG's result once it is over, else ``None``."""
    if state.result is None:
        return None
    return Result(state.result.get("winner"), str(state.result.get("text", "")))
