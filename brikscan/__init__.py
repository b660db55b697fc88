"""brikscan: LDraw builds into BrikWars stat cards, line of sight and destruction previews."""
from __future__ import annotations

__version__ = "0.1.0"


def load(path, library=None, **kwargs):
    """Load an LDraw model with real part geometry (see :func:`brikscan.geometry.model.load`)."""
    from .geometry.model import load as _load

    return _load(path, library, **kwargs)


def attacks(battlefield, library=None, *, attackers=None, targets=None, weapon=None, scale=None, rules=None,
            scenery: bool = False, samples: int = 200, json: bool = True):
    """Attack options on a battlefield (an LDraw model or a scene .toml): what ``brikscan attacks --json`` prints
    (``json=False``: the ``AttackResult`` itself). ``attackers`` / ``targets``: unit names, comma-separated."""
    from .battle.attacks import attack_options, attacks_json, pick_units
    from .battle.battlefield import load_battlefield

    bf = load_battlefield(battlefield, library, scale=scale, rules=rules)
    frm, to = pick_units(bf, attackers, targets)
    result = attack_options(bf, frm, to, weapon, samples=samples, scenery=scenery)
    return attacks_json(bf, result) if json else result


def army(paths, library=None, **kwargs):
    """The army of model and scene files: CP, Unit Inches, sides (see :func:`brikscan.battle.army.army`)."""
    from .battle.army import army as _army

    return _army(paths, library, **kwargs)
