"""The fixed words of the RePh: the organiser's pseudo-seat, the families of verbs, chits and card conditions."""

from __future__ import annotations

from engine.asl.state import Chit
from engine.contract import Seat

ORGANISER: Seat = "organiser"
"""The pseudo-seat of the campaign's organiser (the bot checks the moderator role)."""

ORGANISER_VERBS = ("load_table", "corrected")
"""What the organiser's pseudo-seat may do: load tables, and mark a moderator's correction."""
ROSTER_VERBS = ("add_units", "update_units", "recombine", "areas")
"""A side keeps its own roster and map state whenever it likes (not a decision the RePh waits for)."""
WINDY = ("mild_breeze", "heavy_wind")
"""Wind Force results that call for a Wind Direction (9.62164 note 1)."""
CONDITIONS = {
    "weather": ("mist", "overcast", "clear", "clear_gusty"),
    "ec": ("wet", "moist", "moderate", "dry"),
    "wind": ("no_wind", "mild_breeze", "heavy_wind"),
}
"""What the Initial Scenario's card may give for weather, EC and wind (the effect words of the 9.6216 tables)."""
CHITS: tuple[Chit, ...] = ("attack", "idle")
