"""The README's list of tested operations, generated from the op table (tests/op_table.py).

    PYTHONPATH=python python3 tests/gen_op_list.py     # rewrites the block in README.md

tests/test_readme_ops.py fails when the README's block differs from what this produces."""

import pathlib
import sys

HERE = pathlib.Path(__file__).parent
README = HERE.parent / "README.md"
START, END = "<!-- op-table:start -->", "<!-- op-table:end -->"


def api_names():
    """The public names the table's rows exercise: each row name's longest prefix (at `_`
    boundaries) that is an attribute of engine or of engine.Tensor; indexing rows count as
    `__getitem__`. Rows for reflected operators and compositions name no function of their own."""
    sys.path.insert(0, str(HERE))
    import engine
    import op_table

    names = set()
    for op in op_table.OPS:
        if op.name.startswith("getitem"):
            names.add("__getitem__")
            continue
        parts = op.name.split("_")
        for k in range(len(parts), 0, -1):
            candidate = "_".join(parts[:k])
            if hasattr(engine, candidate) or hasattr(engine.Tensor, candidate):
                names.add(candidate)
                break
    return sorted(names, key=lambda n: (n.lower(), n))


def block():
    names = api_names()
    body = ", ".join(f"`{n}`" for n in names)
    return (
        f"{START}\n{len(names)} operations, each checked against NumPy on contiguous, strided, broadcast, "
        f"0-d and empty inputs and, where differentiable, by gradcheck: {body}.\n{END}"
    )


def current():
    text = README.read_text()
    start, end = text.index(START), text.index(END) + len(END)
    return text, start, end


def main():
    text, start, end = current()
    README.write_text(text[:start] + block() + text[end:])


if __name__ == "__main__":
    main()
