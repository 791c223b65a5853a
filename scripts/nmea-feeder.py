#!/usr/bin/env python3
"""A 10 Hz NMEA receiver on a TCP port, for the fan-out benchmark (scripts/bench-locationd.sh).

Every connected consumer (locationd's or gpsd's NMEA source) gets one epoch per write: GGA then RMC
with the same fix time (UTC `hhmmss.ss` and the date), a car circling at 14 m/s, valid checksums.
The fix time of an epoch is the tick at which it is written, so it identifies the epoch on the other
side of either daemon (locationd's Fix.timestamp, gpsd's TPV "time").

For each write the log (TSV) gets: fix time in ms since the Unix epoch, consumer number, and the
wall-clock send time (time.time_ns() taken just before the write). Latency = a client's receive
time - this send time, joined by fix time. Runs until SIGTERM/SIGINT.

Usage: nmea-feeder.py --log FILE [--port P (0: any free port)] [--port-file FILE] [--rate HZ]
"""
import argparse
import math
import os
import selectors
import signal
import socket
import sys
import time

EARTH_RADIUS = 6_371_000.0
CENTRE = (48.8566, 2.3522)  # Paris
CIRCLE_RADIUS = 500.0        # metres
SPEED = 14.0                 # m/s


def checksum(body: str) -> str:
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def sentence(body: str) -> str:
    return f"${body}*{checksum(body)}\r\n"


def nmea_angle(value: float, degree_digits: int, positive: str, negative: str) -> tuple[str, str]:
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return f"{degrees:0{degree_digits}d}{minutes:08.5f}", hemisphere


def position(t: float) -> tuple[float, float, float]:
    """Latitude, longitude and course (degrees) on the circle at t seconds."""
    angle = SPEED * t / CIRCLE_RADIUS
    north = CIRCLE_RADIUS * math.sin(angle)
    east = CIRCLE_RADIUS * math.cos(angle)
    lat = CENTRE[0] + math.degrees(north / EARTH_RADIUS)
    lon = CENTRE[1] + math.degrees(east / (EARTH_RADIUS * math.cos(math.radians(CENTRE[0]))))
    # Counter-clockwise: the velocity is perpendicular to the radius.
    course = math.degrees(math.atan2(-math.sin(angle), math.cos(angle))) % 360
    return lat, lon, course


def epoch(fix_ms: int) -> bytes:
    """GGA + RMC for the fix at `fix_ms` (a multiple of 10 ms: NMEA carries hundredths)."""
    seconds, ms = divmod(fix_ms, 1000)
    tm = time.gmtime(seconds)
    hhmmss = f"{tm.tm_hour:02d}{tm.tm_min:02d}{tm.tm_sec:02d}.{ms // 10:02d}"
    ddmmyy = f"{tm.tm_mday:02d}{tm.tm_mon:02d}{tm.tm_year % 100:02d}"
    lat, lon, course = position(fix_ms / 1000)
    lat_text, ns = nmea_angle(lat, 2, "N", "S")
    lon_text, ew = nmea_angle(lon, 3, "E", "W")
    knots = SPEED / 0.514444
    gga = sentence(f"GPGGA,{hhmmss},{lat_text},{ns},{lon_text},{ew},1,10,0.9,35.0,M,47.0,M,,")
    rmc = sentence(f"GPRMC,{hhmmss},A,{lat_text},{ns},{lon_text},{ew},{knots:.2f},{course:.1f},{ddmmyy},,,A")
    return (gga + rmc).encode("ascii")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the bound port here once listening")
    parser.add_argument("--rate", type=float, default=10.0, help="epochs per second (default 10)")
    parser.add_argument("--log", required=True, help="TSV: fix_ms, consumer, send_ns per write")
    args = parser.parse_args()
    period_ms = round(1000 / args.rate)
    if period_ms < 10 or period_ms % 10:
        parser.error("the period must be a multiple of 10 ms (NMEA time has hundredths)")

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(16)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{port}\n")
        os.replace(args.port_file + ".tmp", args.port_file)

    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    consumers: dict[socket.socket, int] = {}
    next_consumer = 0
    log = open(args.log, "w", buffering=1 << 16)
    log.write("fix_ms\tconsumer\tsend_ns\n")

    def drop(conn: socket.socket, why: str) -> None:
        print(f"nmea-feeder: consumer {consumers[conn]} gone ({why})", file=sys.stderr)
        selector.unregister(conn)
        del consumers[conn]
        conn.close()

    next_tick = (time.time_ns() // 1_000_000 // period_ms + 1) * period_ms
    while not stopping:
        # Accept consumers and discard what they send (gpsd may probe the "receiver") until the tick.
        while not stopping:
            wait = next_tick / 1000 - time.time()
            if wait <= 0:
                break
            for key, _ in selector.select(timeout=wait):
                if key.fileobj is listener:
                    try:
                        conn, _ = listener.accept()
                    except BlockingIOError:
                        continue
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    conn.setblocking(True)
                    conn.settimeout(1.0)
                    consumers[conn] = next_consumer
                    print(f"nmea-feeder: consumer {next_consumer} connected", file=sys.stderr)
                    next_consumer += 1
                    selector.register(conn, selectors.EVENT_READ, None)
                else:
                    conn = key.fileobj
                    try:
                        data = conn.recv(4096)
                    except OSError as error:
                        drop(conn, str(error))
                        continue
                    if not data:
                        drop(conn, "closed")
        if stopping:
            break
        payload = epoch(next_tick)
        for conn, number in list(consumers.items()):
            sent_ns = time.time_ns()
            try:
                conn.sendall(payload)
            except OSError as error:
                drop(conn, str(error))
                continue
            log.write(f"{next_tick}\t{number}\t{sent_ns}\n")
        next_tick += period_ms
        # A stall longer than a period (machine busy) skips ticks rather than bursting to catch up.
        now_ms = time.time_ns() // 1_000_000
        if next_tick <= now_ms:
            next_tick = (now_ms // period_ms + 1) * period_ms
    log.close()
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
