"""Taking cards out of a hand or row: one copy per card taken, the rest in their order."""

from __future__ import annotations

import pytest

from domain.islands.state import without


def test_without_one_card_takes_its_first_copy_and_keeps_the_order() -> None:
    assert without(("AA", "BB", "BB", "CC"), ("BB",)) == ("AA", "BB", "CC")
    assert without(("AA",), ("AA",)) == ()


def test_without_several_cards_takes_one_copy_of_each() -> None:
    assert without(("AA", "BB", "BB", "CC"), ("BB", "BB")) == ("AA", "CC")
    assert without(("AA", "BB", "CC"), ("CC", "AA")) == ("BB",)


@pytest.mark.parametrize("taken", [("DD",), ("AA", "AA")])
def test_without_a_card_that_is_not_there_raises(taken: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        without(("AA", "BB"), taken)
