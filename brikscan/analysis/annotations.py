"""Player annotations read from the model: ``0 !BRIKSCAN …`` meta lines, LeoCAD/MLCad groups, submodel names.

Other LDraw programs ignore these lines, so players can keep their costing decisions inside the model file.
Every annotation remembers its ``file:line`` so warnings and stat-card reasons can point back at it.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import Diagnostic

ROLES = ("structural", "weapon", "propulsion", "device", "decoration", "weak point", "crew")
_ROLE_ALIASES = {"weakpoint": "weak point", "weak_point": "weak point", "weak-point": "weak point",
                 "weapons": "weapon", "devices": "device", "decorations": "decoration", "structure": "structural"}
WEAPON_TYPES = ("melee", "shield", "gun", "blastgun", "machinegun", "flamethrower", "launcher", "cannon", "rocket",
                "explosive")
PROPULSION_TYPES = ("ground", "water", "flight", "forward_flight", "thrust")  # [000 §9.1], [000 §9.3]
KINDS = ("building", "vehicle", "creature", "scenery")
SUBMODEL_GROUP = "sub:"  # a role from a submodel's name is grouped "sub:<file>": brikscan's judgment, not the player's
SLS = ("0", "0.5", "1/2", "½", "1", "2", "3", "4", "5")
ROLE_KEYS = {"name", "type", "size", "move", "xsize"}
CREATION_KEYS = {"name", "kind", "sl", "space", "spacecraft", "antigravity", "side",
                 # Core Rules units and purchasable extras (issue #11, docs/army.md): Minds, Horses, extras
                 "mind", "skill", "minds", "half", "arms", "horse", "variety", "barding", "animal", "size",
                 "turrets", "turret", "plating", "shields", "shield_size", "mods"}

# Words in group and submodel names that say what the group is (a "role word").
_WEAPON_WORDS = {w: w for w in WEAPON_TYPES} | {
    "sword": "melee", "axe": "melee", "lance": "melee", "spear": "melee", "blade": "melee", "claw": "melee",
    "mace": "melee", "hammer": "melee", "pistol": "gun", "rifle": "gun", "blaster": "gun", "laser": "gun",
    "musket": "gun", "turretgun": "gun", "shotgun": "blastgun", "autogun": "machinegun", "minigun": "machinegun",
    "flamer": "flamethrower", "catapult": "launcher", "missile": "rocket", "missiles": "rocket", "bomb": "explosive",
    "mortar": "launcher", "cannons": "cannon", "guns": "gun", "rockets": "rocket",
    "trebuchet": "launcher", "ballista": "launcher", "canon": "cannon"}  # ("canon": as builders spell it)
_ENGINE_WORDS = {"engine", "engines", "motor", "motors", "booster", "boosters", "thruster", "thrusters", "exhaust"}
_PROPULSION_WORDS = {"wheel": "ground", "wheels": "ground", "tread": "ground", "treads": "ground",
                     "track": "ground", "tracks": "ground", "legs": "ground", "oar": "water", "oars": "water",
                     "flying": "flight", "hover": "flight", "antigravity": "flight", "rotor": "flight",
                     "rotors": "flight", "wing": "forward_flight", "wings": "forward_flight",
                     "forward": "forward_flight", "sail": "thrust", "sails": "thrust", "propeller": "thrust",
                     "propellers": "thrust", "thruster": "thrust", "thrusters": "thrust", "jet": "thrust",
                     "jets": "thrust", "rocket": "thrust", "rockets": "thrust"}
# Devices a submodel's name names [000 §9.4 Systems]: the radar of "6879 - spaceship - radar", a "radar dish"
_DEVICE_WORDS = {"radar", "radars", "sensor", "sensors", "scanner", "searchlight", "crane", "winch", "telescope",
                 "dish"}
# A name with one of these words names something else: a water wheel, a steering wheel, a gun rack, a cannon ball,
# a train track (the rails, not a tank's tracks).
_NOT_A_ROLE = {"water", "steering", "spinning", "ship", "ships", "arch", "arches", "well", "rack", "holder",
               "stand", "base", "cover", "guard", "ball", "balls", "box", "crate", "port", "ports", "mount",
               "cart", "barrow", "wheelbarrow", "logo", "sticker", "print", "decoration", "deco", "house", "room",
               "bay", "hangar", "shop", "store", "storage", "tower", "wall", "shelf", "display", "train", "rail",
               "rails", "railway", "ramp", "station"}


@dataclass
class RoleNote:
    """One role annotation: what it says and where it was written."""

    role: str
    params: dict[str, str] = field(default_factory=dict)
    source: str = ""  # "file:line"
    origin: str = "ROLE"  # ROLE, BEGIN, group, submodel, cli
    group: str = ""  # identity of the annotated group (same value = one weapon / one propulsion unit)

    @property
    def rank(self) -> int:
        """Explicit meta lines beat group names, which beat submodel names."""
        return {"cli": 4, "ROLE": 3, "BEGIN": 3, "group": 2, "submodel": 1}.get(self.origin, 0)


@dataclass
class CreationNote:
    file: str  # normalized (sub)model name
    params: dict[str, str]
    source: str


@dataclass
class Annotations:
    """Annotations by type-1 line: ``line_notes[(file name, line)]`` -> notes applying to that line."""

    line_notes: dict[tuple[str, int], list[RoleNote]] = field(default_factory=dict)
    submodel_notes: dict[str, RoleNote] = field(default_factory=dict)  # submodel name -> note from its name
    creations: dict[str, CreationNote] = field(default_factory=dict)  # (sub)model name -> CREATION
    units: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)  # (file, line, params)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def notes_for(self, refs: tuple[tuple[str, int], ...], submodel_path: tuple[str, ...]) -> list[RoleNote]:
        """Every note that applies to an element, outermost first (type-1 chain, then submodel names)."""
        out: list[RoleNote] = []
        for link in refs:
            out.extend(self.line_notes.get(link, ()))
        named: list[RoleNote] = []
        for sub in submodel_path:
            if _names_engine(sub):
                named = []  # an engine in a wing ("upper wing engine") is the engine, not the wing it hangs on
            n = self.submodel_notes.get(sub)
            if n is not None:
                named.append(n)
        return out + named

    def best_for(self, refs, submodel_path) -> RoleNote | None:
        """The deciding note: highest rank, then the innermost (most specific) one."""
        notes = self.notes_for(refs, submodel_path)
        best = None
        for depth, n in enumerate(notes):
            key = (n.rank, depth)
            if best is None or key >= best[0]:
                best = (key, n)
        return best[1] if best else None


@lru_cache(maxsize=4096)
def _names_engine(sub: str) -> bool:
    """A (sub)model's name ends in a word naming an engine ("upper left wing engine", "thrusters")."""
    words = [w for w in re.split(r"[^a-z0-9]+", file_stem(sub.lower())) if w]
    return bool(words) and words[-1] in _ENGINE_WORDS


def file_stem(name: str) -> str:
    """A (sub)model file name without its .ldr / .dat / .mpd extension."""
    return re.sub(r"\.(ldr|dat|mpd)$", "", name, flags=re.I)


def names_several(name: str) -> bool:
    """A (sub)model name joining several things ("Back + Crane", "cockpit and gun", "spaceship & rover"): it
    names no one thing, role or craft."""
    stem = file_stem(name.strip().lower())
    return "+" in stem or "&" in stem or "and" in re.split(r"[^a-z0-9]+", stem)


def normalize_role(word: str) -> str | None:
    w = word.strip().lower()
    w = _ROLE_ALIASES.get(w, w)
    return w if w in ROLES else None


def letter_wing(words: list[str], k: int) -> bool:
    """Word ``k`` is "wing" after a single letter: "X-Wing", "B-wing" name a starfighter, not a wing."""
    return 0 < k < len(words) and words[k] in ("wing", "wings") and len(words[k - 1]) == 1 and words[k - 1].isalpha()


def word_role(name: str) -> tuple[str, dict[str, str]] | None:
    """A group or submodel name that says what it is: "Cannon", "weapon left gun", "wheels_front.ldr"."""
    stem = file_stem(name.strip().lower())
    words = [w for w in re.split(r"[^a-z0-9]+", stem) if w]
    if not words:
        return None
    first = words[0]
    role = normalize_role(first)
    if role is None and len(words) > 1 and first == "weak" and words[1] == "point":
        role = "weak point"
    if role is not None:
        params: dict[str, str] = {}
        for w in words[1:]:
            if role == "weapon" and w in _WEAPON_WORDS:
                params["type"] = _WEAPON_WORDS[w]
                break
            if role == "propulsion" and (w in PROPULSION_TYPES or w in _PROPULSION_WORDS):
                params["type"] = w if w in PROPULSION_TYPES else _PROPULSION_WORDS[w]
                break
        return role, params
    # a role word as the name's first or last whole word ("cannon", "cannon_left", "front wheels"), unless
    # another word says it is something else ("water wheel", "gun rack"); "engine" names no role
    if _NOT_A_ROLE & set(words) or letter_wing(words, len(words) - 1):
        return None  # ... and an "X-Wing" or "B-wing" names a starfighter, not its wing
    if names_several(name):
        return None  # "Back + Crane", "cockpit and gun": a section with several things in it, no one role
    for w in dict.fromkeys((words[-1], words[0])):  # the last word names the thing: a laser cannon is a cannon
        if w in _WEAPON_WORDS and w in _PROPULSION_WORDS and _ENGINE_WORDS & set(words):
            return "propulsion", {"type": _PROPULSION_WORDS[w]}  # an "engine - rocket" is a rocket motor [000 §9.3]
        if w in _WEAPON_WORDS:
            return "weapon", {"type": _WEAPON_WORDS[w]}
        if w in _PROPULSION_WORDS:
            return "propulsion", {"type": _PROPULSION_WORDS[w]}
        if w in _DEVICE_WORDS:
            return "device", {}
    return None


_LDCAD_KV = re.compile(r"\[(\w+)=([^\]]*)\]")


def _ldcad_groups(fname: str, f) -> dict[str, "RoleNote | None"]:
    """LDCad group definitions of a file (``0 !LDCAD GROUP_DEF [topLevel=…] [LID=…] [GID=…] [name=…]``)."""
    out: dict[str, RoleNote | None] = {}
    for ln, t in f.metas:
        if t.strip().upper().startswith("!LDCAD GROUP_DEF"):
            kv = {k.lower(): v for k, v in _LDCAD_KV.findall(t)}
            gid = kv.get("gid") or kv.get("lid") or ""
            note = _group_note(kv.get("name", "").strip(), f"{f.path}:{ln}")
            if note is not None:
                note.group = f"group:ldcad:{fname}:{gid}"
            for key in {gid, kv.get("lid", "")} - {""}:
                out[key] = note
    return out


def _group_note(name: str, src: str) -> RoleNote | None:
    """The note a LeoCAD / MLCad group name gives (None when the name says no role)."""
    wr = word_role(name)
    return RoleNote(wr[0], dict(wr[1], name=name), src, "group", f"group:{src}") if wr else None


def _split_params(text: str) -> tuple[list[str], dict[str, str]]:
    try:
        toks = shlex.split(text)
    except ValueError:
        toks = text.split()
    words, params = [], {}
    for t in toks:
        if "=" in t:
            k, _, v = t.partition("=")
            params[k.strip().lower()] = v.strip()
        else:
            words.append(t)
    return words, params


def parse_role_spec(text: str, source: str, diags: list[Diagnostic], origin: str = "ROLE") -> RoleNote | None:
    """``<role> [key=value …]`` into a RoleNote; unknown roles, keys or types become warnings."""
    file, _, line = source.rpartition(":")
    line_no = int(line) if line.isdigit() else 0
    words, params = _split_params(text)
    if not words:
        diags.append(Diagnostic(file, line_no, "!BRIKSCAN annotation without a role (ignored)"))
        return None
    raw = " ".join(words[:2]).lower()
    role = normalize_role(raw) if raw in ("weak point",) else normalize_role(words[0])
    if role is None:
        diags.append(Diagnostic(file, line_no, f"unknown role {words[0]!r} (choose one of: {', '.join(ROLES[:5])})"))
        return None
    for k in list(params):
        if k not in ROLE_KEYS:
            diags.append(Diagnostic(file, line_no, f"unknown key {k!r} for role {role} (ignored)"))
            params.pop(k)
    t = params.get("type", "").lower()
    if t:
        allowed = WEAPON_TYPES if role == "weapon" else PROPULSION_TYPES if role == "propulsion" else ()
        alias = _WEAPON_WORDS.get(t) if role == "weapon" else _PROPULSION_WORDS.get(t) if role == "propulsion" else None
        if t not in allowed and alias:
            t = alias
        if t not in allowed:
            diags.append(Diagnostic(file, line_no, f"unknown {role} type {t!r} (ignored)"))
            params.pop("type")
        else:
            params["type"] = t
    for k in ("size", "move", "xsize"):
        if k in params:
            try:
                v = float(params[k])
                if not v >= 0 or v > 1e4:
                    raise ValueError
            except ValueError:
                diags.append(Diagnostic(file, line_no, f"{k}={params[k]!r} is not a number (ignored)"))
                params.pop(k)
    return RoleNote(role, params, source, origin)


def _creation_params(text: str, source: str, diags: list[Diagnostic]) -> dict[str, str]:
    file, _, line = source.rpartition(":")
    words, params = _split_params(text)
    for k in list(params):
        if k not in CREATION_KEYS:
            diags.append(Diagnostic(file, int(line), f"unknown key {k!r} for CREATION (ignored)"))
            params.pop(k)
    if "kind" in params and params["kind"].lower() not in KINDS:
        diags.append(Diagnostic(file, int(line), f"unknown creation kind {params['kind']!r} (choose one of: "
                                                 f"{', '.join(KINDS)})"))
        params.pop("kind")
    if "sl" in params:
        v = params["sl"].strip()
        if v not in SLS:
            diags.append(Diagnostic(file, int(line), f"Structure Level {v!r} is not 0, 0.5 or 1-5 (ignored)"))
            params.pop("sl")
        else:
            params["sl"] = "0.5" if v in ("1/2", "½") else v
    if words:
        diags.append(Diagnostic(file, int(line), f"unexpected word {words[0]!r} in CREATION (use key=value)"))
    return params


def parse_annotations(model) -> Annotations:
    """Every annotation in the model's main file and submodels."""
    ann = Annotations()
    diags = ann.diagnostics
    for fname, f in model.files.items():
        ref_lines = sorted(r.line for r in f.refs)
        metas = sorted(f.metas)
        if not metas and not ref_lines:
            continue
        events: list[tuple[int, int, object]] = [(ln, 1, t) for ln, t in metas] + [(ln, 2, None) for ln in ref_lines]
        events.sort(key=lambda e: (e[0], e[1]))
        pending: list[RoleNote] = []
        begin_stack: list[RoleNote] = []
        leo_stack: list[RoleNote | None] = []
        mlcad_groups: dict[str, RoleNote | None] = {}
        ldcad_groups = _ldcad_groups(fname, f)
        btg: RoleNote | None = None
        steps = set(f.steps)
        geometry_lines = set(f.tri_line)
        for ln, kind, text in events:
            src = f"{f.path}:{ln}"
            since = int(pending[0].source.rpartition(":")[2]) if pending else 0
            if pending and kind == 2 and (any(since < x < ln for x in steps) or
                                          any(since < x < ln for x in geometry_lines)):
                for stale in pending:  # the part it was written for was deleted: never slide to the next one
                    fl, _, l2 = stale.source.rpartition(":")
                    diags.append(Diagnostic(fl, int(l2), "!BRIKSCAN ROLE not followed directly by a part "
                                                         "(a STEP or other geometry comes first): ignored"))
                pending = []
            if kind == 2:
                # outermost first, so that a ROLE line right above a part beats the BEGIN block around it
                notes = list(begin_stack) + [n for n in leo_stack if n is not None]
                if btg is not None:
                    notes.append(btg)
                notes += pending
                if notes:
                    ann.line_notes[(fname, ln)] = notes
                pending = []
                btg = None
                continue
            t = str(text).strip()
            up = t.upper()
            if up.startswith("!BRIKSCAN"):
                rest = t[len("!BRIKSCAN"):].strip()
                cmd, _, arg = rest.partition(" ")
                cmd = cmd.upper()
                if cmd == "ROLE":
                    n = parse_role_spec(arg, src, diags, "ROLE")
                    if n:
                        n.group = src
                        pending.append(n)
                elif cmd == "BEGIN":
                    n = parse_role_spec(arg, src, diags, "BEGIN")
                    if n:
                        n.group = src
                        begin_stack.append(n)
                    else:
                        begin_stack.append(RoleNote("", {}, src, "BEGIN", src))  # keeps BEGIN/END balanced
                elif cmd == "END":
                    if begin_stack:
                        begin_stack.pop()
                    else:
                        diags.append(Diagnostic(f.path, ln, "!BRIKSCAN END without BEGIN (ignored)"))
                elif cmd == "CREATION":
                    ann.creations[fname] = CreationNote(fname, _creation_params(arg, src, diags), src)
                elif cmd == "UNIT":
                    _, params = _split_params(arg)
                    ann.units.append((fname, ln, params))
                else:
                    diags.append(Diagnostic(f.path, ln, f"unknown !BRIKSCAN command {cmd!r} (ignored)"))
                continue
            if up.startswith("!LDCAD GROUP_NXT"):  # 0 !LDCAD GROUP_NXT [ids=x] [nrs=…]: the next type-1 line
                ids = dict(_LDCAD_KV.findall(t)).get("ids", "").split()
                btg = ldcad_groups.get(ids[0]) if ids else None
            elif up.startswith("!LEOCAD GROUP BEGIN"):
                leo_stack.append(_group_note(t[len("!LEOCAD GROUP BEGIN"):].strip(), src))
            elif up.startswith("!LEOCAD GROUP END"):
                if leo_stack:
                    leo_stack.pop()
            elif up.startswith("GROUP ") or up.startswith("MLCAD BTG "):
                if up.startswith("GROUP "):  # 0 GROUP <n> <name>
                    parts = t.split(None, 2)
                    name = parts[2] if len(parts) > 2 else ""
                    mlcad_groups[name] = _group_note(name, src) if name else None
                else:  # 0 MLCAD BTG <name>: the next type-1 line belongs to the group
                    name = t[len("MLCAD BTG "):].strip()
                    if name not in mlcad_groups:
                        mlcad_groups[name] = _group_note(name, src)
                    btg = mlcad_groups[name]
        for n in begin_stack:
            fl, _, l2 = n.source.rpartition(":")
            diags.append(Diagnostic(fl, int(l2), "!BRIKSCAN BEGIN without END (runs to the end of the file)"))
        for stale in pending:
            fl, _, l2 = stale.source.rpartition(":")
            diags.append(Diagnostic(fl, int(l2), "!BRIKSCAN ROLE not followed by a type-1 line (ignored)"))
    for fname in model.submodels:
        wr = word_role(fname)
        if wr and fname != model.main.name:
            ann.submodel_notes[fname] = RoleNote(wr[0], dict(wr[1], name=fname), fname, "submodel",
                                                 SUBMODEL_GROUP + fname)
    for notes in ann.line_notes.values():
        notes[:] = [n for n in notes if n.role]
    return ann
