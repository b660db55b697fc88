"""Every element's BrikWars role, with a reason a player can read.

Roles [000 §7.1 Structure]: structural (the central Structure: "any part that has an interior"), weapon and
propulsion and device (Non-Structural, bought in ch.8-9), decoration (Non-Structural, free), weak point (exposed
hinges, turrets, pivots: one Structure Level lower), crew (minifigs: Creatures of their own).

Evidence, strongest first: the command line, ``0 !BRIKSCAN`` annotations, group and submodel names, minifig
bodies, the part's category / the first word of its description (never substrings: a "Tile with Winged Wheel
Logo" is a tile), and the topology (the rigid core versus what hangs off it by a movable joint).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..errors import UsageError
from ..lazy import lazy
from ..ldraw.part_numbers import printed_bases

nx = lazy("networkx")  # imported on first use: a cached analysis needs none of it


@dataclass
class RoleDecision:
    role: str
    reason: str
    source: str  # "cli", "annotation file:line", "group file:line", "submodel", "part", "topology", "geometry",
    #              "detail", "furniture", "mount", "minifig"
    params: dict[str, str] = field(default_factory=dict)  # type=, size=, name=, move= from annotations
    group: str = ""  # elements sharing a non-empty group form one weapon / propulsion unit

    def to_json(self) -> dict:
        d = {"role": self.role, "reason": self.reason, "source": self.source}
        if self.params:
            d["params"] = dict(self.params)
        return d


@dataclass(frozen=True)
class PartClass:
    """What a part is by itself (before annotations and topology)."""

    role: str | None  # None: no opinion (decided by topology)
    reason: str
    type: str = ""  # weapon or propulsion type
    word: str = ""  # the deciding word
    minifig_body: str = ""  # torso, hips, leg, arm, hand, head ("" if not a minifig body part)
    accessory: bool = False  # minifig accessory / headwear / neckwear (carried by a minifig)
    animal: bool = False
    worn: bool = False  # worn on the body (neckwear, armour, capes, air tanks): the torso section


_MELEE = {"sword", "knife", "dagger", "axe", "handaxe", "battleaxe", "lance", "spear", "halberd", "mace", "flail",
          "club", "whip", "pike", "katana", "scimitar", "trident", "sabre", "saber", "cutlass", "lightsaber", "scythe",
          "naginata", "glaive", "chainsaw"}
_WEAPON = {**{w: "melee" for w in _MELEE}, "shield": "shield", "gun": "gun", "pistol": "gun", "musket": "gun",
           "rifle": "gun", "blaster": "gun", "flintlock": "gun", "bow": "gun", "crossbow": "gun", "revolver": "gun",
           "speargun": "gun", "harpoon": "gun", "carbine": "gun", "shotgun": "gun", "bazooka": "rocket",
           "cannon": "cannon", "missile": "rocket", "rocket": "rocket", "torpedo": "rocket", "bomb": "explosive",
           "dynamite": "explosive", "grenade": "explosive", "flamethrower": "flamethrower", "catapult": "launcher",
           "shooter": "launcher"}
_PROPULSION = {"wheel": "ground", "tyre": "ground", "tire": "ground", "tread": "ground", "ski": "ground",
               "propeller": "thrust",
               "rotor": "flight", "wing": "forward_flight", "sail": "thrust", "oar": "water", "rudder": "water"}
# Controls and sensors printed or built as a part ("Tile 1 x 2 with Blue Screen", "Hinge Control Stick")
_CONTROLS = {"screen", "screens", "computer", "console", "keyboard", "gauges", "gauge", "joystick", "controls",
             "dials", "monitor"}
_DEVICE = {"radar", "lever", "computer", "crane", "winch", "magnet", "steering", "seat", "saddle",
           "control", "tool", "telescope", "binoculars", "camera", "lamp", "searchlight", "electric", "motor",
           "battery", "light", "hook"}
_DECORATION = {"flag", "antenna", "plant", "flower", "tree", "leaves", "grass", "container", "barrel", "chest", "crate",
               "food", "sticker", "hose", "string", "chain", "rope", "minifig", "animal", "fabric", "sheet",
               "cloth", "coin", "goblet", "bar", "fence", "moved", "figure", "jewel", "gem", "key", "torch", "bone",
               "book", "cup", "bottle", "plume", "belville", "scala", "homemaker"}
_WEAK = {"hinge", "turntable"}
_WORN = {"neck", "neckwear", "armour", "armor", "cape", "airtanks", "backpack", "vest", "jacket", "epaulette",
         "scabbard", "quiver", "breastplate", "harness", "jet"}  # "Minifig Jet-Pack": on his back
_STRUCTURAL = {"brick", "plate", "slope", "panel", "wall", "window", "glass", "arch", "wedge", "baseplate", "tile",
               "support", "cylinder", "cone", "boat", "car", "vehicle", "train", "technic", "bracket", "roof",
               "round", "castle", "rock", "duplo", "hull", "cockpit", "windscreen", "door", "dish", "quarter",
               "tail", "bow", "stern", "aircraft", "space", "column", "pillar", "stairs", "ladder", "house",
               "building", "beam", "frame", "platform", "plane", "truck"}
_LINKAGE = frozenset({"arm", "arms", "link", "links", "knuckle", "knuckles", "rack", "joint", "bearing", "portal",
                      "spindle"})  # steering gear at the wheels
_WHEEL_MOUNTS = frozenset({"holder", "holders", "arch", "arches", "well", "wells"})  # "Wheel Holder": no wheel
_HAND_TOOLS = frozenset({"truck", "fan"})  # a hand truck, a hand fan: things held or pushed, not a hand
_BODY = {"torso": "torso", "hips": "hips", "leg": "leg", "legs": "leg", "arm": "arm", "hand": "hand",
         "head": "head", "skeleton": "torso"}


@lru_cache(maxsize=1)
def _catalog_names() -> dict[str, str]:
    """BrickNet's part names (its catalog file alone: load_catalog would decode every connector label)."""
    from .bricknet_import import bricknet_part_names

    return bricknet_part_names()


# an LDraw printed or stickered variant of a part: its number (and mould letter), then p01, p4a, px1, pd12,
# pr0012, pb01, d01 (the LDraw and BrickLink naming of patterns and stickers); a custom one embedded in a Studio
# or LDCad file is judged as its base part
def _printed_base(stem: str, names: dict[str, str]) -> str | None:
    """The catalogued part ``stem`` is a print or sticker of ("973pd12" -> "973"), trying every split."""
    return next((base for base in printed_bases(stem) if base in names), None)


def is_marker(element) -> bool:
    """A renderer's marker, not a brick: the library's "~Light Source" (``light.dat``, category Light) stands where
    a renderer puts a lamp; it belongs to no creation."""
    return (element.category or "").lower() == "light" or element.part.lower() == "light.dat"


def describe(element) -> tuple[str, str]:
    """(category, description), with BrickNet's part names for MPD-embedded copies that lack a header (a custom
    printed part, "50747ps1", by the name of the part it is printed on: "Windscreen 6x6x3 Dome ... (printed)")."""
    desc = element.description or ""
    cat = element.category or ""
    stem = element.part.lower().removesuffix(".dat")
    if not desc or desc.lower() == stem or desc.lower() == stem.split(" - ")[-1]:
        own = stem.split(" - ")[-1]
        names = _catalog_names()
        name = names.get(own)
        if not name and (base := _printed_base(own, names)):
            name = f"{names[base]} (printed)"
        if name:
            desc = name.title()
            cat = desc.split(" ")[0]
    return cat, desc


def words(text: str) -> list[str]:
    """The lower-case words (letters and digits) of a part description or a name, in order."""
    return [w for w in re.split(r"[^a-z0-9]+", (text or "").lower()) if w]


HINGE_BASE_MIN_LDU = (40.0 - 2.0, 80.0 - 2.0)  # 2 x 4 studs (a margin for the fallback meshes): a plate, not a fitting
# the second word of a hinge part that is a piece of the build with hinge fingers on one edge, not the joint
_HINGED_PIECES = {"car": "roof", "panel": "panel", "tile": "tile", "brick": "brick"}


def _spans(element, least: tuple[float, float]) -> bool:
    """The element's footprint (its two longest sides) is at least ``least`` (the shorter, the longer)."""
    if getattr(element, "bbox_max", None) is None:
        return False
    _, middle, large = sorted(float(x) for x in (element.bbox_max - element.bbox_min))
    return middle >= least[0] and large >= least[1]


STEED_REASON = "a one-piece bicycle or motorcycle, a single rider's Horse-sized machine: a Steel Horse, no Mind " \
               "[000 ch.H Horse Varieties: \"Motorcycles, ... tricycles\"]"
_STEED_WORDS = frozenset({"bicycle", "tricycle", "motorcycle", "motorbike"})


def is_steed_part(description: str) -> bool:
    """A one-piece bicycle, tricycle or motorcycle ("Minifig Bicycle (Complete)", "Motorcycle Dirt Bike ...
    (Complete)"): no frame or fairing of a brick-built bike, no tile printed with one."""
    dwords = words((description or "").lstrip("~_=|"))
    if not dwords or dwords[0] not in _STEED_WORDS | {"minifig", "bike"} or "pattern" in dwords or \
            "sticker" in dwords:
        return False
    lead = set(dwords[:4])  # "Bike  2 Wheel Motorcycle with Red Wheels (Complete)": the library's names
    # with its wheels: not a body or a frame "(Complete)" with its halves but no wheels, nor a fork with one
    return bool(lead & {"bicycle", "tricycle"}) and "frame" not in dwords or \
        bool(lead & {"motorcycle", "motorbike"}) and "forks" not in dwords and \
        ("wheels" in dwords or "complete" in dwords and not {"body", "frame"} & set(dwords))


STEED_FITTINGS_MAX = 2  # a bicycle with its lamp and basket is still a bicycle; more bricks make it a build's load


def lone_steed(model, idx, classes) -> int | None:
    """The one-piece bicycle or motorcycle these elements are by themselves, with at most its lamp and basket
    (STEED_FITTINGS_MAX building elements) besides: a Steel Horse [000 ch.H]; else None (a bicycle parked on a
    build or carried by it is that build's load). One test for the creation's kind, its card and the load rule."""
    steed = next((i for i in idx if classes[i].word == "steed"), None)
    if steed is None:
        return None
    fittings = sum(1 for j in idx if j != steed and structural_kind(classes[j], model.elements[j]))
    return steed if fittings <= STEED_FITTINGS_MAX else None


_ANIMAL_MADE = frozenset({"web", "cobweb", "egg", "eggs", "nest", "cocoon"})  # under "Animal", made by one


def is_hitching(element, dwords: list[str] | None = None) -> bool:
    """The shafts a horse is hitched to: an "Animal Horse Hitching" or a part the library keys "horse hitching"
    whatever its name ("Plate 2 x 2 with Angled Bars ..."). ``dwords``: the words of its description, when the
    caller has them."""
    if any(k.strip().lower() == "horse hitching" for k in getattr(element, "keywords", None) or ()):
        return True
    if dwords is None:
        dwords = words(describe(element)[1].lstrip("~_=|"))
    return dwords[:1] in (["animal"], ["creature"]) and "hitching" in dwords[:3]


def classify_part(element, org_type: str = "") -> PartClass:
    """The role a part suggests by its category and the first words of its description."""
    if getattr(element, "hose", False):  # an LSynth hose: one flexible element [000 §7.1 Non-Structural]
        return PartClass("decoration", f"'{element.description}': a flexible hose (LSynth), Non-Structural "
                                       "[000 §7.1]", word="hose")
    cat, desc = describe(element)
    dwords = words(desc.lstrip("~_=|"))
    cwords = words(cat)
    if org_type.lower() in ("primitive", "subpart", "8_primitive", "48_primitive"):
        return PartClass("decoration", f"LDraw primitive {element.part} used as a part (rigging, cable or detail)",
                         word="primitive")
    if not dwords:
        return PartClass(None, f"unknown part {element.part}")
    first = dwords[0]
    if first not in ("animal", "creature") and is_hitching(element, dwords):
        # the part the library keys as a horse hitching, whatever its name ("Plate 2 x 2 with Angled Bars ..."):
        # the shafts a horse is hitched to, the wagon's coupling
        return PartClass("decoration", f"'{desc}': a horse hitching (its library keywords), the coupling to the "
                                       "animal (free) [000 §7.1]", word="hitching")
    if is_steed_part(desc):
        return PartClass("propulsion", f"'{desc}': {STEED_REASON}", "ground", word="steed")
    is_minifig = first == "minifig" or (cwords[:1] == ["minifig"])
    lead = dwords[1:] if first in ("minifig", "technic", "duplo", "~minifig") else dwords
    lead2 = lead[:2]
    label = f"'{desc}'"
    if is_minifig and lead[:2] == ["robot", "leg"]:  # an astromech droid's legs: a minifig's [000 §9.5]
        return PartClass("crew", f"minifig leg {label}", minifig_body="leg")
    if first == "figure" and cwords[:1] == ["figure"]:
        # "Figure Fabuland Torso", "... Leg", "... Hips Hinge": a figure of another line is built as a minifig is,
        # a Creature of its own [000 §9.5 The Minifig]; its head is named for the animal it is ("Pig Head")
        body = next((_BODY[w] for w in dwords[1:4] if w in _BODY), "")
        if body:
            return PartClass("crew", f"figure {body} {label}", minifig_body=body)
    if "robot" in dwords and "body" in dwords[dwords.index("robot"):]:  # "Cylinder 2 x 2 x 2 Robot Body"
        return PartClass("crew", f"minifig torso {label}: a droid's body", minifig_body="torso", word="robot")
    if is_minifig:
        # "Minifig Mechanical Torso", "... Legs", "... Head": a battle droid's body is a minifig's [000 §9.5], a
        # skeleton's by the limb after "Skeleton"; its arms stay accessories, his where they are fitted to him (one on a tripod is a camera's stand)
        if lead[:1] == ["mechanical"]:
            body = next((_BODY[w] for w in lead[1:2] if w in _BODY and _BODY[w] in ("torso", "hips", "leg", "head")),
                        "")
        elif lead[:1] == ["skeleton"]:  # "Minifig Skeleton Leg", "... Arm": the limb it names (10176's bones lying
            # about); "Minifig Skeleton (Shortcut)": the whole figure in one part, its torso
            body = next((_BODY[w] for w in lead[1:2] if w in _BODY and w != "skeleton"), "torso")
        elif lead[1:2] and lead[1] in _HAND_TOOLS:  # "Minifig Hand Truck", "... Hand Fan": a thing, no hand
            body = ""
        else:
            body = next((_BODY[w] for w in lead[:1] if w in _BODY), "")
        if body:
            return PartClass("crew", f"minifig {body} {label}", minifig_body=body)
        for w in lead2:
            if w in _WEAPON:
                return PartClass("weapon", f"{label}: a {_WEAPON[w]} weapon", _WEAPON[w], w, accessory=True)
        if "oar" in lead2 or "oars" in lead2:  # held, a Minifig-Sized Tool [000 §3]; in a boat, its oars [§9.1]
            return PartClass("device", f"{label}: a minifig tool (an oar, two hands) [000 ch.3]", word="oar",
                             accessory=True)
        if lead2 and lead2[0] == "tool":
            return PartClass("device", f"{label}: a minifig tool", word="tool", accessory=True)
        if lead2 and lead2[0] in ("handlebars", "handlebar"):  # a scooter's or a bike's helm [000 §9.4 Controls]
            return PartClass("device", f"{label}: handlebars steer a vehicle: the Controls [000 §9.4 Piloting]",
                             "controls", "handlebars", accessory=True)
        if lead2 and lead2[0] == "seat":  # "Minifig Seat 2 x 2": a place for a driver or a passenger [000 §9.4]
            return PartClass("decoration", f"{label}: a seat, a place for a minifig (free) [000 §7.1]", word="seat",
                             accessory=True)
        # anything minifig-made that is not a body part can be worn or carried
        worn = bool(set(lead[:2]) & _WORN)  # "Minifig Arrow Quiver" too
        return PartClass("decoration", f"{label}: minifig accessory (free) [000 §7.1]", accessory=True, worn=worn)
    if first in ("animal", "creature") or cat.lower() == "animal":
        if dwords[1:2] in (["cattlehorns"], ["horns"]):  # a helmet's or a totem's horns: worn or an ornament
            return PartClass("decoration", f"{label}: horns to wear or to mount, not an animal (free) [000 §7.1]",
                             accessory=True, worn=True)
        if set(dwords[1:4]) & _ANIMAL_MADE:  # "Animal Spider Web with 2 Clips", "Animal Egg": no creature
            return PartClass("decoration", f"{label}: what an animal spins or lays, not an animal: a prop or a "
                                           "detail (free) [000 §7.1]")
        if is_hitching(element, dwords):  # the shafts a horse is hitched to: the wagon's coupling, not the horse
            return PartClass("decoration", f"{label}: a hitching, the coupling to the animal (free) [000 §7.1]",
                             word="hitching")
        if "saddle" in dwords:  # "a warhorse's saddle" is the mount's Controls [000 §9.4 Controls]
            return PartClass("device", f"{label}: a saddle is the mount's Controls [000 §9.4 Controls]",
                             "controls", "saddle", animal=True)
        return PartClass("structural", f"{label}: an animal (a Creature's body)", animal=True)
    for w in lead2:
        if w in _WEAPON and not (w == "bow" and first != w):  # "Boat Bow" is a hull, not a bow
            if first in ("boat", "slope", "brick", "plate", "tile", "wedge") and w not in ("cannon", "gun"):
                break
            return PartClass("weapon", f"{label}: '{w}' names a {_WEAPON[w]} weapon [000 ch.8]", _WEAPON[w], w)
    if first == "boat" and len(dwords) > 1 and dwords[1] in ("mast", "rigging", "sail", "oar", "propeller",
                                                             "rudder"):
        if dwords[1] == "rigging":
            return PartClass("decoration", f"{label}: rigging (decoration)")
        if dwords[1] in ("mast", "sail", "propeller"):  # sails and propellers are Thrusters [000 §9.3]
            return PartClass("propulsion", f"{label}: a ship's {dwords[1]} drives it: a Thruster [000 §9.3]",
                             "thrust", dwords[1])
        return PartClass("propulsion", f"{label}: a ship's {dwords[1]} is its water propulsion [000 §9.1]",
                         "water", dwords[1])
    if "train" in dwords[:3] and "motor" in dwords[:5]:  # "Electric Train Motor 12V ...": its driven wheels
        return PartClass("propulsion", f"{label}: a train motor drives the locomotive along its rails: ground "
                                       "propulsion [000 §9.1]", "ground", "wheel")
    if "steering" in lead2 and set(lead[lead.index("steering") + 1:]) & _LINKAGE:
        # "Technic Steering Arm", "... Steering Wheel Bearing", "... Steering Link": at the wheels, no helm
        return PartClass("weak point", f"{label}: steering linkage at the wheels, out of the driver's reach: a "
                                       "moving joint, a weak point [000 §7.1]", word="hinge")
    if "steering" in lead2 or ("ship" in dwords[:3] and "wheel" in dwords[:3]):
        return PartClass("device", f"{label}: a steering wheel is the Controls [000 §9.4]", word="steering")
    for k, w in enumerate(lead2):
        if w in _PROPULSION and lead[k + 1:k + 2] and lead[k + 1] in _WHEEL_MOUNTS:
            # "Car Wheel Holder 2 x 2 with Suspension", "Wheel Arch": what a wheel is held in, the chassis
            return PartClass("structural", f"{label}: holds a {w}, it does not roll: the chassis [000 §7.1 "
                                           "Vehicle: chassis]", word="chassis")
        if w in _PROPULSION and not (first in ("tile", "sticker", "plate", "brick") and w != first):
            return PartClass("propulsion", f"{label}: '{w}' is {_PROPULSION[w]} propulsion [000 §9.1]",
                             _PROPULSION[w], w)
    if "with" in dwords and "wheels" in dwords[dwords.index("with"):] and first not in ("tile", "sticker") and \
            "pattern" not in dwords:  # "Plate 2 x 2 with Red Wheels (Complete)": the part comes with its wheels
        return PartClass("propulsion", f"{label}: a part with its wheels: ground propulsion [000 §9.1]", "ground",
                         "wheel")
    if "positioning" in dwords and "rockets" in dwords:  # "Brick 2 x 1 with Positioning Rockets"
        return PartClass("propulsion", f"{label}: positioning rockets are Thrusters [000 §9.3 Thrust Vectors]",
                         "thrust", "rocket")
    if "jet" in dwords[:8] and ("engine" in dwords[:9] or first == "jet"):  # "Plate 1 x 2 with Jet Engine"
        return PartClass("propulsion", f"{label}: a jet engine is a Thruster [000 §9.3 Thrust Vectors]", "thrust",
                         "jet")
    if first == "tile" and "pattern" in dwords and "with" in dwords and not set(dwords) & _CONTROLS:
        picture = dwords[dwords.index("with") + 1:]
        w = next((w for w in picture if w in _WEAPON and _WEAPON[w] == "explosive"), None)
        if w:  # "Tile 1 x 2 with Dynamite Pattern": a stick of dynamite, thrown by a minifig [000 ch.3]
            return PartClass("weapon", f"{label}: '{w}' printed on a tile: a thrown explosive", "explosive", w,
                             accessory=True)
        return PartClass("decoration", f"{label}: a printed tile, a sign, marking or picture: decorative "
                                       "(Non-Structural, free) [000 §7.1]", word="tile")
    if "control" in lead2 or "stick" in lead2 and first == "hinge" or set(dwords[1:]) & _CONTROLS:
        return PartClass("device", f"{label}: controls or a console are the Controls [000 §9.4 Piloting]",
                         "controls", "control")
    if first == "hinge" and dwords[1:2] == ["plate"] and "base" in dwords and _spans(element, HINGE_BASE_MIN_LDU):
        # "Hinge Plate 2 x 9 Base": a tipper truck's chassis, a plate of the build; the joint is its top half
        return PartClass("structural", f"{label}: the base half of a hinge plate, at least 2 x 4 studs: a plate of "
                                       "the build; the half that swings on it is the weak point [000 §7.1]",
                         word="plate")
    if first == "hinge" and dwords[1:2] and dwords[1] in _HINGED_PIECES and "holder" not in dwords and \
            _spans(element, HINGE_BASE_MIN_LDU):
        # "Hinge Car Roof 4 x 4", "Hinge Panel 2 x 4 x 3.333", "Hinge Tile 2 x 4 with Ribs": a roof, a panel or a
        # tile with hinge fingers along one edge; what it turns on is the narrow holder it clips to
        piece = _HINGED_PIECES[dwords[1]]
        return PartClass("structural", f"{label}: a {piece} with hinge fingers on one edge, a piece of the build; "
                                       "the holder it turns on is the weak point [000 §7.1]", word=piece)
    if first in _WEAK or (first == "technic" and lead[:1] == ["turntable"]) or \
            {"finger", "fingers"} & set(dwords):  # "Arm Piece with 2 Fingers": one half of a finger hinge
        return PartClass("weak point", f"{label}: a moving joint (hinge/turntable) is a weak point [000 §7.1]",
                         word=first)
    if dwords[:2] == ["hose", "reel"]:  # a drum a rope winds on: an anchor or cargo winch
        return PartClass("device", f"{label}: a reel drum is a winch, a device [000 §9.4]", word="winch")
    if first == "lsynth" or ("hose" in lead[:4] and {"flex", "flexible", "pneumatic"} & set(lead[:4])):
        # "Technic Flex-System Hose 12L"; a ribbed hose strung on an axle is the axle's casing, judged with it
        return PartClass("decoration", f"{label}: a flexible hose or cable (a piece of one, where LSynth made it): "
                                       "it bends and holds nothing up, Non-Structural [000 §7.1]", word="hose")
    if "crane" in dwords and "hook" in dwords:  # "Plate 1 x 2 with Crane Hook": a hoist
        return PartClass("device", f"{label}: a crane hook is a hoist, a device [000 §9.4]", word="hook")
    if first == "rack" and "winder" in dwords[:3]:  # the crank that runs a gear rack: a winch
        return PartClass("device", f"{label}: a rack winder is a winch, a device [000 §9.4]", word="winch")
    if first in _DEVICE or (lead[:1] and lead[0] in ("steering", "control", "lever")):
        return PartClass("device", f"{label}: '{first}' is a device or control [000 §9.4]", word=first)
    if first in _DECORATION or (cwords and cwords[0] in _DECORATION and first not in _STRUCTURAL):
        return PartClass("decoration", f"{label}: decoration (Non-Structural, free) [000 §7.1]", word=first)
    if first == "door" and "frame" in dwords:
        return PartClass("structural", f"{label}: a door frame is part of the wall", word="door")
    if first == "door":  # the 2010 rules: "any parts that ... are moving" are Non-Structural [000 §7.1]
        return PartClass("decoration", f"{label}: a door leaf swings: a moving part, Non-Structural (free) "
                                       "[000 §7.1]", word="door")
    if first in _STRUCTURAL or (cwords and cwords[0] in _STRUCTURAL):
        return PartClass("structural", f"{label}: building element", word=first)
    return PartClass(None, f"{label}: no rule for '{first}'", word=first)


def structural_kind(c: PartClass, element) -> bool:
    """A part that can be a Creation's Structure (bricks, plates, slopes, panels, walls, windows, hull parts,
    baseplates, door frames …), as opposed to weapons, propulsion, devices, decoration and minifig parts."""
    if c.animal or c.minifig_body or c.accessory:
        return False
    if c.role == "structural":
        return True
    if c.word == "door":  # the door moves (a weak point); its frame is wall
        return "frame" in words(describe(element)[1])
    return False


def encloses_reason(description: str, volume_in3: float) -> str:
    """The reason of an element that bounds an interior [000 §7.1]."""
    vol = f"{volume_in3:.1f}" if volume_in3 >= 0.95 else f"{volume_in3:.2f}"
    return f"'{description}': encloses an interior ({vol} cubic inches) [000 §7.1]"


def core_and_hanging(graph: nx.Graph, candidates: list[int], body: dict[int, int] | None = None
                     ) -> tuple[set[int], dict[int, str]]:
    """The rigid core (largest rigid body among ``candidates``) and how the rest hangs on it.

    Returns (core, {element: "joint" | "beyond" | "detached"}): "joint" elements sit on a movable joint,
    "beyond" ones hang further out, "detached" ones do not reach the core through the candidates.
    ``body``: ``connectivity.rigid_groups(graph, candidates)`` when the caller already has it.
    """
    from .connectivity import components_in, rigid_groups

    cset = set(candidates)
    if not cset:
        return set(), {}
    if body is None:
        body = rigid_groups(graph, cset)
    groups: dict[int, list[int]] = {}
    for i, r in body.items():
        groups.setdefault(r, []).append(i)
    core = set(max(groups.values(), key=lambda g: (len(g), -min(g))))
    reach: set[int] = set()
    for comp in components_in(graph, cset):  # nx.connected_components(graph.subgraph(cset)), the same sets
        if comp & core:
            reach = comp
    rest: dict[int, str] = {}
    for i in cset - core:
        if i not in reach:
            rest[i] = "detached"
            continue
        joint = any(graph.edges[i, j].get("movable") and body[j] != body[i] for j in graph.neighbors(i)
                    if j in cset)
        rest[i] = "joint" if joint else "beyond"
    return core, rest


@dataclass
class JointedBody:
    """A rigid body that reaches the rigid core only through movable joints (a turret, an arm, a leg)."""

    elements: list[int]  # the body's candidate elements
    joint_kinds: set[str]  # kinds of the movable links it hangs by: hinge, technic, ball, clip, turntable
    joint_parts: list[int]  # weak-point parts (turntables, hinge parts) it hangs by
    axes: list  # world axes of the movable connector pairs it hangs by (unit vectors), when known


def jointed_bodies(graph: nx.Graph, candidates: list[int], core: set[int], body: dict[int, int],
                   joint_parts: set[int], classes: dict) -> list[JointedBody]:
    """Rigid bodies (besides the core) that hang on the core only by movable joints.

    The links allowed on the way are movable edges between bodies and joint parts: elements whose part is a
    moving joint by itself (a complete turntable, a hinge plate), whose two halves the connectivity graph
    cannot tell apart. Bodies reached only through weapons, devices or propulsion are not returned.
    """
    cset = set(candidates)
    nodes = cset | set(joint_parts)
    from .connectivity import component_of

    start = next(iter(core), None)
    if start is None:
        return []
    reach = component_of(graph, nodes, start)  # nx.node_connected_component(graph.subgraph(nodes), start)
    members: dict[int, list[int]] = {}
    for i in cset - core:
        if i in reach:
            members.setdefault(body[i], []).append(i)
    out = []
    for _, els in sorted(members.items(), key=lambda kv: min(kv[1])):
        inside = set(els)
        kinds: set[str] = set()
        parts: list[int] = []
        axes: list = []
        for i in els:
            for j in graph.neighbors(i):
                if j in inside or j not in nodes:
                    continue
                d = graph.edges[i, j]
                if j in joint_parts:
                    parts.append(j)
                    word = getattr(classes.get(j), "word", "") or "hinge"
                    kinds.add("turntable" if word == "turntable" or d.get("kind") == "turntable" else word)
                elif d.get("movable"):
                    kinds.add(d.get("kind", "hinge"))
                    axes.extend(np.asarray(a, dtype=float) for _, a in (d.get("joints") or []))
        out.append(JointedBody(sorted(els), kinds, sorted(set(parts)), axes))
    return out


def parse_override(spec: str) -> tuple[str, str]:
    """``SELECTOR=ROLE [key=value …]`` (selector: index, a-b range, comma list, or part name like 3001.dat)."""
    sel, sep, rest = spec.partition("=")
    if not sep or not sel.strip() or not rest.strip():
        raise UsageError(f"--role {spec!r}: expected SELECTOR=ROLE [key=value ...], e.g. 12=weapon type=gun")
    return sel.strip(), rest.strip()


def select_elements(model, selector: str) -> list[int]:
    out: list[int] = []
    n = len(model.elements)
    for tok in selector.split(","):
        tok = tok.strip()
        if re.fullmatch(r"\d+", tok):
            out.append(int(tok))
        elif re.fullmatch(r"\d+-\d+", tok):
            a, b = (int(x) for x in tok.split("-"))
            out.extend(range(a, b + 1))
        else:
            low = tok.lower()
            hits = [e.index for e in model.elements if e.part.lower() == low or e.part.lower() == low + ".dat"
                    or e.source.lower().endswith(low) or low in (s.lower() for s in e.submodel_path)]
            if not hits:
                raise UsageError(f"--role: no element matches {tok!r}")
            out.extend(hits)
    bad = [i for i in out if not 0 <= i < n]
    if bad:
        raise UsageError(f"--role: element index {bad[0]} out of range (model has {n} elements)")
    return out
