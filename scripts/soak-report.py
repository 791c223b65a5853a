#!/usr/bin/env python3
"""The soak's figures (scripts/soak-locationd.sh): the daemon's memory and descriptors over time, and
what every app run received.

Usage: soak-report.py WORK MINUTES APPS SPEED

Slopes are least-squares lines through the samples after the first fifth of the run (start-up and the
growth to the steady number of connections), per hour. Each app run's output is checked: fixes and
headings strictly later than the one before (none repeated, none from the past), and every run (5 s
at least) received its service's events (a location, a heading, a region state, a beacon ranging;
visits and significant change are only counted: they depend on the route). Exit status 1 when a check fails.
"""
import csv
import glob
import os
import sys


def slope(points):
    n = len(points)
    if n < 2:
        return 0.0
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    var = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / var if var else 0.0


def main():
    work, minutes, apps, speed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    with open(os.path.join(work, "samples.csv")) as f:
        samples = [(float(r["seconds"]), float(r["rss_kib"]), float(r["fds"])) for r in csv.DictReader(f)]
    steady = samples[len(samples) // 5:]
    rss_slope = slope([(t, r) for t, r, _ in steady]) * 3600 / 1024  # MiB per hour
    fd_slope = slope([(t, d) for t, _, d in steady]) * 3600          # descriptors per hour

    failures = []
    events = {}
    runs = {}
    for path in sorted(glob.glob(os.path.join(work, "runs", "*.out"))):
        service = os.path.basename(path).split(".")[0]
        runs[service] = runs.get(service, 0) + 1
        with open(path) as f:
            lines = [line.split() for line in f if line.strip()]
        last = {}
        for words in lines:
            kind = words[0]
            events[kind] = events.get(kind, 0) + 1
            if kind in ("location", "heading"):
                stamp = float(words[-1])
                if kind in last and stamp <= last[kind]:
                    failures.append(f"{path}: {kind} at {stamp} after {last[kind]} (repeated or from the past)")
                last[kind] = stamp
        wanted = {"standard": "location", "heading": "heading", "ranging": "beacons", "regions": "state"}.get(service)
        if wanted and not any(words[0] == wanted for words in lines):
            failures.append(f"{path}: no {wanted} in the run ({len(lines)} lines)")

    total_runs = sum(runs.values())
    print(f"soak: {minutes:g} min, {apps} apps, {total_runs} app runs "
          f"({', '.join(f'{k} {v}' for k, v in sorted(runs.items()))}), simulated time x{speed:g} "
          f"({minutes * speed / 60:.1f} h of route)")
    print(f"  events: {', '.join(f'{k} {v}' for k, v in sorted(events.items()))}")
    first, last_sample = samples[0], samples[-1]
    print(f"  locationd RSS: {first[1] / 1024:.1f} MiB at start, {steady[0][1] / 1024:.1f} at {steady[0][0]:.0f} s, "
          f"{last_sample[1] / 1024:.1f} at the end; slope after the first fifth {rss_slope:+.2f} MiB/h")
    print(f"  descriptors: {first[2]:.0f} at start, {min(d for _, _, d in steady):.0f}-{max(d for _, _, d in steady):.0f} "
          f"steady; slope {fd_slope:+.1f}/h")
    if failures:
        print(f"  {len(failures)} problem(s):")
        for failure in failures[:20]:
            print("   ", failure)
        sys.exit(1)
    print("  every run: events in order, none repeated; every service delivered")


if __name__ == "__main__":
    main()
