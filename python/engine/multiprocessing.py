"""engine.multiprocessing: Python's multiprocessing, under PyTorch's name, with ``spawn``.

Tensors pass between processes by pickling (their data is copied); engine has no shared-memory
tensor transport. Data loading with worker processes is :class:`engine.utils.data.DataLoader`'s
``num_workers``.
"""

import multiprocessing as _mp
from multiprocessing import *  # noqa: F403

__all__ = list(getattr(_mp, "__all__", [])) + ["ProcessRaisedException", "spawn", "start_processes"]


class ProcessRaisedException(Exception):
    """A process started by :func:`spawn` raised: its error and traceback."""

    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg)
        self.error_index = error_index
        self.pid = error_pid


class ProcessExitedException(ProcessRaisedException):
    """A process started by :func:`spawn` exited with a non-zero code."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name


def _wrap(fn, i, args, queue):
    import traceback

    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        queue.put(traceback.format_exc())
        raise SystemExit(1) from None


class ProcessContext:
    """The processes :func:`start_processes` started; ``join()`` waits and raises their errors."""

    def __init__(self, processes, error_queues):
        self.processes = processes
        self.error_queues = error_queues

    def pids(self):
        """The operating-system process ids of the started processes, in start order."""
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        """Waits for every process; raises the first failure. Returns True when all are done."""
        for p in self.processes:
            p.join(timeout)
        for index, (p, queue) in enumerate(zip(self.processes, self.error_queues)):
            if p.exitcode not in (0, None):
                for other in self.processes:
                    if other.is_alive():
                        other.terminate()
                if not queue.empty():
                    raise ProcessRaisedException(
                        f"\n\n-- Process {index} terminated with the following error:\n"
                        + queue.get(),
                        index,
                        p.pid,
                    )
                raise ProcessExitedException(
                    f"process {index} terminated with exit code {p.exitcode}",
                    index,
                    p.pid,
                    p.exitcode,
                )
        return all(p.exitcode is not None for p in self.processes)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Starts ``nprocs`` processes running ``fn(i, *args)``; joins them if ``join``."""
    ctx = _mp.get_context(start_method)
    processes, queues = [], []
    for i in range(nprocs):
        queue = ctx.SimpleQueue()
        p = ctx.Process(target=_wrap, args=(fn, i, args, queue), daemon=daemon)
        p.start()
        processes.append(p)
        queues.append(queue)
    context = ProcessContext(processes, queues)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """``fn(i, *args)`` in ``nprocs`` new processes (i = 0 .. nprocs-1), as torch.multiprocessing.spawn."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
