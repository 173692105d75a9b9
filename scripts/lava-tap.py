#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
#
# LAVA's results, out of lava-run's log (one YAML/JSON mapping a line; the
# "results" ones are the test cases), as TAP:
#
#   lava-tap.py [--prefix P] [--min-cases SUITE=N]... LOG
#
# Every case is "ok N P<suite>/<case>", "not ok ..." (fail, unknown) or
# "ok ... # SKIP"; the suite "lava" holds LAVA's own actions and the job.
# A failing case is also one whose suite reported fewer than N cases
# (--min-cases), and a log without the job's own result (lava-run died).
# Prints "1..N" last; exit status 0 when no case failed.
import argparse
import sys

import yaml


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", default="")
    ap.add_argument("--min-cases", action="append", default=[])
    ap.add_argument("log")
    a = ap.parse_args()

    cases = []
    with open(a.log, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{") or "results" not in line:
                continue
            try:
                ent = yaml.safe_load(line.replace("\t", " "))
            except yaml.YAMLError:
                continue
            if not isinstance(ent, dict) or ent.get("lvl") != "results":
                continue
            msg = ent.get("msg") or {}
            if not isinstance(msg, dict) or "case" not in msg:
                continue
            cases.append((str(msg.get("definition", "?")), str(msg["case"]),
                          str(msg.get("result", "unknown"))))

    n = failed = 0

    def emit(ok, name, why=""):
        nonlocal n, failed
        n += 1
        if ok == "skip":
            print("ok %d %s%s # SKIP %s" % (n, a.prefix, name, why))
        elif ok:
            print("ok %d %s%s" % (n, a.prefix, name))
        else:
            failed += 1
            print("not ok %d %s%s%s" % (n, a.prefix, name, " # " + why if why else ""))

    per_suite = {}
    for suite, case, result in cases:
        per_suite[suite] = per_suite.get(suite, 0) + 1
        name = "%s/%s" % (suite, case)
        if result == "pass":
            emit(True, name)
        elif result == "skip":
            emit("skip", name, "skipped in the guest (its reason is in the log)")
        else:
            emit(False, name, "result: %s" % result)
    if not any(s == "lava" and c == "job" for s, c, _ in cases):
        emit(False, "lava/job", "the log has no result of the job (did lava-run finish?)")
    for m in a.min_cases:
        suite, _, want = m.rpartition("=")
        got = sum(v for s, v in per_suite.items() if s == suite or s.endswith("_" + suite))
        emit(got >= int(want), "%s/cases" % suite,
             "" if got >= int(want) else "%d cases, at least %s expected" % (got, want))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
