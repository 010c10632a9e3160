"""The rules version of Vae Victis games (Ardennes 1944 and Alsace 1944: one engine, the games are data).

Bump :data:`RULES_VERSION` with every change that can alter what is legal or what an action does (the engine,
its data, the shared engine it uses): each game and each action records the version it was played under, and
``umpire verify`` replays with the rules only the actions played under the current one. ``tests/test_rules_versions.py``
keeps :data:`RULES_FINGERPRINT`, a hash of that code (comments and docstrings left out) and data, and fails until
it is updated: the moment to decide whether the change needs a bump.
"""

RULES_VERSION = 2
"""The current rules version (1: the first recorded; games stored before versions were recorded count as 0; 2:
issue 27's Alsace 1944 changes: the Lomont and Sewen roads, Improved Positions by 4.3, hex control from the
set-up for the Alarm Battalion and controlled entries, the Antitank Ditch's placement, the variant's default
set-up)."""

RULES_FINGERPRINT = "8a3ec31a90ebf22d76c3f077aa07f5727c085e7464ebd4d0ebe9ac7b61cb952c"
"""The fingerprint of the rules code and data that :data:`RULES_VERSION` was last checked against."""
