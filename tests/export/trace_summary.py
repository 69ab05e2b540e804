#!/usr/bin/env python3
"""Parses a `prof export` trace (chrome JSON, optionally gzipped, or jsonl) with Python's json
module, checks every event has the fields its format needs, and prints a summary the tests
compare exactly, one item per line, sorted:

  track <pid> <tid> <name>             a named process (tid 0) or thread
  count <category> <pid> <tid> <n>     events per category and track; NVTX start/end ranges
                                       count on their process (tid 0)
  depth <pid> <tid> <name> <depth>     each NVTX push/pop range and its nesting level
  flow <api call> -> <gpu operation>   each flow's two ends, found by their timestamps
  overlap <pid> <tid> <n>              slices on a track that overlap without nesting
  counter <pid> <n> <max> <name>       a counter of a process: its samples and largest value
  error <text>                         a format problem (there should be none)
"""
import collections
import gzip
import json
import sys

GPU_CATEGORIES = {"cuda_kernel", "cuda_memcpy", "cuda_memset", "cuda_graph"}


class Summary:
    def __init__(self):
        self.lines = []
        self.counts = collections.Counter()
        self.slices = collections.defaultdict(list)  # (pid, tid) -> [(start, end, cat, name)]
        self.counters = collections.defaultdict(list)  # (pid, name) -> [value]

    def error(self, text):
        self.lines.append("error " + text)

    def add_slice(self, pid, tid, start, end, cat, name):
        self.counts[(cat, pid, tid)] += 1
        self.slices[(pid, tid)].append((start, end, cat, name))

    def nesting(self):
        for (pid, tid), slices in self.slices.items():
            slices.sort(key=lambda s: (s[0], -s[1]))
            nvtx_stack, stack, overlaps = [], [], 0
            for start, end, cat, name in slices:
                while stack and stack[-1] <= start:
                    stack.pop()
                if stack and end > stack[-1]:
                    overlaps += 1
                stack.append(end)
                if cat == "nvtx":
                    while nvtx_stack and nvtx_stack[-1] <= start:
                        nvtx_stack.pop()
                    self.lines.append(f"depth {pid} {tid} {name} {len(nvtx_stack)}")
                    nvtx_stack.append(end)
            if overlaps:
                self.lines.append(f"overlap {pid} {tid} {overlaps}")

    def finish(self):
        self.nesting()
        for (cat, pid, tid), n in self.counts.items():
            self.lines.append(f"count {cat} {pid} {tid} {n}")
        for (pid, name), values in self.counters.items():
            self.lines.append(f"counter {pid} {len(values)} {max(values)} {name}")
        for line in sorted(self.lines):
            print(line)


def ns(microseconds):
    return round(microseconds * 1000)


def require(summary, event, fields):
    for field, kind in fields.items():
        if not isinstance(event.get(field), kind):
            summary.error(f"{event.get('ph', event.get('type'))} event without {field}: {event}")
            return False
    return True


def read_chrome(summary, trace):
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        summary.error("no traceEvents array")
        return
    base = {"ph": str, "cat": str, "name": str, "pid": int, "tid": int, "ts": (int, float)}
    async_begins, flows_out, flows_in = {}, {}, []
    starts = collections.defaultdict(dict)  # (pid, tid) -> start ns -> (cat, name)
    for event in trace["traceEvents"]:
        ph = event.get("ph")
        if ph == "M":
            if require(summary, event, {"name": str, "pid": int, "tid": int, "args": dict}):
                summary.lines.append(f"track {event['pid']} {event['tid']} {event['args']['name']}")
            continue
        if not require(summary, event, base):
            continue
        pid, tid, ts = event["pid"], event["tid"], ns(event["ts"])
        if ph == "X":
            if require(summary, event, {"dur": (int, float), "args": dict}):
                end = ts + ns(event["dur"])
                summary.add_slice(pid, tid, ts, end, event["cat"], event["name"])
                starts[(pid, tid)].setdefault(ts, (event["cat"], event["name"]))
        elif ph == "i":
            if event.get("s") != "t":
                summary.error(f"instant without thread scope: {event}")
            summary.counts[(event["cat"], pid, tid)] += 1
        elif ph == "b":
            if require(summary, event, {"id": int}):
                async_begins[event["id"]] = (pid, ts)
                summary.counts[(event["cat"], pid, 0)] += 1
        elif ph == "e":
            begin = async_begins.pop(event.get("id"), None)
            if begin is None or begin[0] != pid or begin[1] > ts:
                summary.error(f"async end without its begin: {event}")
        elif ph == "C":
            value = event.get("args", {}).get("value")
            if not isinstance(value, int):
                summary.error(f"counter event without an integer value: {event}")
            else:
                summary.counters[(pid, event["name"])].append(value)
        elif ph == "s":
            flows_out[event.get("id")] = (pid, tid, ts)
        elif ph == "f":
            if event.get("bp") != "e":
                summary.error(f"flow end not bound to its enclosing slice: {event}")
            flows_in.append((event.get("id"), (pid, tid, ts)))
        else:
            summary.error(f"unexpected phase {ph}")
    for event_id in async_begins:
        summary.error(f"async begin {event_id} without its end")
    for flow_id, to in flows_in:
        origin = flows_out.get(flow_id)
        source = starts[origin[:2]].get(origin[2]) if origin else None
        target = starts[to[:2]].get(to[2])
        if (source is None or source[0] != "cuda_api" or target is None
                or target[0] not in GPU_CATEGORIES):
            summary.error(f"flow {flow_id} does not join an API call to a GPU operation")
        else:
            summary.lines.append(f"flow {source[1]} -> {target[1]}")


def read_jsonl(summary, lines):
    fields = {"kind": str, "category": str, "pid": int, "tid": int, "start_ns": int,
              "end_ns": int, "name": str, "args": dict}
    flows = collections.defaultdict(list)
    for line in lines:
        event = json.loads(line)
        if event.get("type") == "track":
            if require(summary, event, {"kind": str, "pid": int, "tid": int, "name": str}):
                if event["name"]:
                    summary.lines.append(f"track {event['pid']} {event['tid']} {event['name']}")
            continue
        if event.get("type") == "counter":
            if require(summary, event, {"pid": int, "name": str, "time_ns": int, "value": int}):
                summary.counters[(event["pid"], event["name"])].append(event["value"])
            continue
        if event.get("type") != "event" or not require(summary, event, fields):
            summary.error(f"not a track or event: {line}")
            continue
        pid, tid, cat = event["pid"], event["tid"], event["category"]
        if event["kind"] == "nvtx_start_end":
            summary.counts[(cat, pid, 0)] += 1
        elif event["kind"] == "nvtx_mark":
            summary.counts[(cat, pid, tid)] += 1
        else:
            summary.add_slice(pid, tid, event["start_ns"], event["end_ns"], cat, event["name"])
        if "flow_id" in event:
            flows[event["flow_id"]].append(event)
    for flow_id, events in flows.items():
        api = [e for e in events if e["category"] == "cuda_api"]
        gpu = [e for e in events if e["category"] in GPU_CATEGORIES]
        if len(api) != 1 or not gpu or len(api) + len(gpu) != len(events):
            summary.error(f"flow {flow_id} does not join one API call to GPU operations")
            continue
        for target in gpu:
            summary.lines.append(f"flow {api[0]['name']} -> {target['name']}")


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        text = file.read()
    summary = Summary()
    if path.endswith(".jsonl") or path.endswith(".jsonl.gz"):
        read_jsonl(summary, text.splitlines())
    else:
        read_chrome(summary, json.loads(text))
    summary.finish()


if __name__ == "__main__":
    main(sys.argv[1])
