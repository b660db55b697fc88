"""Writes the small attack test battlefields in this folder (run it to regenerate them).

fixed_gun.mpd  a bunker (3 bricks 2x4) with a long blaster fixed on top, pointing -Z, and two minifigs 10" from
               its barrel end: "at40" 40 degrees and "at50" 50 degrees off the barrel axis (the 45 degree fudge).
thieven.mpd    Thieven Hood (a Hero: skill=d10) with his bow, and "rope": a 1x1 round brick 15" from his bow's
               barrel end [000 §4.2 Action].
towers.mpd     "sniper" on a pillar 27 bricks high (10.2"), "spotter" on a pillar 8 bricks high (3.02"), and
               "target" on the ground: height advantage +5" (capped) and +3" [000 §5.1 Other Modifiers].
"""
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
ID = "1 0 0 0 1 0 0 0 1"

# the archer of ldraw_models/squad.ldr, relative to his torso origin (faces -Z, bow in the right hand)
ARCHER = [
    (14, 0, -24, 0, ID, "3626bp01.dat"),
    (70, 0, -24, 0, ID, "3901.dat"),
    (2, 0, 0, 0, ID, "973p46.dat"),
    (2, -15.552, 9, 0, "0.985 -0.0863 -0.1465 0.17 0.4999 0.8491 0 -0.8613 0.5075", "3818.dat"),
    (2, 15.552, 9, 0, "0.985 0.17 0 -0.17 0.985 0 0 0 1", "3819.dat"),
    (14, -20.7803, 8.7318, -21.3963, "0.985 -0.1646 -0.0426 0.17 0.9537 0.2468 0 -0.2501 0.9677", "3820.dat"),
    (14, 23.8634, 26.5956, -10.321, "0.985 0.1202 -0.1202 -0.17 0.6964 -0.6964 0 0.707 0.707", "3820.dat"),
    (70, 0, 32, 0, ID, "3815b.dat"),
    (70, 0, 44, 0, ID, "3816b.dat"),
    (70, 0, 44, 0, ID, "3817b.dat"),
    (70, -20.2233, 5.5044, -30.766, "0.985 -0.17 0 0.17 0.9852 0.0002 0 0.0002 0.9995", "4499.dat"),
]
PLAIN = [(14, 0, -24, 0, ID, "3626bp01.dat"), (4, 0, 0, 0, ID, "973.dat"),
         (4, 15.552, 9, 0, ID, "3819.dat"), (4, -15.552, 9, 0, ID, "3818.dat"),
         (14, 23.552, 26.5, -9.5, "1 0 0 0 0.766 0.643 0 -0.643 0.766", "3820.dat"),
         (14, -23.552, 26.5, -9.5, "1 0 0 0 0.766 0.643 0 -0.643 0.766", "3820.dat"),
         (1, 0, 32, 0, ID, "3815.dat"), (1, 0, 44, 0, ID, "3816.dat"), (1, 0, 44, 0, ID, "3817.dat")]


def fig(x, y, z, name, parts=PLAIN, extra=""):
    """A minifig with its torso origin at (x, y, z) (feet at y + 72), facing -Z."""
    out = [f'0 !BRIKSCAN UNIT name="{name}"{extra}']
    for col, px, py, pz, m, part in parts:
        out.append(f"1 {col} {px + x:g} {py + y:g} {pz + z:g} {m} {part}")
    return out


def hdr(name, desc):
    return [f"0 {desc}", f"0 Name: {name}", "0 Author: brikscan tests", "0 !LDRAW_ORG Unofficial_Model", ""]


def write(name, lines):
    (HERE / name).write_text("\r\n".join(lines) + "\r\n")


# fixed gun: the blaster's barrel end, as brikscan finds it on this build (checked independently in the test)
GUN_TIP = (10.0, -108.5, -68.9)
RANGE_LDU = 635.0  # 10 tape-measure inches


def fixed_gun():
    bunker = hdr("bunker.ldr", "Bunker with a fixed gun") + [
        '0 !BRIKSCAN CREATION name="bunker" kind=building sl=2',
        f"1 71 0 -24 0 {ID} 3001.dat", f"1 71 0 -48 0 {ID} 3001.dat", f"1 71 0 -72 0 {ID} 3001.dat",
        f"1 72 10 -80 -10 {ID} 85861.dat",
        '0 !BRIKSCAN ROLE weapon type=gun name="blaster"',
        f"1 0 10 -101 -10 {ID} 57899.dat", ""]
    main = hdr("fixed_gun.mpd", "A fixed gun and two minifigs 40 and 50 degrees off its axis")
    main = ["0 FILE fixed_gun.mpd"] + main + [f"1 16 0 0 0 {ID} bunker.ldr"]
    for deg in (40, 50):
        a = math.radians(deg)
        x = GUN_TIP[0] + RANGE_LDU * math.sin(a)
        z = GUN_TIP[2] - RANGE_LDU * math.cos(a)
        main += fig(round(x, 2), -72, round(z, 2), f"at{deg}")
    write("fixed_gun.mpd", main + ["", "0 FILE bunker.ldr"] + bunker)


ROPE_Z = -972.7  # the rope's near face 14.98" from the bow's barrel end (-10.68, -121.77, -11.71)


def thieven():
    rope = hdr("rope.ldr", "The hangman's rope") + ['0 !BRIKSCAN CREATION name="rope" kind=building sl=0',
                                                    f"1 15 0 -24 0 {ID} 3062b.dat", ""]
    main = ["0 FILE thieven.mpd"] + hdr("thieven.mpd", "Thieven Hood shoots the rope [000 §4.2 Action]")
    main += fig(0, -72, 0, "thieven", ARCHER, " skill=d10")
    main += [f"1 16 0 -72 {ROPE_Z:g} {ID} rope.ldr"]
    write("thieven.mpd", main + ["", "0 FILE rope.ldr"] + rope)


def towers():
    out = ["0 FILE towers.mpd"] + hdr("towers.mpd", "A sniper on a 10 inch pillar, a spotter on a 3 inch "
                                                    "pillar, a target on the ground")
    subs = []
    for name, x, n in (("sniper", 0, 27), ("spotter", 200, 8)):
        out += [f"1 16 {x} 0 0 {ID} {name}-pillar.ldr"]
        out += fig(x, -24 * n - 72, 0, name, ARCHER)
        subs += ["", f"0 FILE {name}-pillar.ldr"] + hdr(f"{name}-pillar.ldr", "pillar") + [
            f'0 !BRIKSCAN CREATION name="{name}-pillar" kind=building']
        subs += [f"1 71 0 {-24 * (k + 1)} 0 {ID} 3003.dat" for k in range(n)]
    out += fig(100, -72, -900, "target")
    write("towers.mpd", out + subs)


if __name__ == "__main__":
    fixed_gun()
    thieven()
    towers()
