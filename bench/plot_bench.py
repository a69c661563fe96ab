#!/usr/bin/env python3
"""plot_bench.py RESULTS.TSV OUTDIR: the benchmark's PNGs (see bench/README.md).

Reads run_bench.sh --tsv lines (mode, N, S, metric, unit, library, median)
and writes two figures, each with OpenPMIx dashed and pmixx solid:
  bench_job.png    job-size mode (8 local clients) vs S: start-up and
                   teardown times, Get latencies, memory, collect fences;
  bench_modex.png  modex mode (a job of N local procs) vs N: collect fences,
                   first Gets of the peers' blobs, barrier, memory.
Values that are not numbers (n/a, FAILED) are left out of the lines.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LIBS = (("OpenPMIx", "--", "o"), ("pmixx", "-", "s"))


def load(path):
    """{(mode, metric, lib): {x: value}}; x is S (job mode) or N (modex)."""
    data = {}
    with open(path, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if len(row) != 7:
                continue
            mode, n, s, metric, _unit, lib, value = row
            try:
                v = float(value.rstrip("*"))
            except ValueError:
                continue
            if value.endswith("*"):
                continue  # from a failed run
            x = int(s) if mode == "job" else int(n)
            data.setdefault((mode, metric, lib), {})[x] = v
    return data


def panel(ax, data, mode, series, title, ylabel):
    """series: [(metric, label, scale)]; one colour per metric, both libs."""
    plotted = False
    for i, (metric, label, scale) in enumerate(series):
        colour = "C%d" % i
        for lib, style, marker in LIBS:
            points = sorted(data.get((mode, metric, lib), {}).items())
            if not points:
                continue
            xs = [p[0] for p in points]
            ys = [p[1] * scale for p in points]
            ax.plot(xs, ys, linestyle=style, marker=marker, color=colour,
                    label="%s %s" % (label, lib))
            plotted = True
    ax.set_title(title, fontsize=10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    if plotted:
        ax.legend(fontsize=6, ncol=2)


def blobs(data, mode, prefix):
    """The blob metrics (prefix_64, prefix_1K, ...) present, smallest first."""
    def size(name):
        tail = name[len(prefix) + 1:]
        mult = {"K": 1024, "M": 1048576}.get(tail[-1:], 1)
        return int(tail.rstrip("KM")) * mult
    names = {m for (md, m, _lib) in data if md == mode and m.startswith(prefix + "_")}
    return sorted(names, key=size)


def left_out(data):
    """' (N=128 without fence_1M)' for the modex runs that ran fewer blobs."""
    fences = blobs(data, "modex", "fence")
    xs = {x for (md, _m, _lib), pts in data.items() if md == "modex" for x in pts}
    notes = []
    for x in sorted(xs):
        missing = [m for m in fences
                   if all(x not in data.get(("modex", m, lib), {}) for lib, _s, _k in LIBS)]
        if missing:
            notes.append("N=%d without %s" % (x, ", ".join(m[6:] for m in missing)))
    return " (%s)" % "; ".join(notes) if notes else ""


def job_figure(data, out):
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    panel(axes[0][0], data, "job",
          [("init", "PMIx_Init", 1e-3), ("finalize", "PMIx_Finalize", 1e-3),
           ("host_register", "register_nspace", 1e-3)],
          "start-up and teardown vs job size S", "ms")
    panel(axes[0][1], data, "job",
          [("get_job_p50", "JOB_SIZE p50", 1), ("get_host_p50", "HOSTNAME p50", 1),
           ("get_lrank_p50", "LOCAL_RANK p50", 1), ("get_host_p99", "HOSTNAME p99", 1)],
          "PMIx_Get latency vs S (remote procs' keys)", "us")
    panel(axes[1][0], data, "job",
          [("rss_init", "client VmRSS", 1 / 1024.0), ("hwm_init", "client VmHWM", 1 / 1024.0),
           ("host_rss_conn", "host VmRSS", 1 / 1024.0)],
          "memory after init vs S", "MiB")
    panel(axes[1][1], data, "job",
          [(m, m, 1e-3) for m in blobs(data, "job", "fence")],
          "Fence(PMIX_COLLECT_DATA) vs S, 8 clients", "ms")
    for ax in axes[1]:
        ax.set_xlabel("job size S (procs; 8 per node, 8 local clients)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bench_job.png"), dpi=80)


def modex_figure(data, out):
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    panel(axes[0][0], data, "modex",
          [(m, m, 1e-3) for m in blobs(data, "modex", "fence")],
          "Fence(PMIX_COLLECT_DATA) vs local clients N", "ms")
    panel(axes[0][1], data, "modex",
          [(m, m, 1) for m in blobs(data, "modex", "get1")],
          "first Get of a peer's blob vs N (mean)", "us")
    panel(axes[1][0], data, "modex",
          [("barrier", "barrier fence", 1e-3), ("init", "PMIx_Init", 1e-3)],
          "barrier and init vs N", "ms")
    panel(axes[1][1], data, "modex",
          [("rss_end", "client VmRSS after fences", 1 / 1024.0),
           ("host_rss_end", "host VmRSS at the end", 1 / 1024.0)],
          "memory vs N" + left_out(data), "MiB")
    for ax in axes[1]:
        ax.set_xlabel("local clients N (one node, job of N procs)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bench_modex.png"), dpi=80)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_bench.py RESULTS.TSV OUTDIR")
    data = load(sys.argv[1])
    if not data:
        sys.exit("plot_bench.py: no numbers in " + sys.argv[1])
    job_figure(data, sys.argv[2])
    modex_figure(data, sys.argv[2])
    print("plot_bench.py: wrote bench_job.png and bench_modex.png in " + sys.argv[2])


if __name__ == "__main__":
    main()
