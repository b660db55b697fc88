"""Load one BrikWars edition's rule tables from TOML and validate them.

Rules are data: each edition is one ``rules_<edition>.toml`` next to this module, every
entry cites its rulebook section, and the formulas in ``formulas.py`` only read these
objects. A new edition is a new TOML file, not new code.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from brikscan.errors import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RULES_DIR = Path(__file__).resolve().parent
EDITIONS: tuple[str, ...] = ("2010", "2001")

# "[000 §7.1 Structure]", "[004 §9.1 ...]", "[000 ch.D Armor Aspect]", "[000 MOC Combat ...]";
# "[digest §13.1]" names a brikscan default from /work/shared/rules/DIGEST.md (for status "impl" entries)
CITATION_RE = re.compile(r"^\[((000|001|003|004) (§\d[\d.]*|ch\.\w+|MOC Combat)|digest §\d[\d.]*)[^\]]*\]")


class Cited(BaseModel):
    """A table entry: values plus where in the rulebooks they come from."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    source: str
    status: Literal["stated", "inferred", "impl", "conflict"] = "stated"
    note: str | None = None

    @field_validator("source")
    @classmethod
    def _cited(cls, v: str) -> str:
        for part in v.split(";"):
            if not CITATION_RE.match(part.strip()):
                raise ValueError(f"bad citation {part.strip()!r} (want e.g. '[000 §7.1 Structure]')")
        return v


class Section(Cited):
    """A section an edition may lack; ``unsupported`` says why."""

    unsupported: str | None = None


class Meta(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    edition: str
    title: str
    files: list[str]


class SizeRules(Section):
    minimum: int
    vermin_minimum: int
    default_mode: Literal["nearest", "up", "down"]
    studs_per_inch: float  # the rules' measuring-stick inch (stud scale: studs_per_inch x 20 LDU)


class MinifigRules(Section):
    size_in: float
    sl: float
    armor_fixed: int
    move_in: float  # ground Move of a plain minifig / Trooper
    hand_weapon_max_size: float  # a minifig's Long hand-held weapon


class MindRules(Section):
    """What a Mind costs by Skill die; ``default_die`` is a Creature's Mind when nobody says otherwise."""

    dice: list[str] = Field(default_factory=list)  # Skill dice, "d4" ...
    cp: list[float] = Field(default_factory=list)  # CP of a Mind with the die at the same position
    default_die: str
    half_mind_factor: float = 1

    @field_validator("cp")
    @classmethod
    def _one_cost_per_die(cls, v: list[float], info) -> list[float]:
        if len(v) != len(info.data.get("dice", [])):
            raise ValueError("minds: one cp value per die")
        return v

    def cost(self, die: str | None = None) -> float:
        """CP of a Mind with Skill ``die`` ("d6"); UsageError when the edition has no Mind costs."""
        d = (die or self.default_die).strip().lower()
        if self.unsupported or d not in self.dice:
            raise UsageError(f"no Mind cost for {d}: {self.unsupported or 'unknown Skill die'} {self.source}")
        return float(self.cp[self.dice.index(d)])


class StructureLevel(Cited):
    level: float
    armor: str
    min_size_in: float | None = None
    cost_multiplier: float


class StructureBeyond(Cited):
    die: int
    cost_multiplier_per_level: float


class StructureRules(Cited):
    max_level_is_size: bool
    levels: list[StructureLevel]
    beyond: StructureBeyond | None = None

    @field_validator("levels")
    @classmethod
    def _sorted_unique(cls, v: list[StructureLevel]) -> list[StructureLevel]:
        lv = [r.level for r in v]
        if not lv or lv != sorted(set(lv)):
            raise ValueError("structure levels must be non-empty, unique and ascending")
        return v


class WeakPointRules(Cited):
    levels_lower: int
    floor_level: float
    zero_stays_zero: bool


class PowerRules(Section):
    per_size: float
    flying_per_size: float


class SizeDamageRules(Section):
    points_per_hit: int
    destroyed_at_or_below: int
    half_speed_fraction: float


class RepairRules(Section):
    patch_max_sl: float
    patch_repair_extra_in: float


class DiceRules(Cited):
    sides: list[int]
    bonus_die: int | None = None  # None: a bonus die is the same type as the die that earned it
    bonus_same_type_for: list[int] = Field(default_factory=list)  # d4 earns a d4 [000 Fancy Dice]
    optional_bonus: bool = False


class ExplosionRules(Cited):
    die: int
    ring_width_in: float
    drop: Literal["highest", "lowest", "unspecified"]
    knockback_in_per_die: float


class WeaponFormula(Cited):
    size_unit: Literal["inch", "xsize"]
    cost_per_size: float
    cost_add: float = 0
    use_per_size: float | None = None
    use_add: float = 0
    range_per_size: float | None = None
    range_add: float = 0
    damage_kind: Literal["dice", "skill", "none", "ammo", "payload"]
    damage_die: int | None = None
    damage_dice_per_size: float = 1
    damage_suffix: str = ""
    max_ammo_xsize_per_size: float | None = None
    max_payload_xsize_per_size: float | None = None
    max_payload_size_per_size: float | None = None
    payload_sl_die: int | None = None
    takes_auto_penalty: bool = False
    notes: str = ""
    aliases: list[str] = Field(default_factory=list)


class WeaponRules(Section):
    types: dict[str, WeaponFormula] = Field(default_factory=dict)


class PropulsionKind(Cited):
    cost_per_2in_base: float
    cost_per_2in_per_sl: float
    fixed_default_move_in: float
    formula_base_in: float
    formula_per_size: float
    formula_per_sl: float
    max_move_in: float
    winged_min_move_in: float | None = None
    legs_treads_max_per_size: float | None = None
    aliases: list[str] = Field(default_factory=list)


class PropulsionRules(Section):
    default_move: Literal["formula", "fixed"]
    min_default_move_in: float
    kinds: dict[str, PropulsionKind] = Field(default_factory=dict)


class ThrusterRules(Section):
    cost_per_size: float = 0
    thrust_per_size: float = 0
    power_per_size: float = 0


class WeaponSizeRules(Cited):
    """How a measured weapon becomes a Weapon Size: rounded like Structures, never below ``minimum``."""

    round: Literal["nearest", "up", "down"]
    minimum: int


class SlMaterial(Cited):
    """One colour group of the SL suggestion: a colour name containing a keyword suggests ``sl``.

    ``reason``/``creature_reason`` are brikscan's wording; ``{sl}`` becomes the SL (½ for 0.5).
    ``brick_bonus`` is added for ``SlSuggestionRules.brick_bonus_kinds`` built mostly from bricks.
    """

    name: str
    keywords: list[str] = Field(default_factory=list)  # empty: the fallback group, matches any colour
    sl: float
    reason: str
    creature_sl: float | None = None  # a Creature of this colour gets this SL instead
    creature_reason: str | None = None
    brick_bonus: float = 0
    min_share: float = 0  # the group decides only when more than this share of the Structure is of it


class SlSuggestionRules(Section):
    """The colour -> Structure Level suggestion (a brikscan default; the players decide [000 §7.1])."""

    empty_sl: float  # no structural elements at all
    empty_reason: str
    materials: list[SlMaterial]  # checked in order; the last one has no keywords and catches the rest
    brick_bonus_kinds: list[str]
    brick_bonus_min_bricks: int
    # more than this share of the structural elements in the material: the build *is* grey or black (a red coach
    # on a grey chassis, 49 % grey, is no tank)
    brick_bonus_min_share: float = 0.5
    brick_bonus_not_with: list[str] = Field(default_factory=list)  # propulsion types that make no tank: a ship, a jet
    max_sl: float

    @field_validator("materials")
    @classmethod
    def _ends_with_fallback(cls, v: list[SlMaterial]) -> list[SlMaterial]:
        if not v or v[-1].keywords or any(not m.keywords for m in v[:-1]):
            raise ValueError("sl_suggestion materials: keywords on all but the last, which is the fallback")
        if len({m.name for m in v}) != len(v):
            raise ValueError("sl_suggestion materials: names must be unique")
        return v


# ------------------------------------------------------------------ Core Rules units (issue #11)

class MinifigItem(Cited):
    """One row of the Core Rules minifig weapon table [000 ch.3]: stats, hands and what it may be paired with.

    ``pairs_with`` names size classes ("S") or other items ("heavy_shield"); two held items may be carried
    together when either allows the other [000 ch.3].
    """

    label: str
    group: Literal["melee", "ranged", "explosive", "shield", "tool", "random", "bare", "armor"]
    size_class: Literal["S", "M", "L"]
    cost: float
    use: float | None = None
    range_in: float | None = None  # None: Close Combat
    skill_dice: int = 0  # Close Combat damage in the holder's Skill dice ...
    damage_dice: str = ""  # ... or fixed dice ("1d6")
    damage_add: int = 0
    damage_suffix: str = ""
    effect: str = ""
    armor_add: int = 0
    deflection: bool = False
    half_speed: bool = False
    hands: int = 1
    two_handed_words: list[str] = Field(default_factory=list)
    pairs_with: list[str] = Field(default_factory=list)
    mounted_pairs_with: list[str] = Field(default_factory=list)
    jousting_words: list[str] = Field(default_factory=list)  # the pointy ones a rider may hold in one hand
    notes: str = ""

    def damage(self, skill: str = "d6") -> str:
        """The Damage text for a holder with Skill die ``skill`` ("d6" -> "1d6+2"); "" for none."""
        if self.skill_dice:
            base = f"{self.skill_dice}{skill}"
        elif self.damage_dice:
            base = self.damage_dice
        else:
            return self.effect
        add = f"{self.damage_add:+d}" if self.damage_add else ""
        return f"{base}{add}{self.damage_suffix}"


class WordMap(Cited):
    """``"word=item"`` pairs: a word of a part's name and the table row it names."""

    words: list[str] = Field(default_factory=list)

    def mapping(self) -> dict[str, str]:
        return dict(w.split("=", 1) for w in self.words)


class WordList(Cited):
    words: list[str] = Field(default_factory=list)


class ArmorWords(Cited):
    body_words: list[str]
    visor_words: list[str]


class MinifigWeaponRules(Cited):
    """Minifig weapons by length against the holder [000 ch.3]: S below ``short_below`` of its height, M up to
    ``minifig_up_to``, L longer; nothing over ``too_big_over`` minifigs can be picked up [000 §3.4]."""

    holder_height_ldu: float
    short_below: float
    minifig_up_to: float
    too_big_over: float
    max_hands: int
    weapon_size: list[float]  # Weapon Size of an S, M and L minifig weapon [000 §8.1 Hand-Held Weapons]
    half_speed_factor: float  # Move at Half Speed: every inch costs two Move inches [000 §4.1 Half Speed]
    items: dict[str, MinifigItem]
    examples: WordMap
    tools: WordList
    armor: ArmorWords

    def size_of(self, size_class: str) -> float:
        return float(self.weapon_size[("S", "M", "L").index(size_class)])

    def item(self, group: str, size_class: str) -> str | None:
        """The item of ``group`` in ``size_class`` (a Long ranged weapon has none: not allowed)."""
        return next((k for k, v in self.items.items() if v.group == group and v.size_class == size_class), None)


class LargeHandHeldRules(Cited):
    short_up_to: float
    bastard_up_to: float
    long_up_to: float
    ranged_long_allowed: bool


class Specialist(Cited):
    label: str
    specialty: str
    cost: float
    unit_inches: float | None = None  # None: the minifig's own; 0: included with the Vehicle / Horse
    unit_inches_add: float = 0
    skill: str | None = None
    move_in: float | None = None
    armor: str | None = None
    tools: list[str] = Field(default_factory=list)
    controls: Literal["vehicle", "weapon"] | None = None
    # Compensating [000 §8.1 The Heavy]: "item=as_item" rows wielded one class lighter, Weapons this many inches
    # larger than a minifig's, Melee Weapons up to this Size as Two-Handed Weapons
    wields_as: list[str] = Field(default_factory=list)
    larger_by_in: float = 0
    melee_max_size_in: float = 0


class SpecialistRules(Cited):
    kinds: dict[str, Specialist]


class HorseRules(Cited):
    words: list[str]
    size: int
    sl: float
    armor: str
    move_in: float
    mind_die: str
    half_mind: str
    cost: float
    attack_use: float
    attack_damage: str
    haul_size_per_horse: float  # a harnessed team hauls a cart up to this many inches of Size per Horse
    varieties: dict[str, float | str]
    armor_options: dict[str, float | str]

    @field_validator("varieties", "armor_options")
    @classmethod
    def _cited_options(cls, v: dict) -> dict:
        if "source" not in v:
            raise ValueError("cite the options' source")
        return v


class DragonRules(Cited):
    """A moulded dragon: a Flying Horse (with its wings) with a FlameThrower in its mouth [000 §10.3 Monsters]."""

    words: list[str]  # the animal part's name says dragon
    wing_words: list[str]  # a part of it that is a wing: it flies
    head_words: list[str]  # its head: the face that is the FlameThrower
    breath: str  # the weapon type of its breath


class VerminRules(Cited):
    size: int
    sl: float
    armor: str
    cost: float
    unit_inches: float
    max_in: float  # a one-piece animal this long or longer is no Vermin (brikscan's line, see the table's note)


class AnimalRow(Cited):
    """One row of the Animals table: a one-piece animal fielded as a unit [000 §11.2 The Animal]."""

    label: str
    cost: float
    skill: str
    move_in: float
    movement: str
    armor: str
    attack: str
    attack_use: float
    attack_damage: str
    examples: str = ""


class AnimalRules(Cited):
    kinds: dict[str, AnimalRow]

    def kind(self, name: str) -> str | None:
        """The row of an annotated ``animal=`` value: "vermin", "venomous" / "venomous_vermin", "flying" ..."""
        n = name.strip().lower().replace("-", "_").replace(" ", "_")
        for k in (n, f"{n}_vermin"):
            if k in self.kinds:
                return k
        return None


class SpineRules(Cited):
    """What is not measured for a Creature's Size, and when its spine counts as bent [000 §7.1 Size]."""

    surface_words: list[str]
    bend_tolerance_ldu: float


class CreatureRules(Cited):
    half_mind_kinds: list[str]
    arm_pair_cost_per_in: float
    minifig_arm_in: float
    horse: HorseRules
    vermin: VerminRules
    dragon: DragonRules | None = None
    animals: AnimalRules | None = None
    spine: SpineRules | None = None


class ArmyRules(Cited):
    minifig_unit_inches: float
    free_kinds: list[str]
    free_unaligned_kinds: list[str]


class AmmoRules(Cited):
    cost_per_xsize: float
    max_xsize_per_cannon_size: float
    damage_die: int


class TurretRules(Cited):
    cost: float
    max_weapon_in: float


class PlatingRules(Cited):
    cost_per_size: float
    cost_add: float


class EnergyShieldRules(Cited):
    cost_per_die_per_field_size: float
    power_per_die: float


class ModRules(Cited):
    paired: bool


class ExtrasRules(Cited):
    ammo: AmmoRules
    turret_small: TurretRules
    turret_large: TurretRules
    armor_plating: PlatingRules
    energy_shield: EnergyShieldRules
    mods: ModRules


class Rules(BaseModel):
    """All rule tables of one edition."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    meta: Meta
    size: SizeRules
    minifig: MinifigRules
    minds: MindRules
    structure: StructureRules
    weak_point: WeakPointRules
    base_cost: Cited
    power: PowerRules
    size_damage: SizeDamageRules
    repair: RepairRules
    special_damage: Section
    dice: DiceRules
    explosion: ExplosionRules
    weapons: WeaponRules
    propulsion: PropulsionRules
    thruster: ThrusterRules | None = None
    weapon_size: WeaponSizeRules
    sl_suggestion: SlSuggestionRules
    # Core Rules units and the army (2010 only; None in editions without them)
    minifig_weapons: MinifigWeaponRules | None = None
    large_hand_held: LargeHandHeldRules | None = None
    specialists: SpecialistRules | None = None
    creatures: CreatureRules | None = None
    army: ArmyRules | None = None
    extras: ExtrasRules | None = None

    @property
    def edition(self) -> str:
        return self.meta.edition


def rules_path(edition: str) -> Path:
    return RULES_DIR / f"rules_{edition}.toml"


def load_raw(edition: str) -> dict:
    """The parsed TOML of an edition, unvalidated (for tests and tooling)."""
    if edition not in EDITIONS:
        raise UsageError(f"unknown rules edition {edition!r} (choose one of: {', '.join(EDITIONS)})")
    path = rules_path(edition)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read rules table: {exc}", file=str(path)) from exc


def _validated_path(edition: str) -> Path | None:
    """Where the validated tables of ``edition`` are kept (a pickle in the cache folder), keyed by the TOML, this
    module and pydantic's version, so an edited table or model is validated again; None without a cache."""
    try:
        import pydantic

        from brikscan.cachedir import default_cache_dir

        h = hashlib.sha256(rules_path(edition).read_bytes())
        h.update(Path(__file__).read_bytes())
        h.update(f"{pydantic.VERSION} {sys.version}".encode())
        return default_cache_dir() / "rules" / f"rules-{edition}-{h.hexdigest()[:24]}.pickle"
    except OSError:
        return None


def _load_validated(path: Path | None) -> Rules | None:
    if path is None:
        return None
    try:
        rules = pickle.loads(path.read_bytes())
    except Exception:  # missing, damaged or from another build: validate again
        return None
    return rules if isinstance(rules, Rules) else None


def _store_validated(path: Path | None, rules: Rules) -> None:
    if path is None:
        return
    tmp = None
    try:
        import tempfile

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)  # readers see the whole file or none
        tmp = None
        for old in path.parent.glob(path.name.rsplit("-", 1)[0] + "-*.pickle"):  # older tables of the edition
            if old != path:
                old.unlink(missing_ok=True)
    except Exception:  # a cache that cannot be written is no reason to stop
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


@lru_cache(maxsize=None)
def load_rules(edition: str = "2010") -> Rules:
    """Load and validate the rule tables of ``edition`` ("2010" default, or "2001").

    Speed: validating builds every model's schema (a quarter of a second; the models defer it with
    ``defer_build``), so the validated tables are kept in the cache folder and read back while neither the TOML
    nor this module changed (``_validated_path``)."""
    edition = str(edition).strip()
    cached_at = _validated_path(edition) if edition in EDITIONS else None
    cached = _load_validated(cached_at)
    if cached is not None and cached.meta.edition == edition:
        return cached
    raw = load_raw(edition)
    try:
        rules = Rules.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"invalid rules table at {where}: {first['msg']}",
                         file=str(rules_path(edition))) from exc
    if rules.meta.edition != edition:
        raise UsageError(f"rules table says edition {rules.meta.edition!r}, expected {edition!r}",
                         file=str(rules_path(edition)))
    _store_validated(cached_at, rules)
    return rules
