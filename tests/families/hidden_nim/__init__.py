"""Hidden Nim: a game family registered only by the test suite (tests/families/registered.py).

Two seats take turns taking one to three stones from a pile; whoever takes the last stone wins.
The one hidden element: the pile's size, drawn by the system at the start (10 to 15 stones) and
known to the server alone until the end reveals it, so a seat never knows how many are left.
Everything the platform needs is in this folder: the rules (`rules.py`), their words
(`describe.py`), the declaration (`module.py`) and the board's renderer (`render.py`).
"""
