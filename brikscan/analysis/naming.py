"""Names of creations and units: from the submodel that holds a build, its annotations, and unique among all."""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import numpy as np

from .annotations import Annotations, file_stem
from .creation import Creation
from .element_shape import is_controls
from .roles import RoleDecision, words


def _common_submodel(model, idx: list[int]) -> str:
    paths = [model.elements[i].submodel_path for i in idx]
    if not paths:
        return ""
    common = list(paths[0])
    for p in paths[1:]:
        n = 0
        while n < min(len(common), len(p)) and common[n] == p[n]:
            n += 1
        common = common[:n]
        if not common:
            break
    if common:
        return common[-1]
    c = Counter(p[-1] for p in paths if p)
    if c:
        name, cnt = c.most_common(1)[0]
        if cnt * 5 >= len(paths) * 4:  # nearly all of it is one submodel
            return name
    return ""


def mostly_in(model, idx: list[int]) -> str:
    """The submodel holding two thirds of the build or more, counting its own sub-assemblies, or "": a car with
    the container it carries (placed apart), a gantry crane with the one hanging from it."""
    count, _ = _submodel_counts(model, idx)
    if count:
        name, cnt = count.most_common(1)[0]
        if cnt * 3 >= len(idx) * 2:
            return name
    return ""


def _submodel_counts(model, idx: list[int]) -> tuple[Counter, dict[str, int]]:
    """How many of ``idx`` each submodel holds (with its own sub-assemblies), and how deep each lies."""
    count: Counter = Counter()
    depth: dict[str, int] = {}
    for i in idx:
        for d, sub in enumerate(dict.fromkeys(model.elements[i].submodel_path)):
            count[sub] += 1
            depth[sub] = max(depth.get(sub, 0), d)
    return count, depth


def name_words(name: str, trailing=frozenset(), keep: int = 0) -> list[str]:
    """The whole words of a (sub)model's name without numbers ("raft 2" is a copy's), and without the ``trailing``
    words that end it, keeping at least ``keep`` ("hatch left" -> "hatch", "jedi starfighter - mini" ->
    "jedi starfighter")."""
    out = [w for w in words(file_stem(name)) if not w.isdigit()]
    while len(out) > keep and out[-1] in trailing:
        out.pop()
    return out


GENERIC_NAMES = frozenset({"main", "model", "untitled", "unnamed", "new", "set"})  # a file name that says nothing


def file_name_for(model, name: str) -> str:
    """The name to show for a build named after the main file: the name the file has on disk when the main file's
    own says nothing ("8099 - main" inside "Midi-Scale Imperial Star Destroyer.mpd"), else ``name``."""
    disk = file_stem(model.path.name)
    if set(name_words(name)) <= GENERIC_NAMES and name_words(disk) and disk.lower() != name.lower():
        return disk
    return name


def _holding_submodels(model, idx: list[int]) -> list[str]:
    """The submodels holding at least four fifths of the build (its hoses or a loose piece may be placed outside
    it, in the main file), innermost first: a "pirate ship" whose hull is a submodel "hull" of its own is held by
    both."""
    count, depth = _submodel_counts(model, idx)
    held = [s for s, n in count.items() if n * 5 >= len(idx) * 4]
    return sorted(held, key=lambda s: (-depth[s], -count[s], s))


@lru_cache(maxsize=4096)
def _split_words(text: str) -> list[str]:
    """``re.split(r"[^a-z0-9]+", text)``, once per text (every element of a part asks the same; read only)."""
    return re.split(r"[^a-z0-9]+", text)


@lru_cache(maxsize=4096)
def _stem_words(sub: str) -> frozenset[str]:
    return frozenset(re.split(r"[^a-z0-9]+", file_stem(sub).lower()))


def _unit_notes(model, ann: Annotations) -> dict[tuple[str, int], dict[str, str]]:
    """``0 !BRIKSCAN UNIT name=… side=…``: the params by the (file, line) of the type-1 line it stands before."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    files = model.files
    for fname, line, params in ann.units:
        f = files.get(fname)
        nxt = min((r.line for r in f.refs if r.line > line), default=None) if f is not None else None
        if nxt is not None:
            out[(fname, nxt)] = params
    return out


def _submodel_name(model, group: list[int], prefixes: Counter | None = None, spare: int = 0) -> str:
    """The submodel a minifig was built as, when that submodel instance holds only this minifig (and at most
    ``spare`` pieces besides: a banknote he holds out over a barrel, judged lying on the barrel).

    ``prefixes``: ``_ref_prefixes(model)``, shared by the calls on one model (speed only)."""
    els = model.elements
    common = els[group[0]].refs[:-1]
    for i in group[1:]:
        r = els[i].refs[:-1]
        k = 0
        while k < min(len(common), len(r)) and common[k] == r[k]:
            k += 1
        common = common[:k]
    if not common:
        return ""
    members = set(group)
    # every member's refs start with ``common``: any other element that does means the submodel holds more
    prefixes = prefixes if prefixes is not None else _ref_prefixes(model)
    if prefixes[common] > len(members) + spare:
        return ""  # the submodel holds more than this minifig (a floor, a vehicle): not its name
    path = els[group[0]].submodel_path
    name = path[len(common) - 1] if len(path) >= len(common) else ""
    if not name or name.lower() == model.main.name.lower():
        return ""
    return file_stem(name.replace("\\", "/").rsplit("/", 1)[-1])


def _ref_prefixes(model) -> Counter:
    """How many elements' ``refs`` start with each chain prefix (one count per prefix length): lets
    ``_submodel_name`` ask "does anything else share this submodel instance" without a scan of the model."""
    return Counter(e.refs[:k] for e in model.elements for k in range(1, len(e.refs) + 1))


def _animal_name(model, elements: list[int]) -> str:
    """What animal a creature is, read from its biggest animal part: the word after "Animal" ("Animal Monkey
    (Complete, Standing)" is a monkey, "Animal Dragon Body" a dragon, "Animal Cat Crouching" a cat), the bird's
    kind after "Bird" ("Animal Bird Parrot with ..." a parrot); "" when no part says."""
    els = model.elements
    animals = [i for i in elements if (els[i].description or "").lower().startswith("animal ")]
    if not animals:
        return ""
    best = max(animals, key=lambda i: float(np.prod(els[i].bbox_max - els[i].bbox_min)))
    words = [w for w in _split_words(els[best].description.lower())[1:] if w]
    if words[:1] == ["bird"] and len(words) > 1 and words[1].isalpha() and words[1] not in ("with", "wing"):
        return words[1]
    return words[0] if words and words[0].isalpha() else ""


def _unique_names(model, creations: list[Creation]) -> None:
    """Names a player can type: the same name twice becomes 'soldier', 'soldier-2', … in order."""
    seen: dict[str, int] = {}
    for c in creations:
        if not c.name:
            if c.kind in ("loose item", "scenery") and len(c.elements) <= 3:
                first = model.elements[c.elements[0]]
                c.name = (first.description or first.part).strip("~ ")
            elif c.kind == "creature" and _animal_name(model, c.elements):
                c.name = _animal_name(model, c.elements)
            else:
                c.name = f"{c.kind} {len([x for x in creations if x.kind == c.kind and x is not c]) + 1}"
        base = c.name
        n = seen.get(base.lower(), 0) + 1
        seen[base.lower()] = n
        if n > 1:
            c.name = f"{base}-{n}"


DRIVEN_MIN_SHARE = 1 / 3  # the submodel a build is named for holds at least this share of it


def driven_from(model, idx: list[int], roles: dict[int, RoleDecision], classes) -> str:
    """The submodel placed in the main model that holds the Controls of a build of several (a truck with the
    trailer it tows), else most of its propulsion (a wagon with the containers it carries): the build is named
    for it, as a player names a rig for its tractor [000 §9.4]; "" when none does."""
    tops = Counter(model.elements[i].submodel_path[0] for i in idx if model.elements[i].submodel_path)
    big = {sub for sub, n in tops.items() if DRIVEN_MIN_SHARE * len(idx) <= n}  # no "steering" section's name
    for i in idx:
        path = model.elements[i].submodel_path
        if path and path[0] in big and is_controls(roles[i], classes[i]):
            return path[0]
    wheels = Counter(model.elements[i].submodel_path[0] for i in idx if roles[i].role == "propulsion" and
                     model.elements[i].submodel_path and model.elements[i].submodel_path[0] in big)
    return wheels.most_common(1)[0][0] if wheels else ""
