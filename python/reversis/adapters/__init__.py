"""Adapters between reversis and other ecosystems, each behind an optional extra.

- :mod:`~reversis.adapters.openspiel_game`: every reversis ruleset registered as an OpenSpiel
  game, so that OpenSpiel's algorithms and bots play it;
- :mod:`~reversis.adapters.pettingzoo`: a PettingZoo AEC environment per ruleset.
"""
