"""engine.utils.data: datasets, samplers, collation and the DataLoader (in-process and with workers)."""

import collections
import importlib.util
import json
import pathlib
import pickle
import random

import engine
import numpy as np
import pytest
from engine.utils import data
from engine.utils.data import (
    BatchSampler,
    ChainDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    StackDataset,
    Subset,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    default_convert,
    get_worker_info,
    random_split,
)

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures"


def load_recipes():
    spec = importlib.util.spec_from_file_location("record_data", FIXTURES / "record_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.recipes(engine, data)


# ---------------------------------------------------------------- datasets


def test_tensor_dataset_indexes_first_dimension():
    x, y = engine.arange(12.0).reshape(4, 3), engine.tensor([0, 1, 0, 1])
    ds = TensorDataset(x, y)
    assert len(ds) == 4
    sample = ds[2]
    assert (
        isinstance(sample, tuple)
        and sample[0].tolist() == [6.0, 7.0, 8.0]
        and sample[1].item() == 0
    )
    assert ds[-1][0].tolist() == [9.0, 10.0, 11.0] and ds[-4][1].item() == 0
    assert ds[engine.tensor([3, 0])][0].tolist() == [[9.0, 10.0, 11.0], [0.0, 1.0, 2.0]]
    assert ds[1:3][1].tolist() == [1, 0]
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 0 with size 4"):
        ds[4]
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, engine.zeros(3))


def test_concat_and_add():
    a, b = TensorDataset(engine.arange(3)), TensorDataset(engine.arange(10, 15))
    cat = a + b
    assert isinstance(cat, ConcatDataset) and len(cat) == 8 and cat.cumulative_sizes == [3, 8]
    assert [cat[i][0].item() for i in range(8)] == [0, 1, 2, 10, 11, 12, 13, 14]
    assert cat[-1][0].item() == 14 and cat[-8][0].item() == 0
    with pytest.raises(
        ValueError, match="absolute value of index should not exceed dataset length"
    ):
        cat[-9]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([Stream(3)])


class Stream(IterableDataset):
    """0..n-1, split between workers by worker id."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (info.id, info.num_workers) if info is not None else (0, 1)
        return iter(range(start, self.n, step))

    def __len__(self):
        return self.n


def test_chain_dataset():
    chain = Stream(3) + Stream(2)
    assert isinstance(chain, ChainDataset)
    assert list(chain) == [0, 1, 2, 0, 1] and len(chain) == 5
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([Stream(1), [1, 2]]))


def test_stack_dataset_tuple_and_dict():
    a, b = list(range(4)), ["a", "b", "c", "d"]
    assert StackDataset(a, b)[2] == (2, "c")
    assert StackDataset(x=a, y=b)[1] == {"x": 1, "y": "b"}
    assert StackDataset(a, b).__getitems__([0, 3]) == [(0, "a"), (3, "d")]
    assert StackDataset(x=a, y=b).__getitems__([1]) == [{"x": 1, "y": "b"}]
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset(a, b[:2])
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset(a, y=b)


def test_subset():
    sub = Subset(list(range(10, 20)), [3, 0, 9])
    assert len(sub) == 3 and [sub[i] for i in range(3)] == [13, 10, 19]
    assert sub.__getitems__([2, 0]) == [19, 13]


def test_random_split_lengths_fractions_and_errors():
    generator = engine.Generator()
    generator.manual_seed(0)
    parts = random_split(range(10), [3, 7], generator=generator)
    assert [len(p) for p in parts] == [3, 7]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    parts = random_split(range(11), [0.5, 0.3, 0.2])
    assert [len(p) for p in parts] == [6, 3, 2]  # floors 5, 3, 2, then the remainder round-robin
    with pytest.raises(
        ValueError, match="Sum of input lengths does not equal the length of the input dataset!"
    ):
        random_split(range(10), [3, 8])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(10), [0.5, 1.5, -1.0])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(2), [0.9, 0.1])


# ---------------------------------------------------------------- samplers


def test_sequential_and_batch_sampler():
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert list(BatchSampler(range(10), 3, False)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert list(BatchSampler(range(10), 3, True)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert (
        len(BatchSampler(range(10), 3, False)) == 4 and len(BatchSampler(range(10), 3, True)) == 3
    )
    with pytest.raises(
        ValueError, match="batch_size should be a positive integer value, but got batch_size=0"
    ):
        BatchSampler(range(3), 0, False)
    with pytest.raises(
        ValueError, match="batch_size should be a positive integer value, but got batch_size=True"
    ):
        BatchSampler(range(3), True, False)
    with pytest.raises(
        ValueError, match="drop_last should be a boolean value, but got drop_last=1"
    ):
        BatchSampler(range(3), 2, 1)


def test_random_sampler_checks():
    assert sorted(RandomSampler(range(7))) == list(range(7))
    assert len(RandomSampler(range(7), num_samples=3)) == 3
    with pytest.raises(
        TypeError, match="replacement should be a boolean value, but got replacement=1"
    ):
        RandomSampler(range(3), replacement=1)
    with pytest.raises(
        ValueError, match="num_samples should be a positive integer value, but got num_samples=0"
    ):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(ValueError, match="num_samples=0"):
        RandomSampler([])


def test_weighted_sampler_checks():
    draws = list(WeightedRandomSampler([0.0, 1.0, 0.0], 20))
    assert draws == [1] * 20
    assert sorted(WeightedRandomSampler([1.0, 2.0, 3.0], 3, replacement=False)) == [0, 1, 2]
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        WeightedRandomSampler([1.0], 0)
    with pytest.raises(ValueError, match="replacement should be a boolean value"):
        WeightedRandomSampler([1.0], 1, replacement=None)
    with pytest.raises(
        ValueError, match=r"weights should be a 1d sequence but given weights have shape \(1, 2\)"
    ):
        WeightedRandomSampler([[1.0, 2.0]], 1)


def test_manual_seed_makes_shuffling_reproducible():
    def epoch():
        return [b.tolist() for b in DataLoader(list(range(50)), batch_size=8, shuffle=True)]

    engine.manual_seed(3)
    first = epoch()
    engine.manual_seed(3)
    assert epoch() == first
    assert sorted(sum(first, [])) == list(range(50))


@pytest.mark.parametrize("seed", [0, 1234])
def test_orders_match_pytorch(seed):
    recorded = json.loads((FIXTURES / "data_order.json").read_text())["cases"]
    recipes = load_recipes()
    cases = [c for c in recorded if c["seed"] == seed]
    assert len(cases) == len(recipes)
    for case in cases:
        engine.manual_seed(seed)
        assert json.loads(json.dumps(recipes[case["name"]]())) == case["result"], case["name"]


# ---------------------------------------------------------------- collation


def test_default_collate_types_and_dtypes():
    out = default_collate([engine.tensor([1.0, 2.0]), engine.tensor([3.0, 4.0])])
    assert out.shape == (2, 2) and out.dtype == engine.float32
    floats = default_collate([0.5, 1.5])
    assert floats.dtype == engine.float64 and floats.tolist() == [0.5, 1.5]
    ints = default_collate([1, 2])
    assert ints.dtype == engine.int64 and ints.tolist() == [1, 2]
    assert default_collate([True, False]).dtype == engine.bool
    assert default_collate(["a", "b"]) == ["a", "b"] and default_collate([b"x", b"y"]) == [
        b"x",
        b"y",
    ]
    arrays = default_collate([np.zeros(3, np.float32), np.ones(3, np.float32)])
    assert arrays.shape == (2, 3) and arrays.dtype == engine.float32
    scalars = default_collate([np.float64(1.5), np.float64(2.5)])
    assert scalars.dtype == engine.float64 and scalars.tolist() == [1.5, 2.5]


def test_default_collate_structures():
    batch = [{"x": engine.ones(2), "y": (1, "a")}, {"x": engine.zeros(2), "y": (2, "b")}]
    out = default_collate(batch)
    assert out["x"].tolist() == [[1.0, 1.0], [0.0, 0.0]]
    assert (
        isinstance(out["y"], list) and out["y"][0].tolist() == [1, 2] and out["y"][1] == ("a", "b")
    )
    ordered = default_collate([collections.OrderedDict(b=1, a=2)] * 2)
    assert isinstance(ordered, collections.OrderedDict) and list(ordered) == ["b", "a"]
    Point = collections.namedtuple("Point", "x y")
    point = default_collate([Point(1, 2.0), Point(3, 4.0)])
    assert (
        isinstance(point, Point) and point.x.tolist() == [1, 3] and point.y.dtype == engine.float64
    )
    pairs = default_collate([[1, 2], [3, 4]])
    assert isinstance(pairs, list) and [p.tolist() for p in pairs] == [[1, 3], [2, 4]]


def test_default_collate_errors():
    with pytest.raises(
        RuntimeError, match=r"stack expects each tensor to be equal size, but got \[2\] at entry 0"
    ):
        default_collate([engine.ones(2), engine.ones(3)])
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    message = (
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found"
    )
    with pytest.raises(TypeError, match=message):
        default_collate([object(), object()])
    with pytest.raises(TypeError, match=message):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_default_convert():
    assert default_convert(3) == 3
    converted = default_convert(np.arange(3))
    assert isinstance(converted, engine.Tensor) and converted.tolist() == [0, 1, 2]
    out = default_convert({"a": np.zeros(2), "b": [np.float64(1.0), "s"], "c": (np.int32(4),)})
    assert out["a"].dtype == engine.float64 and out["b"][0].item() == 1.0 and out["b"][1] == "s"
    assert isinstance(out["c"], list) and out["c"][0].dtype == engine.int32
    strings = np.array(["x"])
    assert default_convert(strings) is strings


# ---------------------------------------------------------------- DataLoader, in process


def test_loader_batches_and_len():
    ds = TensorDataset(engine.arange(10.0), engine.arange(10))
    batches = list(DataLoader(ds, batch_size=4))
    assert [b[0].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert (
        len(DataLoader(ds, batch_size=4)) == 3
        and len(DataLoader(ds, batch_size=4, drop_last=True)) == 2
    )
    assert len(list(DataLoader(ds, batch_size=4, drop_last=True))) == 2
    unbatched = list(DataLoader(ds, batch_size=None))
    assert len(unbatched) == 10 and unbatched[3][0].shape == ()
    custom = DataLoader(ds, batch_sampler=[[9, 0], [5]])
    assert [b[1].tolist() for b in custom] == [[9, 0], [5]]
    collated = DataLoader(ds, batch_size=3, collate_fn=lambda batch: len(batch))
    assert list(collated) == [3, 3, 3, 1]
    with pytest.warns(
        UserWarning, match="'pin_memory' argument is set as true but no accelerator is found"
    ):
        assert list(DataLoader(ds, batch_size=5, pin_memory=True))[0][0].tolist() == [0, 1, 2, 3, 4]


def test_loader_over_iterable_dataset():
    assert [b.tolist() for b in DataLoader(Stream(7), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(Stream(7), batch_size=3, drop_last=True)] == [
        [0, 1, 2],
        [3, 4, 5],
    ]
    assert list(DataLoader(Stream(3), batch_size=None)) == [0, 1, 2]
    loader = DataLoader(Stream(7), batch_size=3)
    assert len(loader) == 3


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_workers": -1}, "num_workers option should be non-negative"),
        ({"timeout": -1}, "timeout option should be non-negative"),
        (
            {"prefetch_factor": 2},
            "prefetch_factor option could only be specified in multiprocessing",
        ),
        (
            {"num_workers": 1, "prefetch_factor": -1},
            "prefetch_factor option should be non-negative",
        ),
        ({"persistent_workers": True}, "persistent_workers option needs num_workers > 0"),
        ({"shuffle": True, "sampler": [0]}, "sampler option is mutually exclusive with shuffle"),
        (
            {"batch_sampler": [[0]], "batch_size": 2},
            "batch_sampler option is mutually exclusive with batch_size",
        ),
        (
            {"batch_sampler": [[0]], "drop_last": True},
            "mutually exclusive with batch_size, shuffle, sampler, and drop_last",
        ),
        ({"batch_size": None, "drop_last": True}, "batch_size=None option disables auto-batching"),
        (
            {"multiprocessing_context": "fork"},
            "multiprocessing_context can only be used with multi-process loading",
        ),
        (
            {"num_workers": 1, "multiprocessing_context": "nope"},
            "should specify a valid start method",
        ),
    ],
)
def test_loader_argument_conflicts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DataLoader(list(range(4)), **kwargs)


def test_loader_iterable_dataset_conflicts():
    with pytest.raises(
        ValueError, match="expected unspecified shuffle option, but got shuffle=True"
    ):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(Stream(3), sampler=[0])
    with pytest.raises(ValueError, match="expected unspecified batch_sampler option"):
        DataLoader(Stream(3), batch_sampler=[[0]])


def test_loader_attributes_are_frozen():
    loader = DataLoader(list(range(4)))
    with pytest.raises(
        ValueError, match="batch_size attribute should not be set after DataLoader is initialized"
    ):
        loader.batch_size = 2
    loader.num_workers = 0  # not frozen


# ---------------------------------------------------------------- DataLoader with workers


class Squares(Dataset):
    """i -> (tensor([i*i]), worker id, worker seed, a draw from Python's random module); the id and
    seed are -1 in the main process."""

    def __len__(self):
        return 11

    def __getitem__(self, i):
        info = get_worker_info()
        if info is None:
            return engine.tensor([i * i]), -1, -1, random.random()
        return engine.tensor([i * i]), info.id, info.seed, random.random()


class Failing(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError(f"no item {i}")
        return i


def test_workers_return_batches_in_order():
    assert get_worker_info() is None
    loader = DataLoader(Squares(), batch_size=3, num_workers=2)
    batches = list(loader)
    assert [b[0].flatten().tolist() for b in batches] == [
        [0, 1, 4],
        [9, 16, 25],
        [36, 49, 64],
        [81, 100],
    ]
    assert [b[1].tolist() for b in batches] == [[0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 1]]
    seeds = {b[1][0].item(): b[2][0].item() for b in batches}
    assert seeds[1] == seeds[0] + 1  # base_seed + worker_id


def test_workers_seed_is_drawn_from_the_generator():
    engine.manual_seed(9)
    first = [b[2].tolist() for b in DataLoader(Squares(), batch_size=4, num_workers=2)]
    engine.manual_seed(9)
    second = [b[2].tolist() for b in DataLoader(Squares(), batch_size=4, num_workers=2)]
    assert first == second


def test_worker_init_fn_and_shuffled_order_match_single_process():
    engine.manual_seed(4)
    single = [b[0].flatten().tolist() for b in DataLoader(Squares(), batch_size=2, shuffle=True)]
    engine.manual_seed(4)
    multi = [
        b[0].flatten().tolist()
        for b in DataLoader(Squares(), batch_size=2, shuffle=True, num_workers=2)
    ]
    assert single == multi

    def init(worker_id):
        random.seed(100 + worker_id)

    draws = [
        b[3] for b in DataLoader(Squares(), batch_size=None, num_workers=1, worker_init_fn=init)
    ]
    random.seed(100)
    assert draws[:3] == [random.random() for _ in range(3)]


def test_worker_exception_is_reraised_with_its_type():
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process"):
        list(DataLoader(Failing(), batch_size=1, num_workers=2))
    with pytest.raises(KeyError, match="no item 2"):
        list(DataLoader(Failing(), batch_size=1))


def test_iterable_dataset_with_workers():
    batches = [b.tolist() for b in DataLoader(Stream(10), batch_size=3, num_workers=2)]
    assert batches == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]


def test_persistent_workers_serve_several_epochs():
    loader = DataLoader(
        Squares(), batch_size=4, num_workers=2, persistent_workers=True, prefetch_factor=1
    )
    first_iterator = iter(loader)
    epochs = [[b[0].flatten().tolist() for b in first_iterator]]
    epochs += [[b[0].flatten().tolist() for b in loader] for _ in range(2)]
    assert epochs[0] == epochs[1] == epochs[2] == [[0, 1, 4, 9], [16, 25, 36, 49], [64, 81, 100]]
    assert iter(loader) is first_iterator
    partial = iter(loader)
    next(partial)  # abandon an epoch half way: the next one starts from the beginning
    assert [b[0].flatten().tolist() for b in loader][0] == [0, 1, 4, 9]
    loader._iterator._shutdown_workers()


class Slow(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        import time

        time.sleep(3)
        return i


def test_timeout():
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.5 seconds"):
        list(DataLoader(Slow(), num_workers=1, timeout=0.5))


def test_loader_iterator_is_not_picklable():
    with pytest.raises(NotImplementedError, match="cannot be pickled"):
        pickle.dumps(iter(DataLoader(list(range(3)))))


def test_reachable_from_a_plain_import():
    assert engine.utils.data.DataLoader is DataLoader
    assert engine.utils.data.get_worker_info is get_worker_info
