"""What runs inside a DataLoader worker process, and the pieces both sides share.

A worker takes ``(task_index, sampler_output)`` pairs from its own index queue, fetches and
collates the samples, and puts ``(task_index, batch)`` on the shared data queue. ``None`` tells it
to exit; a :class:`ResumeIteration` (persistent workers) tells it a new epoch begins. An exception
in the dataset travels back as an :class:`ExceptionWrapper` and is raised in the main process.
"""

import os
import queue
import random
import sys
import traceback

import engine

# How long (seconds) the loader waits on its workers before checking that they are still alive.
STATUS_CHECK_INTERVAL = 5.0
# How often (seconds) an idle worker checks the done event and its parent. Short, because a loader
# collected as garbage may have lost its index queues' feeder threads (their finalizers run first)
# and then the exit sentinel never arrives: the done event is what tells the worker to go.
WORKER_POLL_INTERVAL = 0.2

_worker_info = None


class WorkerInfo:
    """Describes the worker process it is read in: ``id``, ``num_workers``, ``seed``, ``dataset``."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        items = ", ".join(f"{k}={getattr(self, k)}" for k in self.__keys)
        return f"{self.__class__.__name__}({items})"


def get_worker_info():
    """The :class:`WorkerInfo` of the current DataLoader worker process; None in the main process.

    In an :class:`IterableDataset`'s ``__iter__`` this tells each worker which share of the
    stream to produce; ``dataset`` is the worker's own copy of the dataset.
    """
    return _worker_info


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process with its traceback text."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        """Raises the exception again (same type where its constructor allows) with the worker's
        traceback in the message."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


class _KeyErrorMessage(str):
    """A KeyError shows its message with repr(); this keeps the traceback readable."""

    def __repr__(self):
        return self


class ResumeIteration:
    """Sent to persistent workers when a new epoch begins."""


class IterableDatasetStopIteration:
    """Sent by a worker whose iterable dataset is exhausted."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class MapFetcher:
    """Samples of a map-style dataset for an index (or a list of them, collated)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation, self.collate_fn = dataset, auto_collation, collate_fn

    def fetch(self, index):
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        getitems = getattr(self.dataset, "__getitems__", None)
        data = getitems(index) if callable(getitems) else [self.dataset[i] for i in index]
        return self.collate_fn(data)


class IterableFetcher:
    """The next sample (or batch of samples, collated) of an iterable dataset."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset_iter = iter(dataset)
        self.auto_collation, self.collate_fn, self.drop_last = auto_collation, collate_fn, drop_last
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in index:
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)


def make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last):
    cls = IterableFetcher if iterable else MapFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


def _seed_worker(base_seed, worker_id):
    """Seeds Python's, engine's and NumPy's global generators as PyTorch seeds a worker's."""
    seed = base_seed + worker_id
    random.seed(seed)
    engine.manual_seed(seed)
    try:
        import numpy as np
    except ImportError:
        return
    # NumPy's legacy seed takes 32-bit words; PyTorch derives four from (worker id, base seed)
    # with NumPy's SeedSequence hashing, so that nearby seeds give unrelated streams.
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32]
    np.random.seed(np.random.SeedSequence(entropy).generate_state(4))


def worker_loop(
    iterable,
    dataset,
    index_queue,
    data_queue,
    done_event,
    auto_collation,
    collate_fn,
    drop_last,
    base_seed,
    init_fn,
    worker_id,
    num_workers,
    parent_pid,
):
    """The body of a worker process (started by the loader; not for direct use)."""
    global _worker_info
    try:
        seed = base_seed + worker_id
        _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_exception = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        iteration_end = False
        while True:
            try:
                task = index_queue.get(timeout=WORKER_POLL_INTERVAL)
            except queue.Empty:
                if done_event.is_set() or os.getppid() != parent_pid:  # loader finished, or gone
                    break
                continue
            if task is None:
                break
            if isinstance(task, ResumeIteration):
                data_queue.put((task, None))
                iteration_end = False
                if init_exception is None:
                    fetcher = make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
                continue
            if done_event.is_set() or iteration_end:
                continue  # draining until told to exit or resume
            idx, index = task
            if init_exception is not None:
                data, init_exception = init_exception, None
            else:
                try:
                    data = fetcher.fetch(index)
                except StopIteration:
                    if iterable:
                        data = IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
                except Exception:
                    data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
