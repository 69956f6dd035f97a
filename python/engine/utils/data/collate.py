"""``default_collate`` and ``default_convert``: samples into batches, NumPy into tensors."""

import collections.abc
import copy
import re

import engine

__all__ = ["default_collate", "default_convert"]

# NumPy dtype codes of bytes, strings and objects: arrays of these are not turned into tensors.
_NP_STR_OBJ = re.compile(r"[SaUO]")
_ERR_FORMAT = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def _is_numpy(obj):
    return type(obj).__module__ == "numpy"


def _rebuild_mapping(elem, values):
    """A mapping like ``elem`` holding ``values`` (its own type where possible, else a dict)."""
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)  # keeps the mapping type's extra attributes
            clone.update(values)
            return clone
        return type(elem)(values)
    except TypeError:
        return dict(values)


def _rebuild_sequence(elem, items):
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(elem)(items)
    except TypeError:  # e.g. range, or a type without a one-iterable constructor
        return list(items)


def _numpy_to_tensor(data):
    # Through an array, so NumPy scalars keep their dtype (np.int32 -> int32, np.float64 -> float64).
    import numpy as np

    return engine.as_tensor(np.asarray(data))


def default_convert(data):
    """Converts NumPy arrays and scalars inside ``data`` (nested containers too) to tensors;
    leaves everything else as it is. The loader's collate_fn when automatic batching is off."""
    if isinstance(data, engine.Tensor):
        return data
    if _is_numpy(data) and type(data).__name__ not in ("str_", "bytes_", "string_"):
        if type(data).__name__ == "ndarray" and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return _numpy_to_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # named tuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data


def _collate_tensors(batch):
    return engine.stack(batch, 0)


def _collate_numpy_arrays(batch):
    if _NP_STR_OBJ.search(batch[0].dtype.str) is not None:
        raise TypeError(_ERR_FORMAT.format(batch[0].dtype))
    return default_collate([engine.as_tensor(b) for b in batch])


def default_collate(batch):
    """Stacks a list of samples into a batch, recursing into the samples' structure.

    Tensors are stacked along a new first dimension; NumPy arrays become stacked tensors; Python
    floats become a float64 tensor and ints an int64 tensor (bools a bool tensor); strings and
    bytes stay a list; dicts, named tuples and sequences keep their structure with each field
    collated (tuples and lists are transposed: a batch of pairs gives a pair of batches).
    """
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, engine.Tensor):
        return _collate_tensors(batch)
    if _is_numpy(elem):
        import numpy as np

        if isinstance(elem, np.ndarray):
            return _collate_numpy_arrays(batch)
        if isinstance(elem, (np.bool_, np.number, np.object_)):
            return _numpy_to_tensor(batch)
    if isinstance(elem, float):
        return engine.tensor(batch, dtype=engine.float64)
    if isinstance(elem, int):
        return engine.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(
            elem, {key: default_collate([d[key] for d in batch]) for key in elem}
        )
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # named tuple
        return elem_type(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return transposed
        return _rebuild_sequence(elem, transposed)
    raise TypeError(_ERR_FORMAT.format(elem_type))
