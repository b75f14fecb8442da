"""Computer players for the island games: seat knowledge, random, greedy and ISMCTS policies, the arena."""
