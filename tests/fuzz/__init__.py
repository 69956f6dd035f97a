"""A seeded random fuzzer for engine's public API: hostile arguments, run in child processes.

``python3 -m tests.fuzz --calls N --seed S`` from the repository root; see ``__main__`` for the
options. Modules: ``values`` (the argument pools), ``objects`` (hostile objects the calls use),
``scenarios`` (multi-step programs), ``discovery`` (what there is to call), ``targets`` (one call
as source), ``classify`` (which errors are unclear), ``worker`` (the child), ``driver`` (the
parent), ``report`` (what a run found).
"""
