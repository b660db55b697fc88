"""The army: every aligned creation of one or several model files (or of a scene file's sides), in Construction
Points and in Unit Inches, per side, against a budget, with the Almighty Benny balance [000 §11.1 Military Budgets].

It reads each file's one Analysis (``stats.analyse``) and never re-derives a card: the costs are the stat cards'.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, UsageError
from ..rules.tables import load_rules

NO_SIDE = ""


@dataclass
class ArmyEntry:
    """One creation of the army with the side it fights for and whether it counts [000 §11.1]."""

    model: str  # the file it came from
    placement: str  # the scene placement name (the file stem for plain files)
    card: object  # stats.StatCard
    side: str | None
    counts: bool
    reason: str

    @property
    def name(self) -> str:
        return self.card.creation.name

    @property
    def total_cost(self) -> float:
        return float(self.card.total_cost) if self.counts else 0.0

    @property
    def unit_inches(self) -> float:
        return float(self.card.unit_inches or 0.0) if self.counts else 0.0

    def to_json(self) -> dict:
        c = self.card.creation
        return {"model": self.model, "placement": self.placement, "name": c.name, "kind": c.kind,
                "size": self.card.size, "total_cost": _num(self.total_cost), "card_cost": _num(self.card.total_cost),
                "unit_inches": _num(self.unit_inches), "side": self.side, "counts": self.counts,
                "reason": self.reason, "move_in": _num(self.card.move_in),
                "mounted_on": self.card.mounted_on or None, "riders": list(getattr(self.card, "riders", []))}


@dataclass
class CardGroup:
    """Identical minifigs (same loadout and cost) on one card, ×N; every other creation alone."""

    entries: list[ArmyEntry]

    @property
    def count(self) -> int:
        return len(self.entries)

    @property
    def card(self):
        return self.entries[0].card

    def to_json(self) -> dict:
        return {"count": self.count, "names": [e.name for e in self.entries], "side": self.entries[0].side,
                "kind": self.card.creation.kind, "total_cost_each": _num(self.card.total_cost),
                "unit_inches_each": _num(self.card.unit_inches)}


@dataclass
class Army:
    rules: str
    entries: list[ArmyEntry]
    analyses: list  # (file, placement, Analysis)
    budget: float | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def counted(self) -> list[ArmyEntry]:
        return [e for e in self.entries if e.counts]

    @property
    def total_cp(self) -> float:
        return sum(e.total_cost for e in self.entries)

    @property
    def unit_inches(self) -> float:
        return sum(e.unit_inches for e in self.entries)

    def sides(self) -> dict[str, dict]:
        """Per side: CP, Unit Inches, creations counted, budget left, Almighty Bennies [000 §11.1]."""
        out: dict[str, dict] = {}
        for e in self.counted:
            s = out.setdefault(e.side or NO_SIDE, {"total_cp": 0.0, "unit_inches": 0.0, "creations": 0})
            s["total_cp"] += e.total_cost
            s["unit_inches"] += e.unit_inches
            s["creations"] += 1
        top = max((s["unit_inches"] for s in out.values()), default=0.0)
        for s in out.values():
            # one Almighty Benny per Unit Inch short of the strongest side [000 §11.1 Game Balance and Victory]
            s["almighty_bennies"] = int(math.floor(top - s["unit_inches"] + 1e-9))
            if self.budget is not None:
                s["budget_left"] = self.budget - s["total_cp"]
                s["over_budget"] = s["total_cp"] > self.budget + 1e-9
        return out

    def groups(self) -> list[CardGroup]:
        """Cards to print: identical minifigs of one side and file grouped (×N), free scenery left out."""
        groups: dict[tuple, CardGroup] = {}
        order = []
        for e in self.entries:
            if not e.counts:
                continue
            c = e.card.creation
            key = (e.model, e.side, e.card.loadout_key()) if c.kind == "minifig" else (id(e),)
            if key not in groups:
                groups[key] = CardGroup([])
                order.append(key)
            groups[key].entries.append(e)
        return [groups[k] for k in order]


def _num(x):
    if x is None:
        return None
    x = float(x)
    return int(x) if x.is_integer() else round(x, 4)


def parse_budget(text: str | float | None) -> float | None:
    """A CP budget: a non-negative number (a UsageError otherwise, exit 2)."""
    if text is None:
        return None
    try:
        v = float(str(text).strip())
    except ValueError:
        raise UsageError(f"--budget {text!r}: give a number of Construction Points") from None
    if not math.isfinite(v) or v < 0:
        raise UsageError(f"--budget {text!r}: give a number of Construction Points (0 or more)")
    return v


def _counts(card, side: str | None, rules) -> tuple[bool, str]:
    """Whether a creation is part of the army and why [000 §11.1 Unit Inches]: scenery and loose items are
    free, a building only when aligned with a side, everything else (minifigs, Creatures, Vehicles) counts."""
    a = rules.army
    kind = card.creation.kind
    free_kinds = a.free_kinds if a else ["scenery", "loose item"]
    free_unaligned = a.free_unaligned_kinds if a else ["building"]
    if kind in free_kinds:
        return False, f"{kind}: free [000 §11.1 Military Budgets]"
    if kind in free_unaligned and not side:
        return False, "a non-aligned building is free scenery (give it a side to field it) [000 §11.1]"
    return True, f"a {kind} of side {side!r}" if side else f"a {kind}"


def _inputs(paths: list[str | Path]) -> list[tuple[Path, str, str | None, dict]]:
    """(file, placement, side, per-unit sides) for every model: plain files as given, scene files expanded."""
    missing = [Path(p) for p in paths if not Path(p).exists()]
    if missing:  # one line naming the (first) missing file, exit 3
        raise InputError("no such file" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""),
                         file=str(missing[0]))
    out = []
    for p in map(Path, paths):
        if p.suffix.lower() == ".toml":
            from .scene_file import read_scene

            scene = read_scene(p)
            units: dict[str, dict] = {}
            for u in scene.units:
                where, _, name = u.unit.rpartition("/")
                units.setdefault(where, {})[name.lower()] = u.side
            for m in scene.models:
                f = (p.parent / m.file).resolve()
                if not f.exists():
                    raise InputError(f"scene model {m.file!r}: no such file", file=str(p))
                name = m.name or Path(m.file).stem
                out.append((f, name, m.side, {**units.get("", {}), **units.get(name, {})}))
        else:
            out.append((p, p.stem, None, {}))
    return out


def army(paths, library=None, rules: str = "2010", budget: float | str | None = None, side: str | None = None,
         scale: str = "inch", progress=None) -> Army:
    """The army of model files and scene files: each creation with its side, CP and Unit Inches [000 §11.1].

    ``side``: the side of every creation that has none of its own (no UNIT/CREATION ``side=``, no scene side).
    """
    from ..geometry.model import load
    from ..analysis.stats import analyse

    if isinstance(paths, (str, Path)):
        paths = [paths]
    if not paths:
        raise UsageError("give at least one model or scene file")
    r = load_rules(str(rules))
    b = parse_budget(budget)
    entries: list[ArmyEntry] = []
    analyses = []
    warnings: list[str] = []
    models: dict[Path, object] = {}
    inputs = _inputs(paths)
    known = {x for _, _, s_, u in inputs for x in [s_, *u.values()] if x} | ({side} if side else set())
    for f, placement, scene_side, unit_sides in inputs:
        m = models.get(f)
        if m is None:
            m = models[f] = load(f, library)
        a = analyse(m, rules=str(rules), scale=scale)
        analyses.append((str(f), placement, a))
        warnings.extend(str(d) for d in a.diagnostics)
        for card in a.cards:
            c = card.creation
            s = c.side or unit_sides.get(c.name.lower()) or scene_side or side or None
            if c.side and known and c.side not in known:  # a side no scene or option names [issue #11]
                where = c.annotation_source or str(f)
                warnings.append(f"{where}: unknown side {c.side!r} for {c.name!r} (sides: "
                                f"{', '.join(sorted(known))})")
            ok, why = _counts(card, s, r)
            entries.append(ArmyEntry(str(f), placement, card, s, ok, why))
    return Army(str(rules), entries, analyses, b, warnings)


def army_json(a: Army) -> dict:
    """The ``army --json`` contract: rules, total_cp, unit_inches, creations[model, name, kind, size,
    total_cost, unit_inches, side], plus sides, budget and the card groups."""
    sides = a.sides()
    return {"rules": a.rules, "total_cp": _num(a.total_cp), "unit_inches": _num(a.unit_inches),
            "budget": _num(a.budget),
            "over_budget": (a.total_cp > a.budget + 1e-9) if a.budget is not None else None,
            "sides": {k or "(no side)": {kk: _num(v) if isinstance(v, float) else v for kk, v in s.items()}
                      for k, s in sides.items()},
            "creations": [e.to_json() for e in a.entries],
            "groups": [g.to_json() for g in a.groups()],
            "warnings": a.warnings}
