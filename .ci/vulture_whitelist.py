"""Names the dead-code check (vulture, in .ci/run) cannot see used: each is called by a library, read by name,
or kept as a record's field. A name belongs here only with the reason it is alive."""

# ruff: noqa: B018
from bench import bench_scale_out
from bot.transports.cogs.heartbeat import Heartbeat
from bot.transports.cogs.league_deadlines import LeagueDeadlines
from bot.transports.cogs.reminders import Reminders
from bot.transports.discord_app import UmpireBot
from bot.transports.views import FormModal, PromptButton, PromptSelect
from engine.asl import roster, units
from engine.vaevictis import odds
from tests.bot import test_discord, test_discord_ardennes

_ = object()  # stands for an object whose attribute a library sets or reads

# discord.py calls these: a cog's start and end, the client's start, dynamic items rebuilt from a custom id,
# an item's check before its callback, a modal's submission, the command tree's error handler.
Heartbeat.cog_load, Heartbeat.cog_unload
LeagueDeadlines.cog_load, LeagueDeadlines.cog_unload
Reminders.cog_load, Reminders.cog_unload
UmpireBot.setup_hook
_.on_error  # UmpireBot's command tree's error handler, set in __init__
PromptButton.from_custom_id, PromptButton.interaction_check
PromptSelect.from_custom_id, PromptSelect.interaction_check
FormModal.on_submit
# discord.py reads a slash command callback's signature and parameter descriptions (bot/transports/cogs/slash.py).
_.__signature__
_.__discord_app_commands_param_description__

# aiosqlite reads the connection's row factory.
_.row_factory

# A package's module-level __getattr__ (PEP 562) imports its adapter's names on first use.
_.__getattr__

# Started by name in a child process (python -c "from ... import ...").
bench_scale_out.worker
test_discord.sealing_child
test_discord_ardennes.burst_child

# Fields of records written to JSON whole (dataclasses.asdict) and shown to players.
roster.RgLine.number_purchased
units.Unit.hardened, units.Unit.malfunctioned
units.Unit.immobilized, units.Unit.stunned
odds.Assessment.base_column

# Keys of the engines' pending records (TypedDicts), read and written by subscription (record["min_losses"]).
_.then, _.pending_cvp, _.back_to, _.confirm_by, _.sudden_death  # engine/asl/state.py
_.drm_detail, _.zoc_owed, _.min_losses, _.unfulfilled, _.held_by_defender  # engine/vaevictis/pending_records.py
_.defender_lost, _.armor_on_both_sides, _.snafu_choices
_.defender_hex, _.airfield, _.shot_down  # engine/wargame_commander/records.py

# pytest's hooks, markers and autouse fixtures, found by name.
_.pytest_generate_tests, _.pytestmark
_._ardennes  # an autouse fixture (tests/bot/test_channel_messages.py)

# The rule index's subject column, parsed into each row with the others (tests/vaevictis/test_rules_index.py).
_.subject
