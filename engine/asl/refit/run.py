"""One action being applied: the working copy of the campaign, its module, the dice and the sealed secrets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.asl.module import Module, Step, Table
from engine.asl.refit.auto_drms import auto_quantities
from engine.asl.state import CampaignState, Secret
from engine.asl.tables import TableRoll, look_up, resolve, roll_dice
from engine.contract import Event, Seat
from engine.dice import Dice
from engine.sealing import receipt_for, salt_for, sealed_text, secret_dice


@dataclass
class Run:
    """One action (or setup) being applied: the working copy of the state, its module and the events."""

    state: CampaignState
    module: Module
    events: list[Event] = field(default_factory=list)

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.state.seed)

    def public(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    def private(self, seat: Seat, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data, secret_to=(seat,)))

    def name(self, side: Seat) -> str:
        return self.module.side_name(side)

    def other(self, side: Seat) -> Seat:
        return next(s for s in self.module.sides if s != side)

    # dice ------------------------------------------------------------------------------------------------

    def public_roll(
        self,
        table: Table,
        side: Seat | None,
        quantities: Mapping[str, int] | None = None,
        column: str | None = None,
        extra: Mapping[str, str] | None = None,
        label: str = "",
    ) -> TableRoll:
        """Roll a public table with the engine's auto DRMs plus any asked for; log it in the channel."""
        amounts = dict(auto_quantities(self.state, self.module, table, side, extra or {}))
        amounts.update(quantities or {})
        drms = resolve(table, amounts, side, column)
        dice = Dice(self.seed, self.state.rolls_made)
        rolled = roll_dice(table, dice)
        self.state.rolls_made = dice.rolls_made
        outcome = look_up(table, rolled, drms, column)
        who = f"{self.name(side)}: " if side else ""
        what = f" for {label}" if label else ""
        self.public("roll", f"{who}{outcome.describe(table.title)}{what}", roll=outcome.to_json(), side=side)
        return outcome

    def public_d6(self, what: str) -> int:
        """One public die for a sub-roll a table's note asks for, logged in the channel."""
        dice = Dice(self.seed, self.state.rolls_made)
        value = dice.d6()
        self.state.rolls_made = dice.rolls_made
        self.public("subroll", f"{what}: dr {value}.", dr=value)
        return value

    def secret_roll(
        self, table: Table, side: Seat, column: str | None = None, extra: Mapping[str, str] | None = None
    ) -> TableRoll:
        """Roll a secret table on the side's own dice stream, with the auto DRMs; nothing is logged."""
        drms = resolve(table, auto_quantities(self.state, self.module, table, side, extra or {}), side, column)
        dice = self.secret_dice(side)
        rolled = roll_dice(table, dice)
        self.state.secret_rolls[side] = dice.rolls_made
        return look_up(table, rolled, drms, column)

    def secret_dice(self, side: Seat) -> Dice:
        return secret_dice(self.seed, side, self.state.secret_rolls.get(side, 0), self.state.epoch)

    def secret_d6(self, side: Seat) -> int:
        dice = self.secret_dice(side)
        value = dice.d6()
        self.state.secret_rolls[side] = dice.rolls_made
        return value

    # secrets ---------------------------------------------------------------------------------------------

    def seal(self, owner: Seat, kind: str, rule: str, content: dict[str, Any], what: str) -> Secret:
        """Seal a secret: a public receipt for the channel, the content by DM to its owner."""
        secret_id = f"S{len(self.state.secrets) + 1}"
        epoch = self.state.epoch
        receipt = receipt_for(content, salt_for(self.seed, secret_id, epoch))
        secret = Secret(secret_id, owner, kind, rule, self.state.date, content, receipt, epoch=epoch)
        self.state.secrets.append(secret)
        self.public(
            "sealed",
            f"The {self.name(owner)} player has committed {what} ({rule}); receipt {receipt}.",
            secret=secret_id,
            owner=owner,
            secret_kind=kind,
            rule=rule,
            receipt=receipt,
        )
        return secret

    def reveal(self, secret: Secret) -> None:
        """Reveal a sealed secret: its content and salt become public, so anyone can check the receipt."""
        secret.revealed = True
        salt = salt_for(self.seed, secret.id, secret.epoch)
        self.public(
            "reveal",
            f"Revealed {secret.id} ({self.name(secret.owner)}, {secret.kind}, {secret.date}, {secret.rule}): "
            f"{describe_secret(secret)} (receipt {secret.receipt[:16]}...: the attached file holds its salt and exact"
            " sealed text).",
            secret=secret.id,
            owner=secret.owner,
            secret_kind=secret.kind,
            content=secret.content,
            salt=salt,
            receipt=secret.receipt,
            epoch=secret.epoch,
            details={"id": secret.id, "receipt": secret.receipt, "sealed": sealed_text(secret.content, salt)},
        )

    def steps(self) -> tuple[Step, ...]:
        return self.module.steps

    def current_step(self) -> Step:
        return self.module.steps[self.state.step]


def describe_secret(secret: Secret) -> str:
    """The content of a secret in words."""
    content = secret.content
    if secret.kind == "chit":
        return f"{content['chit']} chit"
    if secret.kind == "cpp":
        return f"CPP DR {content['dice']} + Base # {content['base']} = {content['received']} CPP received"
    if secret.kind == "rg_purchase":
        bought = ", ".join(content["rgs"]) or "no RG"
        return f"{bought}; {content['spent']} CPP spent, {content['left']} left"
    if secret.kind == "fortifications":
        return ", ".join(content["items"]) or "no Fortification"
    if secret.kind == "rg_rolls":
        return "; ".join(result["summary"] for result in content["results"]) or "nothing to roll"
    return str(content)
