"""brikscan: LDraw builds into BrikWars stat cards, line of sight and destruction previews."""
from __future__ import annotations

__version__ = "0.1.0"


def load(path, library=None, **kwargs):
    """Load an LDraw model with real part geometry (see :func:`brikscan.geometry.model.load`)."""
    from .geometry.model import load as _load

    return _load(path, library, **kwargs)


def analyse(model, library=None, **options):
    """The one ``Analysis`` of a model (a path or a loaded model): creations, every element's role with its
    reason, stat cards. ``options``: rules, scale, round_mode, sl, overrides, space, move (as ``stats``' flags)."""
    from .analysis.stats import analyse as _analyse

    return _analyse(_model(model, library), **options)


def stats(model, library=None, *, json: bool = True, **options):
    """What ``brikscan stats --json`` prints for a model (a path or a loaded model); ``json=False``: the
    ``Analysis`` itself. ``options`` as for :func:`analyse`."""
    from .analysis.stats import analysis_json
    from .jsonout import report

    a = analyse(model, library, **options)
    return report(analysis_json(a), a.model) if json else a


def los(battlefield, library=None, *, viewers=None, targets=None, scenery: bool = False, samples: int = 200,
        seed: int = 0, origin: str = "eyes", scale=None, rules=None, json: bool = True):
    """What ``brikscan los --json`` prints for a battlefield (an LDraw model or a scene .toml); ``viewers`` /
    ``targets``: unit names, comma-separated, as ``--from`` / ``--to`` (``json=False``: the ``LosResult``)."""
    from .battle.battlefield import load_battlefield
    from .battle.sight import line_of_sight, los_report, pick_viewers_targets
    from .jsonout import report

    bf = load_battlefield(battlefield, library, scale=scale, rules=rules)
    who, what = pick_viewers_targets(bf, viewers, targets, scenery)
    result = line_of_sight(bf, who, what, samples=samples, seed=seed, origin=origin, pair_support=scenery)
    return report(los_report(bf, result, samples=samples, seed=seed), bf) if json else result


def blast(model, library=None, *, json: bool = True, **options):
    """What ``brikscan blast --json`` prints: an explosion on a model (a path, a loaded model or an
    ``Analysis``). ``options`` as ``run_blast``'s: at, at_element, dice, rolls, armor_rolls, seed, sl, rules,
    scale, trials, cover... (``json=False``: the scene, the result and the Monte Carlo)."""
    from .battle.preview import blast_json, run_blast
    from .jsonout import report

    m = _model(model, library)
    scene, result, mc = run_blast(m, **options)
    return report(blast_json(scene, result, mc), getattr(m, "model", m)) if json else (scene, result, mc)


def hit(model, library=None, *, json: bool = True, **options):
    """What ``brikscan hit --json`` prints: one Component Damage attack [000 §7.2] (``options`` as
    ``run_hit``'s: element, origin, toward, damage, dice, rolls, overkill, chunk...)."""
    from .battle.preview import hit_json, run_hit
    from .jsonout import report

    m = _model(model, library)
    scene, result, info = run_hit(m, **options)
    return report(hit_json(scene, result, info), getattr(m, "model", m)) if json else (scene, result, info)


def _model(model, library):
    """A path is loaded (with ``library``); a loaded model or an ``Analysis`` is used as it is."""
    from pathlib import Path

    return load(model, library) if isinstance(model, (str, Path)) else model


def attacks(battlefield, library=None, *, attackers=None, targets=None, weapon=None, scale=None, rules=None,
            scenery: bool = False, samples: int = 200, json: bool = True):
    """Attack options on a battlefield (an LDraw model or a scene .toml): what ``brikscan attacks --json`` prints
    (``json=False``: the ``AttackResult`` itself). ``attackers`` / ``targets``: unit names, comma-separated."""
    from .battle.attacks import attack_options, attacks_json, pick_units
    from .battle.battlefield import load_battlefield
    from .jsonout import report

    bf = load_battlefield(battlefield, library, scale=scale, rules=rules)
    frm, to = pick_units(bf, attackers, targets)
    result = attack_options(bf, frm, to, weapon, samples=samples, scenery=scenery)
    return report(attacks_json(bf, result)) if json else result


def army(paths, library=None, *, json: bool = True, **kwargs):
    """What ``brikscan army --json`` prints for model and scene files: CP, Unit Inches, sides (``json=False``: the
    ``Army``; ``kwargs``: rules, budget, side, scale, as :func:`brikscan.battle.army.army`)."""
    from .battle.army import army as _army
    from .battle.army import army_json
    from .jsonout import report

    a = _army(paths, library, **kwargs)
    return report(army_json(a)) if json else a
