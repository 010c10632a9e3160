"""The Refit Phase (RePh, 9.601-9.6216) as a state machine of prompts and legal actions.

The campaign alternates between a RePh run by the bot and a CG Scenario played by the players (off the
bot). Each RePh walks the module's steps in order. A step either resolves itself with public dice
(9.612 SAN, 9.615 reinforcements, 9.620 ammunition and ELR), or waits for the sides: manual steps wait
for both to say ``done`` (rolling on the step's tables as they go); secret steps (9.616 CPP DR, 9.617
RG purchase, 9.618 RG rolls, 9.619 Fortifications, 9.6213 Initiative chits) are taken by DM and sealed
with a hash receipt posted at once. Which steps run: before the CG Initial Scenario only the † steps;
after an Idle CG Date only 9.612-.620 and then 9.621 again (9.62132 note 2).

Actions (verb and arguments):

- ``done`` - finish a manual step, or one's setup in 9.6214;
- ``roll`` ``{table, column?, drms?, label?}`` - a public roll on one of the step's tables;
- ``cvp`` ``{by, amount}`` - CVP awarded during the RePh (count for 9.6202);
- ``roll_cpp`` (secret, 9.6162); ``purchase`` ``{rgs}`` (secret, 9.617); ``roll_rgs`` (secret, 9.618);
  ``fortify`` ``{items}`` (secret, 9.619); ``choose_chit`` ``{chit}`` (secret, 9.6213);
- ``report_end`` ``{cvp_<side>..., sudden_death?, winner?, notes?}`` then ``confirm_end`` / ``reject_end``;
- ``reveal`` ``{secret}`` - the owner reveals one of its sealed secrets, at any time;
- ``load_table`` ``{text, file?}`` by the seat ``"organiser"`` - load or correct tables, RG chart, CGs.

Where each rule lives: :mod:`.campaign` (9.6 new campaign), :mod:`.steps` (which steps run),
:mod:`.automatic` (9.612, 9.615, 9.620), :mod:`.secret_steps` (9.616-9.619, 9.6213), :mod:`.commencement`
(9.621), :mod:`.rolls` (a step's public tables), :mod:`.roster_actions` (9.605, 9.6111), :mod:`.scenario_end`
(9.6202, 9.6211-9.6216), :mod:`.prompts`, :mod:`.apply`, :mod:`.views`; the rule index is
``docs/rules/asl-index.md``.
"""

from engine.asl.refit.apply import apply
from engine.asl.refit.auto_drms import auto_quantities, auto_quantity
from engine.asl.refit.campaign import ModuleSource, new_game
from engine.asl.refit.prompts import prompts
from engine.asl.refit.run import describe_secret
from engine.asl.refit.views import result, view
from engine.asl.refit.vocabulary import (
    CHITS,
    CONDITIONS,
    ORGANISER,
    ORGANISER_VERBS,
    ROSTER_VERBS,
    WINDY,
)

__all__ = [
    "CHITS",
    "CONDITIONS",
    "ORGANISER",
    "ORGANISER_VERBS",
    "ROSTER_VERBS",
    "WINDY",
    "ModuleSource",
    "apply",
    "auto_quantities",
    "auto_quantity",
    "describe_secret",
    "new_game",
    "prompts",
    "result",
    "view",
]
