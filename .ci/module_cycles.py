#!/usr/bin/env python3
"""Module dependency cycles inside a crate's src/.

Reads which modules name which (through `crate::`, `super::` and `self::`
paths, in `use` lines and in code; comments and unit-test modules left out),
lifts each dependency to the two sibling modules that contain its ends, and
prints every cycle among siblings. A module and its own submodules may use
each other. Exits 1 if there is a cycle.

    python3 .ci/module_cycles.py surp/src
"""
import os, re, sys, itertools
root = sys.argv[1] if len(sys.argv) > 1 else "surp/src"
mods = {}
for dp, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith(".rs"): continue
        p = os.path.join(dp, f)
        rel = os.path.relpath(p, root)[:-3].split(os.sep)
        if rel[-1] in ("mod", "lib"): rel = rel[:-1]
        mods[tuple(rel)] = open(p).read()
def resolve(path, here):
    parts = path.split("::")
    if parts[0] == "crate": base = []; parts = parts[1:]
    elif parts[0] == "super":
        base = list(here)
        while parts and parts[0] == "super": base = base[:-1]; parts = parts[1:]
    elif parts[0] == "self": base = list(here); parts = parts[1:]
    else: return None
    cur = tuple(base)
    for p in parts:
        if tuple(list(cur) + [p]) in mods: cur = tuple(list(cur) + [p])
        else: break
    return cur
# Unit-test modules in files of their own (`#[cfg(test)] mod tests;`) may
# use any module of the crate, like the inline ones stripped below.
test_mods = set()
for m, text in mods.items():
    for name in re.findall(r"#\[cfg\(test\)\]\s*mod\s+(\w+)\s*;", text):
        test_mods.add(m + (name,))
mods = {m: t for m, t in mods.items() if not any(m[:len(x)] == x for x in test_mods)}
edges = {}
for m, text in mods.items():
    # strip comments, and the unit tests (a `#[cfg(test)] mod` to the end
    # of the file), which may use any module of the crate
    text = re.sub(r"//[^\n]*", "", text)
    text = re.split(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)[0]
    # expand `use a::{b, c::d}` groups roughly
    for use in re.findall(r"\buse\s+([^;]+);", text):
        use = use.replace(" ", "").replace("\n", "")
        def expand(u):
            mm = re.match(r"^(.*?)::\{(.*)\}$", u)
            if not mm: return [u]
            pre, inner = mm.groups()
            items, depth, cur = [], 0, ""
            for ch in inner:
                if ch == "{": depth += 1
                if ch == "}": depth -= 1
                if ch == "," and depth == 0: items.append(cur); cur = ""
                else: cur += ch
            if cur: items.append(cur)
            out = []
            for it in items:
                out += expand(pre + "::" + it) if it not in ("self",) else [pre]
            return out
        for u in expand(use):
            t = resolve(u, m)
            if t is not None: edges.setdefault(m, set()).add(t)
    for path in re.findall(r"\b((?:crate|super)(?:::\w+)+)", text):
        t = resolve(path, m)
        if t is not None: edges.setdefault(m, set()).add(t)
def related(a, b): return a[:len(b)] == b or b[:len(a)] == a
# Collapse: an edge a->b where a and b are not ancestor/descendant counts
# between the children of their common ancestor that contain them.
def lift(a, b):
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]: i += 1
    return a[:i+1], b[:i+1]
graph = {}
for a, ts in edges.items():
    for b in ts:
        if related(a, b): continue
        x, y = lift(a, b)
        graph.setdefault(x, {}).setdefault(y, set()).add(("::".join(a), "::".join(b)))
# find cycles with Tarjan SCC
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in graph.get(v, {}):
        if w not in index: strong(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(comp)
for v in list(graph):
    if v not in index: strong(v)
if not sccs:
    print("no module cycles in", root); sys.exit(0)
for comp in sccs:
    names = sorted("::".join(c) for c in comp)
    print("cycle:", ", ".join(names))
    for a in comp:
        for b, why in graph.get(a, {}).items():
            if b in comp:
                print("   %s -> %s  (%s)" % ("::".join(a), "::".join(b), "; ".join(sorted("%s uses %s" % w for w in why)[:4])))
sys.exit(1)
