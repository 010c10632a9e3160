"""The Ardennes Wargame Commander's own commands: the campaign manager's frame report, the battles list, the
plan sheet and the score ledger. The other ``frame`` commands are plain play commands (a verb each).

- ``frame report`` - the campaign manager (a moderator holding the ``cm`` seat) enters a flown frame's report
  from a CSV or JSON file posted in the channel (``url``) or a short text (``text``, ``\\n`` for new lines);
  during the dispute window the same command corrects it. Every bad line is listed; nothing changes then.
- ``frame battles`` / ``frame plan`` / ``score`` - information (``describe`` topics of the adapter).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot import posted_files
from bot.replies import Context, Handler, Reply
from bot.service import Refusal

if TYPE_CHECKING:
    from bot.systems.base import Layer


def handlers(layer: Layer) -> dict[str, Handler]:
    """The handlers of the Wargame Commander's own commands for a command layer."""

    async def report(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        if not ctx.caller.moderator:
            raise Refusal("only a moderator (the campaign manager) enters frame reports")
        if bool(o.get("text")) == bool(o.get("url")):
            raise Refusal("give either `url` (a CSV or JSON file posted here) or `text` (\\n for new lines)")
        if o.get("url"):
            posted_files.check_url(str(o["url"]))
            _, text = await posted_files.FETCH(str(o["url"]))
        else:
            text = str(o["text"]).replace("\\n", "\n")
        table = await layer.service.table(ctx.channel)
        state = await layer.service.state(table.game)
        verb = "correct" if getattr(state, "phase", "") == "dispute" else "report"
        outcome = await layer.service.act(ctx.channel, ctx.caller, verb, {"text": text}, seat="cm")
        return await layer.outcome_replies(ctx, outcome, "Frame report entered." if verb == "report" else "Corrected.")

    return {
        "frame report": report,
        "frame battles": layer.info_handler("battles", None),
        "frame plan": layer.info_handler("plan", "side"),
        "score": layer.info_handler("score", None),
    }
