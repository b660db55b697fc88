"""Writes the small line-of-sight test battlefields in this folder (run it to regenerate them)."""
import math
from pathlib import Path

def fig(x, y, z, name=None, rot=None, colour_torso=4, colour_legs=1, hat=None):
    """minifig lines with torso origin at (x,y,z); feet at y+72; facing -Z (rot=180 to face +Z)."""

    parts = [
        (14, 0, -24, 0, "3626bp01.dat"),
        (colour_torso, 0, 0, 0, "973.dat"),
        (colour_torso, 15.552, 9, 0, "3819.dat"),
        (colour_torso, -15.552, 9, 0, "3818.dat"),
        (14, 23.552, 26.5, -9.5, "3820.dat", "1 0 0 0 0.766 0.643 0 -0.643 0.766"),
        (14, -23.552, 26.5, -9.5, "3820.dat", "1 0 0 0 0.766 0.643 0 -0.643 0.766"),
        (colour_legs, 0, 32, 0, "3815.dat"),
        (colour_legs, 0, 44, 0, "3816.dat"),
        (colour_legs, 0, 44, 0, "3817.dat"),
    ]
    if hat:
        parts.insert(0, (hat[0], 0, -24, 0, hat[1]))
    out = []
    if name:
        out.append(f'0 !BRIKSCAN UNIT name="{name}"')
    c = 1.0 if not rot else math.cos(math.radians(rot)); s = 0.0 if not rot else math.sin(math.radians(rot))
    for p in parts:
        col, px, py, pz, part = p[:5]
        m = [float(v) for v in (p[5] if len(p) > 5 else "1 0 0 0 1 0 0 0 1").split()]
        # rotate about Y: R = [[c,0,s],[0,1,0],[-s,0,c]]
        R = [[c,0,s],[0,1,0],[-s,0,c]]
        M = [m[0:3], m[3:6], m[6:9]]
        RM = [[sum(R[i][k]*M[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
        wx = R[0][0]*px + R[0][2]*pz + x; wz = R[2][0]*px + R[2][2]*pz + z
        mm = " ".join(f"{round(v, 4) + 0:g}" for row in RM for v in row)
        out.append(f"1 {col} {round(wx, 3) + 0:g} {round(py + y, 3) + 0:g} {round(wz, 3) + 0:g} {mm} {part}")
    return out

BASE = "1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat"
HERE = Path(__file__).resolve().parent


def hdr(name, desc):
    return [f"0 {desc}", f"0 Name: {name}", "0 Author: brikscan tests", "0 !LDRAW_ORG Unofficial_Model", ""]


def wall(z, courses, x=0, length_parts=("3008.dat", "3460.dat", "4162.dat"), colour=71):
    """1x8 bricks stacked: courses = 'b' (brick 24), 'p' (plate 8), 't' (tile 8, flat top)."""
    out = []
    y = 0
    for c in courses:
        y -= 24 if c == "b" else 8
        part = {"b": length_parts[0], "p": length_parts[1], "t": length_parts[2]}[c]
        out.append(f"1 {colour} {x} {y} {z} 1 0 0 0 1 0 0 0 1 {part}")
    return out


def write(name, lines):
    (HERE / name).write_text("\r\n".join(lines) + "\r\n")


def main():
    # open ground: archer faces the knight, nothing between
    write("open_ground.ldr", hdr("open_ground.ldr", "LOS test: open ground") + [BASE, ""] +
          fig(0, -72, -200, name="archer", rot=180) + [""] + fig(0, -72, 200, name="knight"))
    # a wall that hides legs and torso, leaving the head (-2)
    write("wall_head.ldr", hdr("wall_head.ldr", "LOS test: wall hides legs and torso") + [BASE, ""] +
          wall(150, "bbbpt") + [""] + fig(0, -72, -200, name="archer", rot=180) + [""] +
          fig(0, -72, 200, name="knight"))
    # a low wall that hides the legs only (-1)
    write("wall_legs.ldr", hdr("wall_legs.ldr", "LOS test: low wall hides legs") + [BASE, ""] +
          wall(150, "bbpt") + [""] + fig(0, -72, -200, name="archer", rot=180) + [""] +
          fig(0, -72, 200, name="knight"))
    # a house between: not visible
    house = []
    for k in range(6):
        y = -24 * (k + 1)
        house += [f"1 4 0 {y} 30 1 0 0 0 1 0 0 0 1 3008.dat", f"1 4 0 {y} 170 1 0 0 0 1 0 0 0 1 3008.dat",
                  f"1 4 -70 {y} 100 0 0 1 0 1 0 -1 0 0 3008.dat", f"1 4 70 {y} 100 0 0 1 0 1 0 -1 0 0 3008.dat"]
    house += ["1 15 0 -152 100 1 0 0 0 1 0 0 0 1 41539.dat"]
    write("house.ldr", hdr("house.ldr", "LOS test: minifig behind a house") + [BASE, ""] + house + [""] +
          fig(0, -72, -200, name="archer", rot=180) + [""] + fig(0, -72, 280, name="knight"))
    # three units, one on a tower (height advantage), no annotations (auto names)
    tower = [f"1 7 200 {-24 * (k + 1)} 0 1 0 0 0 1 0 0 0 1 3003.dat" for k in range(6)]
    write("skirmish.ldr", hdr("skirmish.ldr", "LOS test: skirmish with a tower") + [BASE, ""] + tower + [""] +
          fig(200, -72 - 144, 0, rot=90) + [""] + fig(-200, -72, -150, colour_torso=1) + [""] +
          fig(-200, -72, 150, colour_torso=15, hat=(0, "3844.dat")))
    # one minifig alone (a unit file for scenes and the benchmark)
    write("minifig.ldr", hdr("minifig.ldr", "A minifig") + fig(0, -72, 0))
    # minifigs built as a submodel: named after it ("scout", "scout-2"), or by a UNIT annotation
    write("patrol.mpd", ["0 FILE patrol.ldr"] + hdr("patrol.ldr", "LOS test: submodel names")[:-1] + [
        BASE, "1 16 -100 -72 0 1 0 0 0 1 0 0 0 1 scout.ldr", "1 16 100 -72 0 1 0 0 0 1 0 0 0 1 scout.ldr",
        '0 !BRIKSCAN UNIT name="sergeant" side=red', "1 16 0 -72 200 1 0 0 0 1 0 0 0 1 scout.ldr", ""] +
        fig(0, -72, -200) + ["", "0 FILE scout.ldr", "0 Scout", "0 Name: scout.ldr",
                             "0 !LDRAW_ORG Unofficial_Model"] + fig(0, 0, 0))
    # nothing but bricks (no minifigs: an error for los)
    write("no_minifigs.ldr", hdr("no_minifigs.ldr", "LOS test: no minifigs") + [BASE] + wall(0, "bbb"))


if __name__ == "__main__":
    main()
