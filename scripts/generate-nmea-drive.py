#!/usr/bin/env python3
"""A realistic NMEA 0183 log of a short drive, for the receiver tests.

Writes Tests/LocationSourcesTests/Fixtures/drive.nmea: a receiver (GPS talker) that starts without a
fix for a few epochs, then drives through central Turin at 1 Hz with a stop at a light: per epoch
RMC, GGA and GSA, GSV every five epochs, correct checksums, CRLF line endings as receivers send them.
The motion is simple kinematics (legs with a heading and a speed profile); a fixed seed makes the
small HDOP and satellite-count variations reproducible. Rerun after changing the legs below.
"""

import math
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                   "Tests", "LocationSourcesTests", "Fixtures", "drive.nmea")
rng = random.Random(20250614)

START = (45.070312, 7.686856)          # Turin, Via Po near Piazza Castello
DATE = "140625"                         # 14 June 2025
START_SECONDS = 10 * 3600               # 10:00:00 UTC
NO_FIX_EPOCHS = 5
GEOID = 47.6                            # metres, EGM96 around Turin
# (seconds, heading in degrees, target speed m/s): accelerate/brake towards the target each second.
LEGS = [(25, 118.0, 11.0), (8, 118.0, 0.0), (6, 118.0, 0.0), (20, 118.0, 12.5), (6, 163.0, 6.0),
        (25, 208.0, 13.0), (10, 208.0, 8.0)]


def checksum(body):
    value = 0
    for ch in body:
        value ^= ord(ch)
    return "%02X" % value


def sentence(body):
    return "$%s*%s\r\n" % (body, checksum(body))


def hhmmss(seconds):
    seconds %= 86400
    return "%02d%02d%05.2f" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)


def angle(value, degrees_digits, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return ("%0*d%08.5f" % (degrees_digits, degrees, minutes)), hemisphere


def main():
    lines = []
    t = START_SECONDS
    satellites = [3, 6, 9, 12, 17, 19, 22, 25, 28, 31, 2, 14]
    for epoch in range(NO_FIX_EPOCHS):
        stamp = hhmmss(t)
        lines.append(sentence("GPRMC,%s,V,,,,,,,%s,,,N" % (stamp, DATE)))
        lines.append(sentence("GPGGA,%s,,,,,0,00,99.99,,,,,," % stamp))
        lines.append(sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
        t += 1

    lat, lon = START
    speed = 0.0
    heading = LEGS[0][1]
    altitude = 239.0
    epoch = 0
    for seconds, target_heading, target_speed in LEGS:
        for _ in range(seconds):
            # Turn smoothly towards the leg's heading, change speed by at most 2.5 m/s².
            turn = (target_heading - heading + 540) % 360 - 180
            heading = (heading + max(-30.0, min(30.0, turn))) % 360
            speed += max(-2.5, min(2.5, target_speed - speed))
            north = speed * math.cos(math.radians(heading))
            east = speed * math.sin(math.radians(heading))
            lat += north / 111132.0
            lon += east / (111320.0 * math.cos(math.radians(lat)))
            altitude += rng.uniform(-0.3, 0.3)
            used = 8 + rng.randint(0, 3)
            hdop = round(0.8 + rng.random() * 0.5, 2)
            vdop = round(hdop * 1.4, 2)
            pdop = round(math.hypot(hdop, vdop), 2)
            stamp = hhmmss(t)
            la, ns = angle(lat, 2, "N", "S")
            lo, ew = angle(lon, 3, "E", "W")
            knots = speed / 0.514444
            course = "%.1f" % heading if speed > 0.1 else ""
            lines.append(sentence("GPRMC,%s,A,%s,%s,%s,%s,%.3f,%s,%s,,,A" % (stamp, la, ns, lo, ew, knots, course, DATE)))
            lines.append(sentence("GPGGA,%s,%s,%s,%s,%s,1,%02d,%.2f,%.1f,M,%.1f,M,," %
                                  (stamp, la, ns, lo, ew, used, hdop, altitude, GEOID)))
            ids = ",".join("%02d" % s for s in satellites[:used]) + "," * (12 - used)
            lines.append(sentence("GPGSA,A,3,%s,%.2f,%.2f,%.2f" % (ids, pdop, hdop, vdop)))
            if epoch % 5 == 0:
                view = satellites[:12]
                for part in range(3):
                    group = view[part * 4:(part + 1) * 4]
                    fields = ",".join("%02d,%02d,%03d,%02d" % (s, 15 + (s * 7) % 70, (s * 29) % 360, 20 + (s * 3) % 25)
                                      for s in group)
                    lines.append(sentence("GPGSV,3,%d,12,%s" % (part + 1, fields)))
            t += 1
            epoch += 1

    with open(OUT, "w", newline="") as out:
        out.writelines(lines)
    print("wrote %s: %d epochs (%d without fix), %d sentences" % (OUT, NO_FIX_EPOCHS + epoch, NO_FIX_EPOCHS, len(lines)))


if __name__ == "__main__":
    main()
