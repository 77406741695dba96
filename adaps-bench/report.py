#!/usr/bin/env python3
"""Turns JMH JSON results into Markdown tables, pairing each AdaPS benchmark with its baseline.

Usage:
    java -jar adaps-bench/target/benchmarks.jar RemoteAccess -rf json -rff remote.json
    python3 adaps-bench/report.py remote.json [more.json ...] > report.md

Pairs, within one benchmark class: X with rawX or plainX (RemoteAccessBenchmark pull/rawPull,
LocalAccessBenchmark pull/plainPull, MessageCodecBenchmark encode/plainEncode, ...) and the
explicit pairs of EXPLICIT_PAIRS (MfEpochBenchmark adaps/plainArrays, ReplicaAccessBenchmark
pullReplica/pullOwned, pushReplica/pushOwned and updateInPlaceReplica/updateInPlaceOwned, SyncRoundBenchmark
pushThenSync/refreshOnly, ...).
One table per pair and mode, one row per parameter combination (and JMH thread count), with the
ratio subject / baseline:

* throughput: operations per second, values per second (ops/s * batch) where `batch` is a
  parameter, MB/s of values (ops/s * batch * valueLength * 4 / 2^20) where `valueLength` is too;
* sample time: p50 and p99;
* single-shot and average time: the mean.

Where `replicas` is a parameter (SyncRoundBenchmark: one operation is one synchronization round of
that many replicas), each side also gets its time per replica (the mean, or p50 and p99, divided by
`replicas`), or replicas per second in throughput mode.

Methods without a partner get a table of their own. Standard library only.
"""

import argparse
import json
import math
import sys
from collections import OrderedDict

BASELINE_PREFIXES = ("raw", "plain")
EXPLICIT_PAIRS = {"MfEpochBenchmark": [("adaps", "plainArrays")],
                  "RelocationForwardingBenchmark": [("pullForwarded", "pullAtHome")],
                  "ReplicaAccessBenchmark": [("pullReplica", "pullOwned"), ("pushReplica", "pushOwned"),
                                              ("updateInPlaceReplica", "updateInPlaceOwned")],
                  "SyncRoundBenchmark": [("pushThenSync", "refreshOnly")]}
MODE_NAMES = {"thrpt": "throughput", "sample": "sample time", "ss": "single-shot time", "avgt": "average time"}
PER_SECOND = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9, "min": 1 / 60.0}
MEBIBYTE = float(1 << 20)


class Result:
    """One JMH result: a benchmark method at one parameter combination, mode and thread count."""

    def __init__(self, entry):
        benchmark = entry["benchmark"]
        self.cls, self.method = benchmark.rsplit(".", 1)
        self.mode = entry["mode"]
        self.threads = entry["threads"]
        self.params = OrderedDict(entry.get("params", {}))
        metric = entry["primaryMetric"]
        self.score = number(metric["score"])
        self.error = number(metric.get("scoreError"))
        self.unit = metric["scoreUnit"]
        self.percentiles = {float(k): number(v) for k, v in metric.get("scorePercentiles", {}).items()}

    def row_key(self):
        return (self.threads, tuple(self.params.items()))

    def per_second(self):
        """The throughput score in operations per second."""
        return self.score * PER_SECOND[self.unit.split("/")[1]]


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def load(paths):
    """Results by class, in first-seen order; a later file overrides an equal result of an earlier."""
    classes = OrderedDict()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for entry in json.load(f):
                result = Result(entry)
                key = (result.method, result.mode, result.row_key())
                classes.setdefault(result.cls, OrderedDict())[key] = result
    return classes


def pairs(cls, methods):
    """(subject, baseline) pairs among `methods` and the methods left without a partner."""
    found = [(a, b) for a, b in EXPLICIT_PAIRS.get(cls.rsplit(".", 1)[-1], []) if a in methods and b in methods]
    for method in methods:
        for prefix in BASELINE_PREFIXES:
            rest = method[len(prefix):]
            if method.startswith(prefix) and rest[:1].isupper():
                subject = rest[0].lower() + rest[1:]
                if subject in methods and all(subject != a for a, _ in found):
                    found.append((subject, method))
    paired = {m for pair in found for m in pair}
    return found, [m for m in methods if m not in paired]


def fmt(x):
    if x is None or math.isnan(x):
        return "–"
    magnitude = abs(x)
    if magnitude >= 1000:
        return f"{x:,.0f}"
    if magnitude >= 100:
        return f"{x:.1f}"
    if magnitude >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def with_error(result):
    if result is None:
        return "–"
    if math.isnan(result.error):
        return fmt(result.score)
    return f"{fmt(result.score)} ± {fmt(result.error)}"


def ratio(a, b):
    if a is None or b is None or math.isnan(a) or math.isnan(b) or b == 0:
        return "–"
    return f"{a / b:.2f}"


def sort_key(row_key):
    threads, params = row_key
    return (threads, [(0, float(v), "") if is_number(v) else (1, 0.0, v) for _, v in params])


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


class Layout:
    """Which parameters vary within a class (columns) and which are fixed (stated once)."""

    def __init__(self, results):
        names = OrderedDict()
        for r in results:
            for name, value in r.params.items():
                names.setdefault(name, set()).add(value)
        self.varying = [n for n, values in names.items() if len(values) > 1]
        self.fixed = [(n, next(iter(values))) for n, values in names.items() if len(values) == 1]
        thread_counts = {r.threads for r in results}
        self.show_threads = len(thread_counts) > 1 or thread_counts != {1}

    def header(self):
        return (["-t"] if self.show_threads else []) + list(self.varying)

    def cells(self, row_key):
        threads, params = row_key
        params = dict(params)
        return ([str(threads)] if self.show_threads else []) + [params.get(n, "–") for n in self.varying]


def values_per_op(params):
    return float(params["batch"]) if "batch" in params else None


def replicas_per_op(params):
    """Replicas synchronized per operation (one round of SyncRoundBenchmark), if that is a parameter."""
    return float(params["replicas"]) if "replicas" in params else None


def per_replica(value, params):
    count = replicas_per_op(params)
    if value is None or count is None or count == 0:
        return None
    return value / count


def mebibytes_per_op(params):
    if "batch" in params and "valueLength" in params:
        return float(params["batch"]) * float(params["valueLength"]) * 4 / MEBIBYTE
    return None


def throughput_columns(result, params):
    """Cells for one side of a throughput row: ops/s, values/s and MB/s where they apply."""
    cells = [with_error(result)]
    per_op = [f for f in (values_per_op(params), mebibytes_per_op(params), replicas_per_op(params)) if f is not None]
    for factor in per_op:
        cells.append("–" if result is None else fmt(result.per_second() * factor))
    return cells


def throughput_header(name, params):
    header = [f"{name} ops/s"]
    if values_per_op(params) is not None:
        header.append(f"{name} values/s")
    if mebibytes_per_op(params) is not None:
        header.append(f"{name} MB/s")
    if replicas_per_op(params) is not None:
        header.append(f"{name} replicas/s")
    return header


def table(layout, methods, mode, rows):
    """Markdown lines of one table. `rows` maps a row key to {method: Result}."""
    some_params = dict(next(iter(rows))[1])
    header = layout.header()
    unit = next(r for row in rows.values() for r in row.values()).unit
    replica_unit = unit.split("/")[0] + "/replica"
    for m in methods:
        if mode == "thrpt":
            header += throughput_header(m, some_params)
        elif mode == "sample":
            header += [f"{m} p50 ({unit})", f"{m} p99 ({unit})"]
            if replicas_per_op(some_params) is not None:
                header += [f"{m} p50 per replica ({replica_unit})", f"{m} p99 per replica ({replica_unit})"]
        else:
            header += [f"{m} mean ({unit})"]
            if replicas_per_op(some_params) is not None:
                header += [f"{m} mean per replica ({replica_unit})"]
    if len(methods) == 2:
        header += ["ratio p50", "ratio p99"] if mode == "sample" else ["ratio"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in sorted(rows, key=sort_key):
        row = rows[key]
        params = dict(key[1])
        cells = layout.cells(key)
        for m in methods:
            r = row.get(m)
            if mode == "thrpt":
                cells += throughput_columns(r, params)
            elif mode == "sample":
                percentiles = [r.percentiles.get(p) if r else None for p in (50.0, 99.0)]
                cells += [fmt(p) if p is not None else "–" for p in percentiles]
                if replicas_per_op(some_params) is not None:
                    cells += [fmt(per_replica(p, params)) if p is not None else "–" for p in percentiles]
            else:
                cells += [with_error(r)]
                if replicas_per_op(some_params) is not None:
                    cells += [fmt(per_replica(r.score if r else None, params))]
        if len(methods) == 2:
            a, b = row.get(methods[0]), row.get(methods[1])
            if mode == "sample":
                cells += [ratio(*(r.percentiles.get(p) if r else None for r in (a, b))) for p in (50.0, 99.0)]
            else:
                cells += [ratio(a.score if a else None, b.score if b else None)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def notes(methods, mode, params, subject="AdaPS"):
    """The note under a table; `subject` names the first method of a pair (AdaPS against a baseline
    outside the library, else the method itself)."""
    text = []
    if len(methods) == 2:
        better = f"above 1 means {subject} is faster" if mode == "thrpt" else f"above 1 means {subject} takes longer"
        text.append(f"Ratio = {methods[0]} / {methods[1]} ({better}).")
    if mode == "thrpt":
        if values_per_op(params) is not None:
            text.append("values/s = ops/s × batch; MB/s = values/s × valueLength × 4 / 2^20 (value bytes only).")
        if replicas_per_op(params) is not None:
            text.append("replicas/s = ops/s × replicas.")
    elif replicas_per_op(params) is not None:
        text.append("One operation is one synchronization round; per replica = time per round / replicas.")
    return " ".join(text)


def paired_rows(methods, mode, by_method):
    """Rows of one table: {row key: {method: Result}}. The first method's results give the rows; a
    baseline result joins every row whose thread count and parameters include all of its own (a
    baseline may have fewer parameters, e.g. no `batch` for plain arrays)."""
    first = by_method[methods[0]].get(mode, {})
    if not first:
        rows = OrderedDict()
        for m in methods:
            for key, result in by_method[m].get(mode, {}).items():
                rows.setdefault(key, {})[m] = result
        return rows
    rows = OrderedDict((key, {methods[0]: result}) for key, result in first.items())
    for m in methods[1:]:
        for (threads, params), result in by_method[m].get(mode, {}).items():
            for (row_threads, row_params), row in rows.items():
                if row_threads == threads and set(params) <= set(row_params):
                    row[m] = result
    return rows


def report(classes):
    out = []
    for cls, results in classes.items():
        layout = Layout(results.values())
        by_method = OrderedDict()
        for (method, mode, key), result in results.items():
            by_method.setdefault(method, OrderedDict()).setdefault(mode, OrderedDict())[key] = result
        found, alone = pairs(cls, list(by_method))
        explicit = set(EXPLICIT_PAIRS.get(cls.rsplit(".", 1)[-1], []))
        out.append(f"## {cls.rsplit('.', 1)[-1]}")
        out.append("")
        if layout.fixed:
            out.append("Fixed parameters: " + ", ".join(f"{n}={v}" for n, v in layout.fixed) + ".")
            out.append("")
        for methods in [list(p) for p in found] + [[m] for m in alone]:
            modes = OrderedDict.fromkeys(mode for m in methods for mode in by_method[m])
            for mode in modes:
                rows = paired_rows(methods, mode, by_method)
                out.append(f"### {' vs '.join(methods)} ({MODE_NAMES.get(mode, mode)})")
                out.append("")
                out.extend(table(layout, methods, mode, rows))
                params = dict(next(iter(rows))[1])
                subject = methods[0] if tuple(methods) in explicit else "AdaPS"
                note = notes(methods, mode, params, subject)
                if note:
                    out.append("")
                    out.append(note)
                out.append("")
    return "\n".join(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="JMH result files written with -rf json -rff FILE")
    args = parser.parse_args(argv)
    sys.stdout.write(report(load(args.files)))


if __name__ == "__main__":
    main(sys.argv[1:])
