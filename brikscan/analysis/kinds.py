"""What kind a creation is (building, vehicle, creature, boat, flyer): from its propulsion, its crew place, its
base and the whole words of the submodel that holds it [000 §7.1, §9].
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..geometry.boxes import elements_box
from .annotations import WEAPON_TYPES, file_stem, letter_wing
from .element_shape import (BRICK_HEIGHT_LDU, _COCKPIT_WORDS, _FLYING_TYPES, HELM_WORDS, _crew_place, _extent,
                            _local_y, _words_of, cockpits, is_controls, nx)
from .mounts import FURNITURE, TWO_STUDS_LDU
from .naming import GENERIC_NAMES, _holding_submodels, name_words
from .roles import STEED_REASON, RoleDecision, describe, lone_steed


ROOTED_MIN = 8  # a build with this many pieces on its base plate ...
ROOTED_SPREAD = 0.5  # ... spread over at least this share of its footprint each way is built onto it


def _rooted(model, graph: nx.Graph, idx: list[int], scenery: set[int]) -> bool:
    """Built onto its base plate, not parked on it: many of its pieces stand on the plate across its footprint
    (a base, a house). A ship on a pad or a stand touches it with a foot or a few struts (one to five pieces on
    the 82 shared sets), so a ship with engines parked on a base plate still flies."""
    els = model.elements
    touch = [i for i in idx if any(j in scenery for j in graph.neighbors(i))]
    if len(touch) < ROOTED_MIN:
        return False
    lo, hi = elements_box(els, touch)
    clo, chi = elements_box(els, idx)
    return bool(np.all((hi - lo)[[0, 2]] >= ROOTED_SPREAD * (chi - clo)[[0, 2]]))


def _own_names(model, idx) -> list[tuple[str, list[str]]]:
    """The build's own submodels (those holding four fifths of it, innermost first), then the main file when the
    build is the model (four fifths of its elements outside the minifigs: "boat.ldr" names its one boat, "6256 -
    Island Catamaran" its catamaran, while a set's name says nothing of its other builds), each with the whole
    words of its name without numbers ("raft 2" is a copy's): what a boat or a vehicle name is read from. The
    first that names one decides ("spaceship" round its "cockpit")."""
    subs = _holding_submodels(model, idx)
    if _is_the_model(model, idx):
        # the main file's name, then the name the file has on disk when it says more ("8099 - main.ldr" inside
        # "Midi-Scale Imperial Star Destroyer.mpd")
        subs = subs + [n for n in dict.fromkeys((model.main.name, model.path.name)) if n not in subs]
    return [(sub, _name_words(sub)) for sub in subs]


# words that trail a set's name to say which version of the thing it is, not what it is ("Imperial Shuttle - Mini",
# "Millennium Falcon - UCS"), or which file of it ("7657 - AT-ST - main": the AT-ST's main file)
_VERSION_WORDS = {"mini", "micro", "ucs", "moc"} | GENERIC_NAMES


def _name_words(sub: str) -> list[str]:
    """The words of a (sub)model's name that say what it is: "jedi starfighter - mini" names a starfighter."""
    return name_words(sub, _VERSION_WORDS, keep=1)


def _is_the_model(model, idx) -> bool:
    """The build holds four fifths of the model's elements that are not minifig parts."""
    cats = model.element_categories()
    other = ~np.char.startswith(cats, "minifig") if len(cats) else np.zeros(0, dtype=bool)
    rest = int(other.sum())
    own = int(other[np.asarray(list(idx), dtype=np.int64)].sum()) if len(idx) else 0
    return own * 5 >= rest * 4 > 0


_BOAT_NAMES = {"boat", "boats", "raft", "rafts", "canoe", "canoes", "dinghy", "rowboat", "lifeboat", "kayak",
               "barge", "yacht", "ferry", "sailboat", "houseboat", "catamaran", "galley", "galleon", "schooner",
               "sloop", "frigate", "ship", "ships", "jetski", "jetskis", "speedboat", "speedboats", "motorboat",
               "motorboats", "powerboat", "tugboat", "trawler", "submarine"}
_NOT_AT_SEA = {"space", "star", "air", "sky", "rocket", "mother", "cloud"}  # a "space ship" flies


def _boat_name(model, idx) -> str:
    """The submodel the build is (``_own_names``) when its name names a boat: the last
    whole word names the thing, as in "house boat" or "crane barge"; "boat dock", "lifeboat station" and "boat
    trailer" name something else, and a "space ship" flies. A trailing number ("raft 2") is a copy's. "" when it
    names none."""
    return next((sub for sub, name in _own_names(model, idx) if names_boat(name)), "")


# boats a motor drives when no oars or sails are found: not a raft, a canoe, a barge, a plain "boat" (rowed as
# often as not) or a sailing ship
_MOTOR_BOAT_NAMES = {"ferry", "ship", "ships", "yacht", "houseboat", "catamaran", "jetski", "jetskis", "speedboat",
                     "speedboats", "motorboat", "motorboats", "powerboat", "tugboat", "trawler", "submarine"}


def motor_boat_name(model, idx) -> str:
    """The build's own submodel when its name names a boat a motor drives ("ship", "ferry", "submarine"); ""."""
    sub = _boat_name(model, idx)
    return sub if sub and _name_words(sub)[-1] in _MOTOR_BOAT_NAMES else ""


def names_boat(name: list[str]) -> bool:
    """These words of a name name a boat by the last one ("house boat", "submarine"), not a "space ship"."""
    return bool(name) and name[-1] in _BOAT_NAMES and not _NOT_AT_SEA & set(name)


def _plain_ship(model, sub: str) -> bool:
    """The name says only "ship", which names a starship as well as a boat."""
    name = _name_words(sub)
    return bool(name) and name[-1] in ("ship", "ships")


BOAT_KEEL_LDU = 48.0  # a hull part whose bottom is within two bricks of the build's lowest point is its hull
# The last whole word of a build's own submodel that names a vehicle [000 §9 Vehicles]: one that flies (in space or
# hovering) or one that drives; "ship" flies after "space" or "star" (a "space ship"), else it is a boat's
_FLYER_NAMES = {"spaceship", "spaceships", "starship", "starfighter", "fighter", "interceptor", "bomber",
                "shuttle", "spacecraft", "podracer", "speeder", "landspeeder", "snowspeeder", "plane", "aeroplane",
                "airplane", "aircraft", "biplane", "seaplane", "helicopter", "copter", "chopper", "glider",
                "gunship", "dropship", "lander", "ufo", "saucer", "starcruiser", "freighter"}
# ... unless another word names a place or a part of one: a car park, a bus stop, a shuttle's launch pad
_NOT_A_VEHICLE = {"stop", "park", "parking", "hangar", "garage", "pad", "station", "dock", "port", "stand", "display",
                  "trailer", "shop", "wash", "depot", "yard", "bay", "base", "lift", "ramp", "track", "road", "rack",
                  "tower", "wheel", "wheels", "engine", "cockpit", "seat", "driver", "pilot", "minifig", "figure",
                  "crew", "door", "roof", "interior", "transporter", "carrier", "hut", "arena", "bridge",
                  "building", "house", "storage", "factory", "store", "hall", "workshop", "lab", "camp", "fort",
                  "outpost", "barracks", "warehouse", "museum"}
# a warship's class after "star" or "space" names a starship (a "Star Destroyer"); alone it may be a boat's
_STAR_SHIPS = {"ship", "ships", "destroyer", "destroyers", "cruiser", "cruisers", "frigate", "corvette",
               "dreadnought", "battleship"}
_DRIVER_NAMES = {"car", "truck", "lorry", "van", "bus", "jeep", "buggy", "motorbike", "motorcycle", "bike",
                 "scooter", "racer", "dragster", "rover", "tractor", "bulldozer", "digger", "excavator",
                 "forklift", "trike", "kart", "locomotive", "crawler", "walker", "walkers", "droid", "droids",
                 "robot", "robots", "mech", "mechs", "vehicle"}


def _vehicle_name(model, idx, flying_only: bool = False) -> str:
    """The first of the build's own submodels (``_own_names``) whose name names a vehicle ("6955 - spaceship",
    "anakin's podracer", "fire truck 2"); "" when none does. ``flying_only``: only names
    of craft that fly or hover. "car park" and "bus stop" end in another word: they name no vehicle."""
    return next((sub for sub, name in _own_names(model, idx) if name and _names_vehicle(name, flying_only)), "")


def _build_vehicle_name(model, idx, rooted: bool, flying_only: bool = False) -> str:
    """``_vehicle_name``, except the set's own name for a build ``rooted`` on the base plate: the set's name names
    its vehicle, not the launch tower or the hangar built onto the base beside it."""
    named = _vehicle_name(model, idx, flying_only)
    return "" if rooted and named in (model.main.name, model.path.name) else named


_TANK_NAMES = {"tank", "tanks"}
_TANK_GUNS = frozenset(WEAPON_TYPES) - {"melee", "shield", "explosive"}  # what a war machine shoots with
_WALKER_NAMES = {"walker", "walkers", "mech", "mechs", "robot", "robots", "exosuit", "strider"}


def _walker_name(model, idx) -> str:
    """The first of the build's own submodels whose name names a walker: a walker, a mech, a robot, or an
    "All Terrain" walker by its designation ("AT-AT", "AT-ST", "AT-TE"); "" when none does."""
    def walks(name: list[str]) -> bool:
        if not name or _NOT_A_VEHICLE & set(name[:-1]) or name[-1] in _NOT_A_VEHICLE:
            return False  # the last word names the thing: a "robot shop" or a "walker hut" is no walker
        last = name[-1] if len(name) < 2 else name[-2] + name[-1]  # "exo-suit" is one word
        if name[-1] in _WALKER_NAMES or last in _WALKER_NAMES:
            return True
        core = name[:-1] if name[-1] in _WALKER_NAMES else name  # "AT-TE Walker", "Imperial AT-ST"
        return len(core) >= 2 and core[-2] == "at" and len(core[-1]) == 2 and core[-1].isalpha()
    return next((sub for sub, name in _own_names(model, idx) if walks(name)), "")


_ROBOT_NAMES = {"robot", "robots", "droid", "droids", "android", "androids"}
# the last word of a brick-built beast's name: alive, it acts by itself [000 §10] ("scorpion", not "scorpion tank")
_BEAST_NAMES = {"dragon", "dragons", "scorpion", "scorpions", "spider", "spiders", "snake", "snakes", "serpent",
                "crocodile", "alligator", "shark", "octopus", "squid", "kraken", "dinosaur", "dino", "raptor",
                "rex", "wolf", "bear", "lion", "tiger", "elephant", "mammoth", "eagle", "monster", "beast",
                "golem", "troll", "whale", "crab", "lobster", "beetle", "wyvern", "hydra", "griffin", "gryphon",
                # the farm, the pond and the zoo: a brick-built cow is an animal as a dragon is [000 §10.1]
                "cow", "cows", "bull", "ox", "calf", "pig", "sheep", "lamb", "goat", "horse", "pony", "donkey",
                "mule", "dog", "puppy", "cat", "kitten", "duck", "duckling", "goose", "swan", "chicken", "hen",
                "rooster", "bird", "owl", "parrot", "penguin", "pelican", "flamingo", "frog", "toad", "turtle",
                "tortoise", "rabbit", "bunny", "mouse", "rat", "squirrel", "hedgehog", "fox", "deer", "reindeer",
                "moose", "elk", "camel", "giraffe", "zebra", "rhino", "hippo", "gorilla", "ape", "monkey",
                "kangaroo", "koala", "panda", "fish", "dolphin", "jellyfish", "seahorse", "bee", "ant", "butterfly",
                "dragonfly", "ladybird", "ladybug", "snail", "lizard", "unicorn", "pegasus", "phoenix"}


_SWIMMERS = {"shark", "octopus", "squid", "kraken", "whale", "snake", "snakes", "serpent", "eagle", "fish", "dolphin",
             "jellyfish", "seahorse", "snail", "bird", "owl", "parrot", "bee", "butterfly", "dragonfly",
             "phoenix"}  # no feet to walk on (they swim, fly or creep)


def _beast_name(model, idx, walking: bool = False) -> str:
    """The build's own submodel named a beast ("7327 - scorpion", "red dragon"; not "dragon boat"), or "".
    ``walking``: only beasts that walk on feet."""
    return _named_last(model, idx, _BEAST_NAMES - _SWIMMERS if walking else _BEAST_NAMES)


def _named_last(model, idx, words, submodels_only: bool = False) -> str:
    """The first of the build's own submodels whose name's last word is one of ``words`` (the last word names the
    thing: "robot shop" names a shop); "" when none is. ``submodels_only``: not the set's own file
    (``_submodel_names``)."""
    names = _submodel_names(model, idx) if submodels_only else _own_names(model, idx)
    return next((sub for sub, name in names if name and _last_named(sub, name) in words), "")


def _last_named(sub: str, name: list[str]) -> str:
    """The last word of a name, before a bracketed remark ("pit droid (anakin)": whose droid it is; "hangar
    (robot)": what it houses)."""
    head = _name_words(sub.split("(", 1)[0]) if "(" in sub else []
    return head[-1] if head else name[-1]


def _submodel_names(model, idx) -> list[tuple[str, list[str]]]:
    """``_own_names`` without the set's own file: a set named a base or a cargo station holds its craft too."""
    return [(sub, name) for sub, name in _own_names(model, idx) if sub not in (model.main.name, model.path.name)]


def _robot_name(model, idx) -> str:
    """The build's own submodel named a robot ("6894 - Robot", "battle droid"), or ""."""
    return _named_last(model, idx, _ROBOT_NAMES)


def _names_vehicle(name: list[str], flying_only: bool, last_only: bool = False) -> bool:
    """Whether these words of a submodel's name (numbers left out) name a vehicle, or a flyer with ``flying_only``;
    ``last_only``: by its last word alone (a "truck cab" or a "walker legs" names a section of one)."""
    # the last word names the thing, or the first ("podracer anakin"); a name of numbers alone names nothing
    for k in dict.fromkeys((len(name) - 1,) if last_only else (len(name) - 1, 0)) if name else ():
        if k != len(name) - 1 and _NOT_A_VEHICLE & set(name):
            break  # ... unless a later word names a place or a part ("car park"); "space station - shuttle" is one
        w, before = name[k], name[k - 1] if k else ""
        if (w in _FLYER_NAMES and before != "fire") or (w in _STAR_SHIPS and before in ("space", "star")) \
                or letter_wing(name, k) or (k == 0 and w == "tie" and len(name) > 1):
            return True  # an "X-Wing" is a starfighter, not a wing; a "TIE Advanced" a TIE fighter
        if not flying_only and w in _DRIVER_NAMES and not (w == "vehicle" and _NOT_A_VEHICLE & set(name)):
            return True  # the plain word "vehicle" beside a place's ("base + vehicle") names no one vehicle
    return False


def _boat_reason(model, idx, classes) -> str:
    """Why the build is a boat ("" when it is none): a hull part ("Boat ...") at the bottom of the build, where a
    hull floats [000 §9.1 Water], or a submodel named for a boat (whole words: a log raft has no hull part). A
    "Boat Bow Plate" laid as the nose of a star destroyer's hull, high above its keel, is plating (a part's
    category is evidence, its place decides)."""
    hull = [i for i in idx if classes[i].word == "boat"]
    if not hull:  # a submodel named for a boat ("raft.ldr"): its name is the evidence, as "cannon.ldr" is a gun's
        named = _boat_name(model, idx)
        if named and _own_names(model, idx) and _plain_ship(model, named) and \
                any(classes[i].role == "propulsion" and classes[i].type in _FLYING_TYPES or
                    classes[i].word in _COCKPIT_WORDS for i in idx):
            return ""  # "ship.ldr" with wings, jets or a cockpit is a starship (an X-wing's "ship.ldr")
        return f"named a boat ({named!r}): a boat without a hull part" if named else ""
    els = model.elements
    bottom = max(float(els[i].bbox_max[1]) for i in idx)  # LDraw -Y is up: the lowest point has the largest Y
    return "a boat hull" if any(float(els[i].bbox_max[1]) >= bottom - BOAT_KEEL_LDU for i in hull) else ""


def _boat_hull(model, idx, classes) -> bool:
    return bool(_boat_reason(model, idx, classes))


_STREET_FURNITURE = {"lamp", "lamps", "lamppost", "lampposts", "lampost", "streetlamp", "streetlight", "lantern",
                     "lanterns", "floodlight", "floodlights", "bench", "benches", "planter", "planters", "hydrant",
                     "mailbox", "postbox", "signpost", "roadsign", "sign", "signs"}
_LIGHTS = {"street", "traffic", "flood", "lamp"}  # "street light", "traffic lights": not a "light tank"
STREET_FURNITURE_MAX_LDU = 80.0 + 1.0  # a street lamp's head may reach past its 2 x 2 foot: at most 4 studs


_CARGO_NAMES = {"container", "containers", "crate", "crates", "cargo", "load", "pallet", "pallets", "freight",
                "barrel", "barrels", "chest", "chests"}


LOAD_REASON = "a load the vehicle carries (a placed submodel named {name!r}), resting on it with no connector: " \
              "cargo, not an integral part of its Structure, free [000 §7.1 Non-Structural Elements]"


def carried_loads(model, graph: nx.Graph, idx: list[int], vehicle: bool) -> dict[int, str]:
    """A placed submodel named cargo by its last word ("container", "crate", "pallet"), part of a bigger build
    that moves and touching the rest of it only by resting contact, no connector (a container standing on a
    truck's tipping bed), is the load the vehicle carries: {element: its submodel's name}. The same submodel
    standing alone on the ground is cargo scenery (``_cargo_name``); a box body built onto a van with studs is
    its cargo hold, Structure [000 §7.1 Vehicle: cargo hold]."""
    if not vehicle:
        return {}
    inside = set(idx)
    placed: dict[tuple, list[int]] = {}
    names: dict[tuple, str] = {}
    for i in idx:
        e = model.elements[i]
        for k, sub in enumerate(e.submodel_path):
            words = _name_words(sub)
            if words and words[-1] in _CARGO_NAMES and k < len(e.refs):
                key = tuple(e.refs[:k + 1])
                placed.setdefault(key, []).append(i)
                names[key] = sub
                break
    out: dict[int, str] = {}
    for key, load in placed.items():
        mine = set(load)
        if 2 * len(mine) >= len(idx):
            continue  # the build is the load itself (or mostly): judged as a whole, by its name
        links = [graph.edges[i, j] for i in load for j in graph.neighbors(i) if j in inside and j not in mine]
        if links and all(d.get("source") == "contact" for d in links):
            out.update((i, names[key]) for i in load)
    return out


def _cargo_name(model, idx) -> str:
    """The first of the build's own submodels (not the set's file) whose name's last word names cargo ("container
    3", "cargo crate"); "" when none does."""
    return _named_last(model, idx, _CARGO_NAMES, submodels_only=True)


# the last word of a build's own name that names a place, not a craft: a control tower, a space station
_PLACE_NAMES = {"tower", "station", "hangar", "garage", "depot", "building", "house", "base", "outpost", "fort",
                "camp", "warehouse", "shop", "store", "hall", "workshop", "lab", "laboratory", "factory",
                "barracks", "museum", "hut", "headquarters", "hq", "office", "terminal", "airport", "spaceport",
                "bunker", "castle", "command", "centre", "center"}


def _place_name(model, idx) -> str:
    """The first of the build's own submodels whose name's last word names a place ("control tower", "command
    centre", "space station"); "" when none does, or when a craft's name comes first ("station shuttle"). Not the
    set's name: a set named a base holds its craft too."""
    for sub, name in _submodel_names(model, idx):
        if not name:
            continue
        if _names_vehicle(name, False, last_only=True):
            return ""
        if name[-1] in _PLACE_NAMES:
            return sub
    return ""


def _street_furniture_name(model, idx) -> str:
    """The first of the build's own submodels whose name's last word names street furniture ("lamp", "street
    light", "bench"); "" when none does. A "lamp shop" or a "sign tower" ends in another word."""
    for sub, name in _own_names(model, idx):
        if name and (name[-1] in _STREET_FURNITURE or
                     (name[-1] in ("light", "lights") and len(name) > 1 and name[-2] in _LIGHTS)):
            return sub
    return ""


_ROLLING_WORDS = frozenset({"wheel", "tyre", "tire"})  # what rolls when pulled (a tread or a ski is driven)
_ENGINE_WORDS = frozenset({"motor", "engine", "electric", "battery"})  # a drive of its own
_COUPLING_WORDS = frozenset({"towball", "kingpin", "trailer"})  # how a road trailer is hitched ...
_NOT_HITCH_WORDS = frozenset({"socket", "hinge", "arm"})  # ... (a locking hinge's towball socket is a joint)
_SEAT_WORDS = frozenset({"seat", "saddle", "steering", "cockpit", "windscreen", "canopy", "handlebars"})  # a driver
_CONSOLE_WORDS = frozenset({"console", "panel"})  # a console or control panel: Controls, or a machine's panel


def towed_reason(model, idx, roles, classes) -> str:
    """Why a wheeled build rolls only where it is towed or pushed, or "" when it may drive itself.

    "A Vehicle should include some type of Controls for its Propulsion systems (steering wheels, flight sticks,
    computer consoles)" [000 §9.4 Controls]: a trailer, a railway coach or wagon, a field gun's carriage has wheels
    and nothing that drives or steers them: no seat, cockpit, windscreen, steering wheel, handlebars or console, no
    motor or engine, no propulsion of another kind (a jet, a sail). Its wheels roll but buy no Move of its own.
    A one-piece bicycle or motorcycle is a Steel Horse, and wheels said to drive (an annotation) drive. A minifig
    seated on it is its driver at its Control Area ("a Vehicle that lacks specific Control elements should still at
    least have a specified Control Area"): ``stats.settle_towing``, which knows the riders, keeps its Move.
    A console on a build with a tow coupling and no seat is its load's panel: its role in ``roles`` says so."""
    prop = [i for i in idx if roles[i].role == "propulsion"]
    if not prop or lone_steed(model, idx, classes) is not None:
        return ""
    for i in prop:
        r = roles[i]
        if r.source in ("annotation", "cli") or (r.params or {}).get("type") != "ground" or \
                classes[i].word not in _ROLLING_WORDS:
            return ""
    consoles = [i for i in idx if is_controls(roles[i], classes[i])]
    hitched = [i for i in idx if _words_of(model.elements[i]) & _COUPLING_WORDS and
               not _words_of(model.elements[i]) & _NOT_HITCH_WORDS]
    # (a console on a build with a tow coupling and no seat, windscreen or steering is its winch's or its load's
    # panel: no one drives from it)
    panels = bool(consoles) and all(_words_of(model.elements[i]) & _CONSOLE_WORDS for i in consoles)
    if (_crew_place(classes, idx) and not (hitched and panels and
                                           not any(classes[i].word in _SEAT_WORDS for i in idx))) or \
            cockpits(model, idx, classes):
        return ""
    for i in idx:  # (a train motor's "Electric Train Motor" is its engine)
        if _words_of(model.elements[i]) & (HELM_WORDS | _ENGINE_WORDS):
            return ""
    if consoles:
        for i in consoles:  # (its own reason says so too: no card calls it the Controls of a towed trailer)
            roles[i] = RoleDecision("decoration", f"{describe(model.elements[i])[1]!r}: a console on a trailer "
                                                  "with a tow coupling and no seat: its load's or its winch's panel, "
                                                  "no driver's station (free) [000 §9.4 Controls, §7.1]", "geometry")
        return f"{len(prop)} wheel element(s), a tow coupling ({describe(model.elements[hitched[0]])[1]}) and no " \
               f"seat, cockpit, windscreen, steering, motor or engine; its console " \
               f"({describe(model.elements[consoles[0]])[1]}) is equipment no one drives from: a trailer, it rolls " \
               "where it is towed, its wheels buy no Move of its own [000 §9.4 Controls]"
    return f"{len(prop)} wheel element(s) and nothing to drive or steer them (no seat, cockpit, windscreen, " \
           "steering, console, motor or engine): a trailer or a wagon, it rolls where it is towed or pushed, its " \
           "wheels buy no Move of its own [000 §9.4 Controls]"


def on_rails(model, idx, roles) -> bool:
    """Every wheel it rolls on is a train's (the part is named for train wheels): it runs on rails, where no one
    aboard steers it."""
    wheels = [i for i in idx if roles[i].role == "propulsion" and (roles[i].params or {}).get("type") == "ground"]
    return bool(wheels) and all("train" in _words_of(model.elements[i]) for i in wheels)


LOOSE_GEAR_MAX = 4  # a wheel with its tyre, a pair of skis: a spare part, no vehicle, when nothing else is there
LOOSE_STRUCTURE_MAX = 2  # a Structure of one or two pieces (a pair of round bricks on an axle) is no building


def _kind(model, idx, roles, classes, note_kind: str | None, rooted: bool = False) -> tuple[str, str]:
    """The creation's kind and why. ``rooted``: it is built onto a base plate (``_rooted``)."""
    if note_kind:
        return note_kind, "annotated"
    n_animal = sum(1 for i in idx if classes[i].animal)
    if n_animal and n_animal * 2 >= len(idx):
        return "creature", "made of animal parts"
    robot = _robot_name(model, idx)
    if robot and not cockpits(model, idx, classes) and \
            not any(_words_of(model.elements[i]) & {"seat", "saddle"} for i in idx):
        # (control sticks are a Classic Space robot's arms: a seat or a cockpit is a pilot's place)
        return "creature", f"named a robot ({file_stem(robot)!r}) with no place for a pilot: it acts by itself, a " \
                           "robotic Creature, not a Vehicle [000 §10: \"a mech operating independently ... is a " \
                           "robotic Creature\"], its Mind Programmed [000 §10.1 Minds]"
    beast = _beast_name(model, idx)
    machine = any(roles[i].role == "propulsion" and (roles[i].params.get("type") == "thrust" or (
        roles[i].params.get("type") == "ground" and roles[i].source == "part")) for i in idx)  # jets, wheels
    if beast and not cockpits(model, idx, classes) and not machine:  # a rider's saddle does not make a Vehicle
        return "creature", f"named a beast ({file_stem(beast)!r}) with no cockpit: alive, it acts by itself, a " \
                           "Creature [000 §10]"
    prop = [i for i in idx if roles[i].role == "propulsion"]
    steed = lone_steed(model, idx, classes)
    if steed is not None and steed in prop:
        # a bicycle by itself, perhaps with its lamp (one carried on a car's roof is the car's load)
        return "vehicle", f"{describe(model.elements[steed])[1]}: {STEED_REASON}"
    if prop and not any(roles[i].role in ("structural", "weapon", "device", "crew") for i in idx):
        if len(idx) <= LOOSE_GEAR_MAX:
            return "scenery", f"{len(idx)} element(s) of running gear or engine and no body to carry: a spare " \
                              "part lying about, scenery (listed, not priced; annotate it to field it) [000 §7.1]"
        cart = next((i for i in idx if classes[i].accessory and roles[i].role == "decoration"), None)
        if cart is not None:  # a wheelbarrow, a hand truck: wheels under a minifig accessory, no Structure
            return "scenery", f"wheels under a minifig accessory ({describe(model.elements[cart])[1]}) and no " \
                              "Structure: a cart a minifig pushes, a prop, not a Vehicle (listed, not priced; " \
                              "annotate it to field it) [000 §7.1]"
    if prop:
        kinds = Counter((roles[i].params or {}).get("type", "") or "propulsion" for i in prop)
        return "vehicle", f"{len(prop)} propulsion element(s) (" + ", ".join(
            f"{k.replace('_', ' ')} {n}" for k, n in sorted(kinds.items())) + "): it moves under its own power " \
            "[000 §9.1]"
    boat = _boat_reason(model, idx, classes)
    if boat:
        return "vehicle", boat
    cargo = _cargo_name(model, idx)  # (what it holds steers nothing: a steering stand packed in a container)
    if cargo and not any(roles[i].role in ("weapon", "crew") for i in idx):
        return "scenery", f"named cargo ({file_stem(cargo)!r}) with no propulsion, weapon or crew: a load to be " \
                          "carried, scenery (listed, not priced; annotate it to field it) [000 §7.1]"
    # a pilot's place, not a pane judged the furniture of a room
    # (nor the cab of a device: a crane's cab, in a submodel named a crane, is its operator's place)
    cockpit = [i for i in cockpits(model, idx, classes) if roles[i].source != FURNITURE and
               not (roles[i].role == "device" and roles[i].source == "annotation")]
    place = _place_name(model, idx) if cockpit else ""
    if place:  # a control tower's windscreen and consoles: the room its crew works in, no craft's cockpit
        return "building", f"named a place ({file_stem(place)!r}), with no propulsion: its windscreen and " \
                           "consoles are a control room's, a building (annotate kind=vehicle to field it) [000 §7.1]"
    if cockpit:  # a pilot's place: the Controls of a Vehicle [000 §9.4], though no propulsion was recognised
        return "vehicle", f"a cockpit ({describe(model.elements[cockpit[0]])[1]}) but no propulsion recognised: " \
                          "annotate its engines or wings (0 !BRIKSCAN ROLE propulsion type=...)"
    # handlebars or a steering wheel steer a vehicle, built onto nothing (a scooter whose jets were not found)
    # (a Technic steering wheel is as often a round greeble: 10283's Hubble telescope wears one)
    helm = [i for i in idx if _words_of(model.elements[i]) & HELM_WORDS and
            "technic" not in _words_of(model.elements[i])] if not rooted else []
    if helm:
        return "vehicle", f"a helm ({describe(model.elements[helm[0]])[1]}) but no propulsion recognised: annotate " \
                          "its engines, wheels or wings (0 !BRIKSCAN ROLE propulsion type=...) [000 §9.4 Controls]"
    named = _build_vehicle_name(model, idx, rooted)
    set_name = _vehicle_name(model, idx) if rooted and not named else ""
    if set_name:
        # the set's name names its vehicle, and this build with no propulsion is built onto the base plate: the
        # vehicle's place (a launch tower, a hangar), not the vehicle (1682's shuttle stands beside its tower)
        return "building", f"the set is named a vehicle ({file_stem(set_name)!r}), but this " \
                           "build has no propulsion and is built onto the base plate: the vehicle's place (a " \
                           "launch pad, a hangar), a building (annotate kind=vehicle to field it) [000 §7.1]"
    if named:  # its submodel's name is the evidence, as a boat's is [000 §9 Vehicles]
        return "vehicle", f"named a vehicle ({file_stem(named)!r}) but no propulsion recognised: annotate its " \
                          "engines, wheels or wings (0 !BRIKSCAN ROLE propulsion type=...)"
    # a "tank" may hold water or fuel; one that carries a gun is a war machine (a hover tank's pads, a tank's
    # treads built of plates, were not recognised)
    tank = _named_last(model, idx, _TANK_NAMES)
    if tank and any(roles[i].role == "weapon" and roles[i].params.get("type") in _TANK_GUNS for i in idx):
        return "vehicle", f"named a tank ({file_stem(tank)!r}) and armed: a war machine, a Vehicle [000 §9], but " \
                          "no propulsion recognised: annotate its treads, wheels or hover pads (0 !BRIKSCAN ROLE " \
                          "propulsion type=...)"
    struct = [i for i in idx if roles[i].role == "structural"]
    if len(idx) <= 3 or not struct or _extent(model, idx) < 40:  # loose accessories are scenery (issue 8)
        return "scenery", f"{len(idx)} element(s), no Structure of its own: a loose accessory, scenery " \
                          "(listed, not priced) [000 §7.1]"
    lo, hi = elements_box(model.elements, struct)  # its Structure: leaves may spread
    furniture = _street_furniture_name(model, idx)
    if furniture and max(float(hi[0] - lo[0]), float(hi[2] - lo[2])) <= STREET_FURNITURE_MAX_LDU and \
            not any(roles[i].role in ("weapon", "crew") for i in idx):  # a lamp's light is no priced device
        return "scenery", f"named street furniture ({file_stem(furniture)!r}), on at most 4 x 4 studs with no " \
                          "weapon or crew: a lamp, a sign, a bench; scenery (listed, not priced; annotate it to " \
                          "field it) [000 §7.1]"
    if max(float(hi[0] - lo[0]), float(hi[2] - lo[2])) <= TWO_STUDS_LDU and \
            not any(roles[i].role in ("weapon", "device") for i in idx):
        return "scenery", "a build on at most 2 x 2 studs with no weapon or device: a planter, a post, street " \
                          "furniture; scenery (listed, not priced; annotate it to field it) [000 §7.1]"
    tilted = [i for i in struct if TILT_COS[0] <= abs(float(_local_y(model.elements[i])[1])) <= TILT_COS[1]]
    if len(tilted) >= TILT_SHARE * len(struct) and \
            not any(roles[i].role in ("weapon", "device", "crew") for i in idx):  # a scorpion reared up fights
        return "scenery", f"{len(tilted)} of its {len(struct)} structural pieces lie tilted, as one panel set at " \
                          "an angle to be read or climbed: a sign, a set's info plate or a ramp, not a building; " \
                          "scenery (listed, not priced; annotate it to field it) [000 §7.1]"
    if len(struct) <= LOOSE_STRUCTURE_MAX and not any(roles[i].role in ("weapon", "device", "crew") for i in idx):
        return "scenery", f"its Structure is {len(struct)} piece(s) with no weapon, device or crew: no building, a " \
                          "loose piece lying about, scenery (listed, not priced; annotate it to field it) [000 §7.1]"
    if float(hi[1] - lo[1]) < BRICK_HEIGHT_LDU and not any(roles[i].role in ("weapon", "device", "crew") for i in idx):
        return "scenery", "its Structure lies flat on the ground, lower than a brick (plates: a pad, a path, " \
                          "runway lights): terrain, not a building; scenery (listed, not priced; annotate it to " \
                          "field it) [000 §7.1]"
    return "building", "a Structure without propulsion"


TILT_COS = (0.26, 0.97)  # a piece whose up axis is 15 to 75 degrees off the vertical lies tilted ...
TILT_SHARE = 0.75  # ... and a build whose Structure is this much tilted is a panel set at an angle, not a building
