"""Game families that live in the tests: registered by the test suite only, never by domain/games.py."""
