"""``DataLoader``: batches from a dataset, in the main process or in worker processes."""

import itertools
import math
import multiprocessing
import os
import queue
import warnings

from engine.utils.data import _worker
from engine.utils.data._random import random_seed
from engine.utils.data.collate import default_collate, default_convert
from engine.utils.data.dataset import IterableDataset
from engine.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]

get_worker_info = _worker.get_worker_info


class _InfiniteConstantSampler(Sampler):
    """``None`` forever: the index stream of an iterable dataset (its samples carry no index)."""

    def __iter__(self):
        while True:
            yield None


def _suggested_max_workers():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count()


class DataLoader:
    """Iterates over ``dataset`` in batches, with PyTorch's arguments and semantics.

    Map-style datasets are visited in the order of ``sampler`` (sequential, or random with
    ``shuffle=True``) and grouped by ``batch_size`` (or by a custom ``batch_sampler``); each batch
    goes through ``collate_fn`` (``default_collate``). Iterable-style datasets are read as streams.
    ``num_workers > 0`` fetches batches in that many worker processes (``multiprocessing``), each
    seeded ``base_seed + worker_id`` and described by ``get_worker_info()``; batches come back in
    order. ``pin_memory`` is accepted and has no effect on the CPU.

    Args:
        dataset (Dataset or IterableDataset): where the samples come from.
        batch_size (int or None): samples per batch; ``None`` yields the samples one by one,
            uncollated. Default: 1.
        shuffle (bool): visit a map-style dataset in a new random order each epoch.
            Default: ``False``.
        sampler (Sampler or iterable, optional): the order of the indices (excludes
            ``shuffle``).
        batch_sampler (Sampler, optional): yields whole batches of indices (excludes
            ``batch_size``, ``shuffle``, ``sampler`` and ``drop_last``).
        num_workers (int): worker processes; 0 loads in the main process. Default: 0.
        collate_fn (callable, optional): merges a list of samples into a batch. Default:
            :func:`default_collate` (tensors stacked, numbers made tensors, structure kept).
        drop_last (bool): drop the last batch when it is smaller. Default: ``False``.
        timeout (float): seconds to wait for a worker's batch (0: no limit). Default: 0.
        worker_init_fn (callable, optional): called with the worker id in each worker.
        generator (engine.Generator, optional): draws the shuffling and the base seed.
        prefetch_factor (int, optional): batches each worker loads ahead. Default: 2.
        persistent_workers (bool): keep the workers between epochs. Default: ``False``.

    Example::

        >>> data = engine.utils.data.TensorDataset(engine.arange(10.0), engine.arange(10))
        >>> loader = engine.utils.data.DataLoader(data, batch_size=4)
        >>> [y.tolist() for _, y in loader]
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    """

    __initialized = False

    def __init__(
        self,
        dataset,
        batch_size=1,
        shuffle=None,
        sampler=None,
        batch_sampler=None,
        num_workers=0,
        collate_fn=None,
        pin_memory=False,
        drop_last=False,
        timeout=0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor=None,
        persistent_workers=False,
        pin_memory_device="",
        in_order=True,
    ):
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing."
                "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._iterable = True
            if shuffle not in {False, None}:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified "
                    f"batch_sampler option, but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
            self._iterable = False

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"
            )

        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        """The multiprocessing context workers start in (None: the platform's default)."""
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers == 0:
                raise ValueError(
                    "multiprocessing_context can only be used with multi-process loading "
                    f"(num_workers > 0), but got num_workers={self.num_workers}"
                )
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(
                        "multiprocessing_context option should specify a valid start method in "
                        f"{methods!r}, but got multiprocessing_context={context!r}"
                    )
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError(
                    "multiprocessing_context option should be a valid context object or a string "
                    f"specifying the start method, but got multiprocessing_context={context}"
                )
        self.__multiprocessing_context = context

    def __setattr__(self, attr, val):
        frozen = (
            "batch_size",
            "batch_sampler",
            "sampler",
            "drop_last",
            "dataset",
            "persistent_workers",
        )
        if self.__initialized and attr in frozen:
            raise ValueError(
                f"{attr} attribute should not be set after {self.__class__.__name__} is initialized"
            )
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self):
        if self._iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = (
                    length // self.batch_size
                    if self.drop_last
                    else math.ceil(length / self.batch_size)
                )
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """Warns, as PyTorch does, when more workers are asked for than CPUs are available."""
        if self.num_workers == 0:
            return
        suggested = _suggested_max_workers()
        if suggested is not None and self.num_workers > suggested:
            warnings.warn(
                f"This DataLoader will create {self.num_workers} worker processes in total. Our suggested max "
                f"number of worker in current system is {suggested}, which is smaller than what this DataLoader "
                "is going to create. Please be aware that excessive worker creation might get DataLoader running "
                "slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.",
                stacklevel=2,
            )


class _BaseIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        if loader.pin_memory:
            # engine computes on the CPU: there is no accelerator memory to pin for.
            warnings.warn(
                "'pin_memory' argument is set as true but no accelerator is found, "
                "then device pinned memory won't be used.",
                stacklevel=2,
            )
        self._sampler_iter = iter(self._index_sampler)
        # Drawn after the sampler's iterator is made and before it runs, as PyTorch draws it, so
        # shuffled orders match PyTorch's stream position.
        self._base_seed = random_seed(loader.generator)
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if self._iterable and self._IterableDataset_len_called is not None:
            if self._num_yielded > self._IterableDataset_len_called:
                warn_msg = (
                    f"Length of IterableDataset {self._dataset} was reported to be "
                    f"{self._IterableDataset_len_called} (when accessing len(dataloader)), but "
                    f"{self._num_yielded} samples have been fetched. "
                )
                if self._num_workers > 0:
                    warn_msg += (
                        "For multiprocessing data-loading, this could be caused by not properly "
                        "configuring the IterableDataset replica at each worker."
                    )
                warnings.warn(warn_msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError(f"{self.__class__.__name__} cannot be pickled")


class _SingleProcessIter(_BaseIter):
    def __init__(self, loader):
        super().__init__(loader)
        self._fetcher = _worker.make_fetcher(
            self._iterable, self._dataset, self._auto_collation, self._collate_fn, self._drop_last
        )

    def _next_data(self):
        index = self._next_index()
        return self._fetcher.fetch(index)


class _MultiProcessIter(_BaseIter):
    """Worker processes fed round-robin, ``prefetch_factor`` tasks each in flight, batches
    returned in sampler order."""

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        context = loader.multiprocessing_context or multiprocessing
        self._worker_init_fn = loader.worker_init_fn
        self._data_queue = context.Queue()
        self._done_event = context.Event()
        self._index_queues, self._workers = [], []
        self._shutdown = False
        self._owner_pid = (
            os.getpid()
        )  # a forked worker inherits this object and must not shut it down
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()
            process = context.Process(
                target=_worker.worker_loop,
                args=(
                    self._iterable,
                    self._dataset,
                    index_queue,
                    self._data_queue,
                    self._done_event,
                    self._auto_collation,
                    self._collate_fn,
                    self._drop_last,
                    self._base_seed,
                    self._worker_init_fn,
                    worker_id,
                    self._num_workers,
                    os.getpid(),
                ),
                daemon=True,
            )
            process.start()
            self._index_queues.append(index_queue)
            self._workers.append(process)
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0  # next task index to hand out
        self._rcvd_idx = 0  # next task index to return
        self._task_info = {}  # task index -> (worker id,) while pending, (worker id, data) when early
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        if not first_iter:
            # Persistent workers: tell each a new epoch begins; drop stale results until all agree.
            for index_queue in self._index_queues:
                index_queue.put(_worker.ResumeIteration())
            waiting = self._num_workers
            while waiting > 0:
                message = self._get_data()
                if isinstance(message[0], _worker.ResumeIteration):
                    waiting -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout):
        try:
            return True, self._data_queue.get(timeout=timeout)
        except queue.Empty:
            failed = [w for w in self._workers if not w.is_alive()]
            if failed:
                pids = ", ".join(str(w.pid) for w in failed)
                self._shutdown_workers()
                raise RuntimeError(
                    f"DataLoader worker (pid(s) {pids}) exited unexpectedly"
                ) from None
            return False, None

    def _get_data(self):
        if self._timeout > 0:
            success, data = self._try_get_data(self._timeout)
            if success:
                return data
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        while True:
            success, data = self._try_get_data(_worker.STATUS_CHECK_INTERVAL)
            if success:
                return data

    def _next_data(self):
        while True:
            # Skip tasks sent to workers whose iterable dataset has ended.
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info is not None and (len(info) == 2 or self._workers_status[info[0]]):
                    break
                self._task_info.pop(self._rcvd_idx, None)
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:
                data = self._task_info.pop(self._rcvd_idx)[1]
                return self._process_data(data)
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if isinstance(data, _worker.IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                self._task_info[idx] += (data,)
                continue
            del self._task_info[idx]
            return self._process_data(data)

    def _try_put_index(self):
        if self._tasks_outstanding >= self._prefetch_factor * self._num_workers:
            return
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return  # every worker has ended its stream
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data):
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_unavailable(self, worker_id):
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        if getattr(self, "_shutdown", True) or self._owner_pid != os.getpid():
            return
        self._shutdown = True
        self._done_event.set()
        for index_queue in self._index_queues:
            try:
                index_queue.put(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.join(timeout=_worker.STATUS_CHECK_INTERVAL)
        for index_queue in self._index_queues:
            index_queue.cancel_join_thread()
            index_queue.close()
        self._data_queue.cancel_join_thread()
        self._data_queue.close()
        for w in self._workers:
            if w.is_alive():
                w.terminate()

    def __del__(self):
        if hasattr(self, "_workers"):  # __init__ may have failed before starting any
            self._shutdown_workers()
