"""``Work``: the handle an ``async_op=True`` collective returns."""

__all__ = ["Work"]


class Work:
    """A pending collective or point-to-point operation (``async_op=True``).

    :meth:`wait` blocks until the operation completes and its results are in the output tensors;
    :meth:`is_completed` tests without blocking. Engine tensors the operation reads or writes must
    not be changed (or freed) before then, as with PyTorch.

    Example::

        >>> work = dist.all_reduce(t, async_op=True)
        >>> ...  # other computation
        >>> work.wait()
    """

    def __init__(self, requests, finishers=(), outputs=(), keep_alive=()):
        self._requests = list(requests)
        self._finishers = list(finishers)
        self._outputs = list(outputs)
        # Buffers MPI reads or writes until completion (temporaries, byte views).
        self._keep_alive = keep_alive
        self._status = None
        self._done = not self._requests and not self._finishers

    def _complete(self):
        for finish in self._finishers:
            finish()
        self._finishers = []
        self._keep_alive = ()
        self._done = True

    def wait(self, timeout=None):
        """Blocks until the operation has completed; returns True. ``timeout`` is accepted for
        PyTorch compatibility (MPI operations cannot be abandoned half way)."""
        if not self._done:
            from engine.distributed._mpi import MPI

            mpi = MPI()
            if len(self._requests) == 1:
                status = mpi.Status()
                self._requests[0].Wait(status)
                self._status = status
            elif self._requests:
                mpi.Request.Waitall(self._requests)
            self._complete()
        return True

    def is_completed(self):
        """True once the operation has completed (finishing it when it just has)."""
        if not self._done:
            from engine.distributed._mpi import MPI

            mpi = MPI()
            if not self._requests or mpi.Request.Testall(self._requests):
                self._complete()
        return self._done

    def is_success(self):
        """True when the operation completed without error."""
        if not self._done:
            raise RuntimeError("Invalid call to Work.is_success before work has completed")
        return True

    def exception(self):
        """The operation's error (MPI errors are raised at once, so always None)."""
        return None

    def result(self):
        """The output tensors of the operation (after :meth:`wait`)."""
        return list(self._outputs)

    def source_rank(self):
        """For a completed ``irecv``: the rank the message came from."""
        if self._status is None:
            raise RuntimeError("source_rank: only a completed receive has a source rank")
        return self._status.Get_source()

    def synchronize(self):
        """Same as :meth:`wait` for CPU tensors."""
        self.wait()


def completed():
    """A ``Work`` that is already complete (for operations done at once)."""
    return Work(())
