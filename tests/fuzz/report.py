"""What a run found, and its text/JSON report.

Outcomes are counted per exception type. Crashes and hangs keep the call that caused them with a
command that reruns it alone. Unclear messages (see ``classify``) are grouped by their normalised
text, each group with one example call, so a thousand calls that hit one bad message are one line.
"""

import json
import signal
from collections import Counter
from dataclasses import asdict, dataclass, field

from . import classify


def describe_status(rc):
    """``SIGSEGV`` for a negative status (killed by that signal), ``exit status N`` otherwise."""
    if rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return f"signal {-rc}"
    return f"exit status {rc}"


@dataclass
class Crash:
    kind: str  # the signal name, "exit status N", "sanitizer report" or, for hangs, "hang"
    index: object  # the call's index, or None when the process died outside a call
    label: str
    code: str
    details: str = ""  # faulthandler traceback, stderr tail, sanitizer report
    seed: int = 0
    range: tuple = ()  # for deaths outside a call: the calls the process had run
    reproduces: object = None  # True/False once rerun alone, None if not checked
    culprit: dict = None  # for deaths at exit: the one call found to cause it, if any

    def repro(self):
        if self.index is not None:
            return f"python3 -m tests.fuzz --seed {self.seed} --start {self.index} --calls 1"
        if self.culprit:
            i = self.culprit["i"]
            return f"python3 -m tests.fuzz --seed {self.seed} --start {i} --calls 1"
        if self.range:
            lo, hi = self.range
            return f"python3 -m tests.fuzz --seed {self.seed} --start {lo} --calls {hi - lo}"
        return ""

    def summary_line(self):
        """Where the process died: a sanitizer's SUMMARY line, else the innermost frame of
        faulthandler's dump outside the fuzzer."""
        for line in self.details.splitlines():
            if line.startswith("SUMMARY: "):
                return line
        for line in self.details.splitlines():
            line = line.strip()
            if line.startswith("File ") and "tests/fuzz/" not in line and "<frozen" not in line:
                return line
        return ""


@dataclass
class Example:
    count: int
    index: int
    label: str
    code: str
    outcome: str
    message: str
    reason: str
    labels: Counter = field(default_factory=Counter)  # every target that produced this group


@dataclass
class Result:
    seed: int = 0
    calls: int = 0
    elapsed: float = 0.0
    outcomes: Counter = field(default_factory=Counter)
    crashes: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    unclear: dict = field(default_factory=dict)  # (type, normalised message) -> Example
    unraisable: dict = field(default_factory=dict)  # normalised message -> Example
    labels: Counter = field(default_factory=Counter)

    def add_outcome(self, start, end):
        self.calls += 1
        self.outcomes[end["outcome"]] += 1
        label = start["label"] if start else "?"
        code = start["code"] if start else "?"
        self.labels[label] += 1
        if end.get("unclear"):
            key = (end["outcome"], classify.normalise(end.get("msg", "")))
            self._group(self.unclear, key, end, label, code, end["unclear"], end.get("msg", ""))
        if end.get("unraisable"):
            key = classify.normalise(end["unraisable"])
            self._group(self.unraisable, key, end, label, code, "unraisable", end["unraisable"])

    @staticmethod
    def _group(groups, key, end, label, code, reason, message):
        if key in groups:
            groups[key].count += 1
        else:
            groups[key] = Example(1, end["i"], label, code, end["outcome"], message, reason)
        groups[key].labels[label] += 1

    def add_crash(self, crash, hang=False):
        if crash.index is not None:
            self.calls += 1  # a call that killed the process still counts as a call made
        self.outcomes["HANG" if hang else "CRASH"] += 1
        (self.hangs if hang else self.crashes).append(crash)

    def crash_groups(self):
        """Crashes grouped by how the process died and where: the innermost Python frame when it
        is library code (one root cause reached from many targets), else the target. Biggest
        group first."""
        groups = {}
        for c in self.crashes:
            where = c.summary_line()
            place = where if where and "<fuzz " not in where else c.label
            groups.setdefault((c.kind, place), []).append(c)
        return sorted(groups.values(), key=lambda g: (-len(g), g[0].label))

    @property
    def failed(self):
        return bool(self.crashes or self.hangs)

    def to_json(self):
        return json.dumps(
            {
                "seed": self.seed,
                "calls": self.calls,
                "elapsed": self.elapsed,
                "outcomes": dict(self.outcomes),
                "crashes": [asdict(c) for c in self.crashes],
                "hangs": [asdict(c) for c in self.hangs],
                "unclear": [
                    {"type": k[0], "message": k[1], **_example(v)} for k, v in self.unclear.items()
                ],
                "unraisable": [{"message": k, **_example(v)} for k, v in self.unraisable.items()],
            },
            indent=1,
        )

    def to_text(self, top=30, details=True):
        out = []
        rate = self.calls / self.elapsed if self.elapsed else 0.0
        out.append(
            f"engine fuzz: seed {self.seed}, {self.calls} calls in {self.elapsed:.1f} s "
            f"({rate:.0f} calls/s)"
        )
        out.append("outcomes: " + ", ".join(f"{k} {v}" for k, v in self.outcomes.most_common()))
        out.append("")
        groups = self.crash_groups()
        out.append(f"CRASHES: {len(self.crashes)} in {len(groups)} groups (signal, target)")
        for g in groups:
            c = g[0]
            checked = {True: "reproduces alone", False: "does NOT reproduce alone", None: ""}
            out.append(f"  [{c.kind}] {c.label}  x{len(g)}  {checked[c.reproduces]}")
            labels = Counter(x.label for x in g)
            if len(labels) > 1:
                out.append("    targets: " + _labels(labels))
            out.append("    " + c.code.replace("\n", "\n    "))
            if c.culprit:
                out.append(f"    caused by call {c.culprit['i']}: {c.culprit['code']!r}")
            out.append(f"    rerun: {c.repro()}")
            where = c.summary_line()
            if where:
                out.append(f"    died in: {where}")
            if details and c.details:
                tail = "\n".join(c.details.splitlines()[:12])
                out.append("      " + tail.replace("\n", "\n      "))
        out.append("")
        out.append(f"HANGS: {len(self.hangs)}")
        for c in self.hangs:
            out.append(f"  {c.label}: {c.code!r}")
            out.append(f"    rerun: {c.repro()}")
            where = c.summary_line()
            if where:
                out.append(f"    stuck in: {where}")
        out.append("")
        out.append(
            f"UNCLEAR MESSAGES: {sum(e.count for e in self.unclear.values())} in "
            f"{len(self.unclear)} groups (top {top})"
        )
        ranked = sorted(self.unclear.items(), key=lambda kv: -kv[1].count)
        for (etype, msg), e in ranked[:top]:
            out.append(f"  x{e.count} {etype}: {msg}   [{e.reason}]")
            out.append(f"    targets: {_labels(e.labels)}")
            out.append(f"    e.g. call {e.index} ({e.label}): {_one_line(e.code)}")
        if self.unraisable:
            out.append("")
            out.append(f"UNRAISABLE (swallowed) EXCEPTIONS: {len(self.unraisable)} groups")
            for msg, e in sorted(self.unraisable.items(), key=lambda kv: -kv[1].count)[:top]:
                out.append(f"  x{e.count} {msg}")
                out.append(f"    e.g. call {e.index} ({e.label}): {_one_line(e.code)}")
        # The closing line CI reads: a call passes unless it crashed or hung.
        failed = len(self.crashes) + len(self.hangs)
        out.append("")
        out.append(f"fuzz: {self.calls - failed} passed, {failed} failed")
        return "\n".join(out)


def _one_line(code, limit=300):
    flat = code.replace("\n", "; ")
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _labels(counter, limit=8):
    items = [f"{k} ({v})" for k, v in counter.most_common(limit)]
    if len(counter) > limit:
        items.append(f"... {len(counter) - limit} more")
    return ", ".join(items)


def _example(e):
    # asdict() would rebuild the Counter from (key, count) pairs, counting the pairs themselves.
    return {**asdict(e), "labels": dict(e.labels)}
