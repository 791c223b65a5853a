#!/usr/bin/env python3
"""A misbehaving receiver on a loopback TCP port, for scripts/flood-sources.sh.

Every accepted connection is flooded, as fast as the kernel takes it, for --seconds (then the
peer exits):
  --flood endless  one line that never ends: a start (`$GPGGA,` or `{"class":"TPV",`) followed by
                   printable bytes and never a newline.
  --flood valid    well-formed reports with a time that advances 0.1 s per epoch: NMEA (GGA + RMC
                   with date, valid checksums) or gpsd JSON (TPV lines), so every epoch is a new fix.
--protocol nmea|gpsd picks the start and the reports. Whatever the client sends (gpsd's ?WATCH) is
read and ignored. Listens on 127.0.0.1 only; the chosen port is written to --port-file.

Usage: flood-peer.py --protocol nmea|gpsd --flood endless|valid --seconds S [--port P] [--port-file F]
"""
import argparse
import datetime
import os
import selectors
import signal
import socket
import sys
import time

START = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def checksum(body: bytes) -> int:
    value = 0
    for byte in body:
        value ^= byte
    return value


def sentence(body: str) -> str:
    return f"${body}*{checksum(body.encode('ascii')):02X}\r\n"


_dates: dict = {}


def day(n: int) -> datetime.datetime:
    """The date of epoch n (10 epochs a second from START), computed once per day."""
    index = n // 864000
    if index not in _dates:
        _dates[index] = START + datetime.timedelta(days=index)
    return _dates[index]


def time_of_day(n: int) -> tuple[int, int, int]:
    tenths = n % 864000
    return tenths // 36000, tenths // 600 % 60, tenths % 600


def nmea_epoch(n: int) -> str:
    h, m, tenths = time_of_day(n)
    hms = f"{h:02d}{m:02d}{tenths // 10:02d}.{tenths % 10}0"
    date = day(n).strftime("%d%m%y")
    # A slow walk north so that consecutive fixes differ.
    lat = f"48{30.0 + (n % 600000) * 1e-5:08.5f}"
    return (sentence(f"GPGGA,{hms},{lat},N,00221.1320,E,1,10,0.9,35.0,M,47.0,M,,")
            + sentence(f"GPRMC,{hms},A,{lat},N,00221.1320,E,1.0,45.0,{date},,,A"))


def gpsd_epoch(n: int) -> str:
    h, m, tenths = time_of_day(n)
    stamp = day(n).strftime("%Y-%m-%d") + f"T{h:02d}:{m:02d}:{tenths // 10:02d}.{tenths % 10}00Z"
    lat = 48.5 + (n % 600000) * 1e-7
    return ('{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"%s","lat":%.7f,"lon":2.352,'
            '"alt":35.0,"epx":3.0,"epy":3.0,"epv":5.0,"speed":1.0,"track":45.0,"eps":0.5}\n' % (stamp, lat))


ENDLESS = b"A" * 65536
BATCH = 2000  # epochs made per refill


class Connection:
    """One client: a queue of bytes to send, refilled whenever it runs low."""

    def __init__(self, sock: socket.socket, protocol: str, flood: str):
        self.sock = sock
        self.protocol = protocol
        self.flood = flood
        self.epoch = 0
        self.pending = memoryview(b"")
        if flood == "endless":
            self.pending = memoryview(b"$GPGGA," if protocol == "nmea" else b'{"class":"TPV","device":"')
        self.sent = 0

    def refill(self) -> None:
        if self.flood == "endless":
            self.pending = memoryview(ENDLESS)
            return
        make = nmea_epoch if self.protocol == "nmea" else gpsd_epoch
        batch = "".join(make(n) for n in range(self.epoch, self.epoch + BATCH))
        self.epoch += BATCH
        self.pending = memoryview(batch.encode("ascii"))

    def send_some(self) -> bool:
        """False when the client went away."""
        while True:
            if not self.pending:
                self.refill()
            try:
                written = self.sock.send(self.pending)
            except BlockingIOError:
                return True
            except OSError:
                return False
            self.sent += written
            self.pending = self.pending[written:]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--protocol", choices=["nmea", "gpsd"], required=True)
    parser.add_argument("--flood", choices=["endless", "valid"], required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", args.port))
    server.listen(8)
    server.setblocking(False)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{server.getsockname()[1]}\n")
        os.replace(args.port_file + ".tmp", args.port_file)

    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ, None)
    deadline = time.monotonic() + args.seconds
    total = 0
    while time.monotonic() < deadline:
        for key, events in selector.select(timeout=min(0.5, max(0.0, deadline - time.monotonic()))):
            if key.data is None:
                sock, _ = server.accept()
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE,
                                  Connection(sock, args.protocol, args.flood))
                continue
            connection = key.data
            alive = True
            if events & selectors.EVENT_READ:
                try:
                    alive = bool(connection.sock.recv(65536))
                except BlockingIOError:
                    pass
                except OSError:
                    alive = False
            if alive and events & selectors.EVENT_WRITE:
                before = connection.sent
                alive = connection.send_some()
                total += connection.sent - before
            if not alive:
                selector.unregister(connection.sock)
                connection.sock.close()
    print(f"flood-peer: sent {total} bytes in {args.seconds:g} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
