"""Tables drawn again are remembered: the same text as tabulate draws, never another table's."""

from __future__ import annotations

from tabulate import tabulate as reference

from gametool.core.tables import tabulate


def test_a_table_drawn_again_is_the_table_tabulate_draws() -> None:
    rows = [["a", 1, 2.5], ["b", True, None], ["c", 1.0, "x"]]
    options = {"headers": ["name", "n", "v"], "tablefmt": "simple"}
    first = tabulate(rows, **options)
    assert first == reference(rows, **options)
    assert tabulate([list(row) for row in rows], **options) == first
    rows[0][1] = 7  # a table changed after it was drawn is drawn anew
    assert tabulate(rows, **options) == reference(rows, **options) != first


def test_cells_equal_in_value_but_not_in_type_are_not_mixed_up() -> None:
    for cells in ([[1]], [[1.0]], [[True]], [["1"]], [[(1,)]]):
        assert tabulate(cells, tablefmt="plain") == reference(cells, tablefmt="plain")
        assert tabulate(cells, tablefmt="grid") == reference(cells, tablefmt="grid")


def test_tables_given_otherwise_than_as_rows_are_drawn_as_tabulate_draws_them() -> None:
    columns = {"a": [1, 2], "b": ["x", "y"]}
    assert tabulate(columns, headers="keys") == reference(columns, headers="keys")
    assert tabulate(iter([[1, 2]])) == reference([[1, 2]])
    assert tabulate([[[1, 2], {"k": 1}]]) == reference([[[1, 2], {"k": 1}]])
