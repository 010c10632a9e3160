"""Glicko-2 ratings, as published by Mark Glickman ("Example of the Glicko-2 system", 2013).

A player is a rating, a rating deviation (RD: how uncertain the rating is) and a volatility (how erratic the
player's results are). Games are grouped into rating periods; at the end of a period every player's figures are
updated from the games of the period at once, and the RD of a player who did not play grows.

Written from the paper's eight steps rather than taken from PyPI: the ``glicko2`` package there (2.1.0) is a
small untyped module (this project's mypy is strict) and adds a dependency for fifty lines of arithmetic; the
test checks this one against the paper's worked example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The factor between the Glicko scale and the Glicko-2 scale (step 2)."""

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant that bounds how fast volatility changes (the paper suggests 0.3 to 1.2)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility iteration (step 5)."""


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 figures on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One game of a rating period, from the rated player's side: the opponent as rated at the period's start,
    and the player's score (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's figures after a rating period with ``games`` (none: only the deviation grows, step 6)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, min(DEFAULT_DEVIATION, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    opponents = [((g.opponent.rating - DEFAULT_RATING) / SCALE, g.opponent.deviation / SCALE, g.score) for g in games]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v = 1.0 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1.0 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents
    )
    # Step 4: the estimated improvement.
    delta = v * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    sigma = _volatility(phi, sigma, v, delta, tau)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    # Step 8: back to the Glicko scale.
    return Rating(mu * SCALE + DEFAULT_RATING, phi * SCALE, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
