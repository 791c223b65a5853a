#!/usr/bin/env python3
"""A large, realistic NMEA 0183 log for scripts/bench-nmea.sh.

A GPS receiver in a car, 1 Hz, each epoch: GGA, GSA, 3 × GSV, RMC, VTG (the classic
u-blox/SiRF set), with correct checksums and CRLF line ends. The car drives with a
smooth random speed and heading (accelerating, braking, stopping, turning); twelve
satellites move slowly across the sky, eight to eleven are used; DOPs, SNRs and
altitude vary; the clock runs through midnights, so dates roll over.

Deterministic: the same seed and size always give the same bytes.

Usage: scripts/generate-nmea-log.py [--size-mb N] [--seed S] OUTPUT
       (default 100 MB, seed 1; about 1.4 million sentences per 100 MB)
"""

import argparse
import datetime
import math
import random
import sys

KNOT = 1852.0 / 3600.0
EARTH_RADIUS = 6371008.8


def checksum(body: bytes) -> int:
    """XOR of the bytes, folded from one big integer (much faster than a Python loop)."""
    x = int.from_bytes(body, "little")
    width = len(body) * 8
    while width > 8:
        half = ((width // 8 + 1) // 2) * 8
        x = (x & ((1 << half) - 1)) ^ (x >> half)
        width = half
    return x


def sentence(body: str) -> bytes:
    raw = body.encode("ascii")
    return b"$" + raw + b"*%02X\r\n" % checksum(raw)


def ddmm(value: float, latitude: bool) -> tuple[str, str]:
    hemisphere = ("N" if value >= 0 else "S") if latitude else ("E" if value >= 0 else "W")
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    if minutes >= 59.999995:
        degrees, minutes = degrees + 1, 0.0
    return ("%02d%08.5f" if latitude else "%03d%08.5f") % (degrees, minutes), hemisphere


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--size-mb", type=float, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    target = int(args.size_mb * 1_000_000)
    rng = random.Random(args.seed)

    lat, lon, alt = 48.137154, 11.576124, 519.0
    speed, heading, turn_rate, target_speed = 0.0, 75.0, 0.0, 14.0
    when = datetime.datetime(2024, 3, 14, 21, 30, 0)
    # Twelve GPS satellites: PRN, elevation, azimuth and their slow drifts.
    sats = []
    for prn in rng.sample(range(1, 33), 12):
        sats.append([prn, rng.uniform(5, 85), rng.uniform(0, 360), rng.uniform(-0.004, 0.004), rng.uniform(-0.008, 0.008)])
    written = 0
    epochs = 0
    out = open(args.output, "wb")
    chunk = []
    while written < target:
        # Motion: a new target speed now and then (stops included), smooth acceleration, gentle turns.
        if rng.random() < 0.01:
            target_speed = rng.choice([0.0, 8.0, 13.9, 13.9, 22.0, 30.0])
        speed += max(-3.0, min(2.0, (target_speed - speed) * 0.2)) + rng.gauss(0, 0.05)
        speed = max(0.0, speed)
        turn_rate = 0.9 * turn_rate + rng.gauss(0, 0.8)
        if speed > 0.5:
            heading = (heading + turn_rate) % 360
        dist = speed
        lat += dist * math.cos(math.radians(heading)) / EARTH_RADIUS * 180 / math.pi
        lon += dist * math.sin(math.radians(heading)) / (EARTH_RADIUS * math.cos(math.radians(lat))) * 180 / math.pi
        lon = (lon + 180) % 360 - 180
        alt += rng.gauss(0, 0.15)
        for s in sats:
            s[1] += s[3]
            s[2] = (s[2] + s[4]) % 360
            if s[1] < 2 or s[1] > 88:
                s[3] = -s[3]
        visible = sorted(sats, key=lambda s: -s[1])
        used = [s[0] for s in visible[: rng.randint(8, 11)]]
        hdop = round(0.7 + rng.random() * 0.5, 2)
        vdop = round(hdop * 1.4 + rng.random() * 0.2, 2)
        pdop = round(math.hypot(hdop, vdop), 2)
        t = when.strftime("%H%M%S") + ".00"
        la, lh = ddmm(lat, True)
        lo, oh = ddmm(lon, False)
        knots = speed / KNOT
        course = "%.2f" % heading if speed > 0.5 else ""
        lines = [
            sentence("GPGGA,%s,%s,%s,%s,%s,1,%02d,%.2f,%.1f,M,47.4,M,," % (t, la, lh, lo, oh, len(used), hdop, alt)),
            sentence("GPGSA,A,3,%s,%.2f,%.2f,%.2f" % (",".join(["%02d" % p for p in used] + [""] * (12 - len(used))), pdop, hdop, vdop)),
        ]
        for part in range(3):
            group = visible[part * 4 : part * 4 + 4]
            fields = ",".join("%02d,%02d,%03d,%s" % (s[0], s[1], s[2], "%02d" % rng.randint(20, 48) if s[0] in used else "")
                              for s in group)
            lines.append(sentence("GPGSV,3,%d,12,%s" % (part + 1, fields)))
        lines.append(sentence("GPRMC,%s,A,%s,%s,%s,%s,%.3f,%s,%s,,,A" % (t, la, lh, lo, oh, knots, course, when.strftime("%d%m%y"))))
        lines.append(sentence("GPVTG,%s,T,,M,%.3f,N,%.3f,K,A" % (course, knots, speed * 3.6)))
        block = b"".join(lines)
        chunk.append(block)
        written += len(block)
        epochs += 1
        when += datetime.timedelta(seconds=1)
        if len(chunk) >= 4096:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk))
    out.close()
    print("generate-nmea-log: %d bytes, %d epochs, %d sentences" % (written, epochs, epochs * 7), file=sys.stderr)


if __name__ == "__main__":
    main()
