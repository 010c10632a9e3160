"""The rules version of Vae Victis games (Ardennes 1944 and Alsace 1944: one engine, the games are data).

Bump :data:`RULES_VERSION` with every change that can alter what is legal or what an action does (the engine,
its data, the shared engine it uses): each game and each action records the version it was played under, and
``umpire verify`` replays with the rules only the actions played under the current one. ``tests/test_rules_versions.py``
keeps :data:`RULES_FINGERPRINT`, a hash of that code (comments and docstrings left out) and data, and fails until
it is updated: the moment to decide whether the change needs a bump.
"""

RULES_VERSION = 3
"""The current rules version (1: the first recorded, with the rules fixes of issues 26, 27 and 28; games stored
before versions were recorded count as 0; 2: the standing order ``retreat`` takes the retreat that loses least,
issue 33; 3: an activation sequence that activated no unit counts as a pass, 2.2, issue 30)."""

RULES_FINGERPRINT = "414c9234c831be0d3ccc4f9d6c4af9e3ca195b31cd0a7dead2b70a3606d4b667"
"""The fingerprint of the rules code and data that :data:`RULES_VERSION` was last checked against."""
