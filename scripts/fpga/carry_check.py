#!/usr/bin/env python3
"""Reject an iCE40 netlist that nextpnr-ice40 0.4 (Debian) cannot route.

usage: carry_check.py SYNTH_JSON

An adder whose two operands are the same net at some bit (x + x, or two operands that constant
propagation makes equal) becomes an SB_CARRY with I0 == I1, and its packed SB_LUT4 then has that
net on in_1 and in_2. nextpnr-ice40 0.4's router1 rips those two arcs up in turn forever (the
remaining-arc count never falls; --pnr-timeout is the only way out) and router2 stops on an
assertion. Found on the region address generator's doublings (`h + h`, `step + step`): no RAG
config routed on the HX8K until they became shifts.

Exit 0 with nothing printed when no such carry exists; exit 1 listing the first cells and the
nets (the net name says which RTL signal: write the doubling as a shift); exit 2 on bad usage.
"""
import json
import sys


def duplicated_carries(netlist):
    """(cell, net) for every SB_CARRY whose I0 and I1 are one (non-constant) net."""
    found = []
    for module in netlist.get("modules", {}).values():
        names = {}
        for name, net in module.get("netnames", {}).items():
            for bit in net["bits"]:
                # prefer a public name (no '$') for the message
                if bit not in names or (names[bit].startswith("$") and not name.startswith("$")):
                    names[bit] = name
        for cell, c in module.get("cells", {}).items():
            if c.get("type") != "SB_CARRY":
                continue
            i0, i1 = c["connections"].get("I0"), c["connections"].get("I1")
            if i0 and i0 == i1 and not isinstance(i0[0], str):
                found.append((cell, names.get(i0[0], str(i0[0]))))
    return found


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 0 if len(argv) == 2 else 2
    try:
        with open(argv[1]) as f:
            netlist = json.load(f)
    except (OSError, ValueError) as e:
        print(f"carry_check.py: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    found = duplicated_carries(netlist)
    if not found:
        return 0
    print(f"carry_check.py: {len(found)} SB_CARRY cell(s) with I0 == I1 (an adder whose two operands "
          "are one net, e.g. x + x): nextpnr-ice40 0.4 never finishes routing them. Write the "
          "doubling as a shift. First ones:", file=sys.stderr)
    for cell, net in found[:10]:
        print(f"  {cell}  (net {net})", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
