"""The README's operation list is generated from the op table, never kept by hand."""

import gen_op_list


def test_readme_lists_the_op_table():
    text, start, end = gen_op_list.current()
    assert text[start:end] == gen_op_list.block(), (
        "run: PYTHONPATH=python python3 tests/gen_op_list.py"
    )
