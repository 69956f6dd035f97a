"""Builders for the docstrings that share a shape (pointwise functions, in-place variants), so that
each entry only states what differs: the signature, one sentence and an example."""

import re

INPUT = "    input (Tensor): the input tensor."
# One line of at most WIDTH characters, broken at a space (the text is written as one long line
# per paragraph; wrapping it here costs a fraction of a millisecond for all entries).
WIDTH = 96
_LINE = re.compile(rf"(.{{1,{WIDTH - 1}}})(?: +|$)")


def wrap(paragraph):
    """paragraph broken into lines of at most WIDTH characters."""
    if len(paragraph) <= WIDTH:
        return paragraph
    return _LINE.sub(lambda m: m[1] + "\n", paragraph).rstrip("\n")


OUT = "\n\nKeyword args:\n    out (Tensor, optional): the output tensor."


def _indent(example):
    return "\n".join("    " + line if line else "" for line in example.strip().splitlines())


def entry(signature, text, args="", example="", keywords=""):
    """signature, text, then the Args, Keyword args and Example sections that are given."""
    parts = [signature, "\n\n".join(map(wrap, text.strip().split("\n\n")))]
    if args:
        parts.append("Args:\n" + args.strip("\n"))
    if keywords:
        parts.append("Keyword args:\n" + keywords.strip("\n"))
    if example:
        parts.append("Example::\n\n" + _indent(example))
    return "\n\n".join(parts)


def unary(name, text, example, signature_extra=""):
    """A pointwise function of one tensor with an ``out=`` keyword."""
    return entry(
        f"{name}(input{signature_extra}, *, out=None) -> Tensor",
        text,
        INPUT,
        example,
        "    out (Tensor, optional): the output tensor.",
    )


def binary(name, text, example, other="other", other_doc="the second operand", alpha=False):
    """A broadcasting pointwise function of two operands (tensors or numbers)."""
    alpha_sig = ", alpha=1" if alpha else ""
    keywords = "    out (Tensor, optional): the output tensor."
    if alpha:
        keywords = f"    alpha (Number): the multiplier for ``{other}``.\n" + keywords
    return entry(
        f"{name}(input, {other}, *, {alpha_sig[2:] + ', ' if alpha else ''}out=None) -> Tensor",
        text
        + "\n\n``input`` and ``"
        + other
        + "`` broadcast to a common shape; the result has their"
        " promoted dtype.",
        f"    input (Tensor or Number): the first operand.\n    {other} (Tensor or Number): {other_doc}.",
        example,
        keywords,
    )


def see(qualified):
    """The text of a method that is the function ``qualified`` with ``self`` as its input."""
    return f"See :func:`{qualified}`."


def in_place(method):
    return f"In-place version of :meth:`~Tensor.{method}`: writes the result into ``self`` and returns it."
