#!/usr/bin/env python3
"""Two real Syncthing instances (Debian's `syncthing`) keeping one folder in step, for the sync
tests: two "computers" on 127.0.0.1, each with its own copy of the folder, connected to each other
only (no global or local discovery, no relays, no NAT traversal, no usage reports, no upgrades).
Everything is in FOLDER: FOLDER/a and FOLDER/b are the two instances' homes (keys, configuration,
database, log), FOLDER/a/Sync and FOLDER/b/Sync their copies of the shared folder, each with the
`.stfolder` mark Syncthing keeps there. Changes are noticed by Syncthing's file watcher (a second
after they are made) and by a rescan every 5 s.

Prints "ready FOLDER/a/Sync FOLDER/b/Sync" once the two are connected, then serves until its
standard input closes or it is terminated, and stops both. Meanwhile each line on standard input
is a command, answered on one line:
- "pause": the two stop exchanging anything, as two computers apart do; "resume": they connect
  again. Each is answered "done" once carried out.
- "in-step SECONDS": waits, SECONDS at most, until both copies hold the same files byte for byte
  (Syncthing's own left out); answered "done", or "differ" and each name one of them lacks or
  holds other bytes under.
- "names": the files in the folder (and its photos folder), Syncthing's own left out, one tab
  before each.

    syncthing_pair.py FOLDER
"""
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request

from local_server import free_port

folder = os.path.abspath(sys.argv[1])
names = ["a", "b"]
homes = {name: os.path.join(folder, name) for name in names}
synced = {name: os.path.join(homes[name], "Sync") for name in names}
gui_ports = {name: free_port() for name in names}
listen_ports = {name: free_port() for name in names}
api_key = secrets.token_hex(16)
environment = {**os.environ, "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1", "STMONITORED": "1"}

devices = {}
for name in names:
    os.makedirs(synced[name], exist_ok=True)
    subprocess.run(["/usr/bin/syncthing", "generate", f"--home={homes[name]}", "--no-default-folder", "--skip-port-probing"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    devices[name] = subprocess.run(["/usr/bin/syncthing", "serve", f"--home={homes[name]}", "--device-id"], check=True,
                                   capture_output=True, text=True, env=environment).stdout.strip()


def configuration(name):
    device_entries = "\n".join(
        f"""    <device id="{devices[other]}" name="{other}" compression="never" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>tcp://127.0.0.1:{listen_ports[other]}</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>""" for other in names)
    shared_with = "\n".join(f'        <device id="{devices[other]}" introducedBy=""></device>' for other in names)
    return f"""<configuration version="36">
    <folder id="flourish" label="Flourish" path="{synced[name]}" type="sendreceive" rescanIntervalS="5" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
{shared_with}
        <minDiskFree unit="%">0</minDiskFree>
        <versioning></versioning>
        <copiers>0</copiers>
        <pullerMaxPendingKiB>0</pullerMaxPendingKiB>
        <hashers>0</hashers>
        <order>random</order>
        <ignoreDelete>false</ignoreDelete>
        <scanProgressIntervalS>0</scanProgressIntervalS>
        <pullerPauseS>0</pullerPauseS>
        <maxConflicts>10</maxConflicts>
        <disableSparseFiles>false</disableSparseFiles>
        <disableTempIndexes>false</disableTempIndexes>
        <paused>false</paused>
        <weakHashThresholdPct>25</weakHashThresholdPct>
        <markerName>.stfolder</markerName>
        <copyOwnershipFromParent>false</copyOwnershipFromParent>
        <modTimeWindowS>0</modTimeWindowS>
    </folder>
{device_entries}
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:{gui_ports[name]}</address>
        <apikey>{api_key}</apikey>
        <theme>default</theme>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:{listen_ports[name]}</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <crashReportingEnabled>false</crashReportingEnabled>
        <announceLANAddresses>false</announceLANAddresses>
        <setLowPriority>false</setLowPriority>
    </options>
</configuration>
"""


for name in names:
    with open(os.path.join(homes[name], "config.xml"), "w") as file:
        file.write(configuration(name))

instances = [subprocess.Popen(["/usr/bin/syncthing", "serve", f"--home={homes[name]}", "--no-browser", "--no-restart",
                               f"--logfile={os.path.join(homes[name], 'syncthing.log')}"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
             for name in names]


def stop(*_):
    for instance in instances:
        instance.terminate()
    for instance in instances:
        try:
            instance.wait(timeout=10)
        except subprocess.TimeoutExpired:
            instance.kill()
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)


def ask(name, path, method="GET"):
    request = urllib.request.Request(f"http://127.0.0.1:{gui_ports[name]}{path}", headers={"X-API-Key": api_key},
                                     method=method)
    with urllib.request.urlopen(request, timeout=5) as answer:
        body = answer.read()
        return json.loads(body) if body else None


def connected():
    try:
        return all(ask(name, "/rest/system/connections")["connections"].get(devices[other], {}).get("connected")
                   for name, other in [("a", "b"), ("b", "a")])
    except OSError:
        return False


deadline = time.time() + 60
while not connected():
    if time.time() > deadline or any(instance.poll() is not None for instance in instances):
        for name in names:
            log = os.path.join(homes[name], "syncthing.log")
            sys.stderr.write(open(log).read() if os.path.exists(log) else "")
        print("failed", flush=True)
        stop()
    time.sleep(0.2)

def files(folder):
    """Every file in `folder` but Syncthing's own (`.stfolder`, half-received `.syncthing.NAME.tmp`
    files), by path, with its bytes."""
    found = {}
    for where, folders, names_here in os.walk(folder):
        folders[:] = [each for each in folders if not each.startswith(".")]
        for name in names_here:
            if not name.startswith("."):
                path = os.path.join(where, name)
                with open(path, "rb") as file:
                    found[os.path.relpath(path, folder)] = file.read()
    return found


def in_step(seconds):
    """None once both copies hold the same files, twice in a row a moment apart (Syncthing may be
    about to carry a file just made; one being received stays hidden until it is whole); else,
    after `seconds`, what they differ by."""
    deadline, settled = time.time() + seconds, 0
    while True:
        one, other = files(synced["a"]), files(synced["b"])
        settled = settled + 1 if one == other else 0
        if settled == 2:
            return None
        if time.time() > deadline:
            differing = sorted(name for name in set(one) | set(other) if one.get(name) != other.get(name))
            return "; ".join(f"{name}: {len(one.get(name, b''))} and {len(other.get(name, b''))} bytes" for name in differing)
        time.sleep(0.3)


print(f"ready {synced['a']} {synced['b']}", flush=True)
for line in sys.stdin:
    command, *arguments = line.split()
    if command in ("pause", "resume"):
        for name in names:
            ask(name, f"/rest/system/{command}", method="POST")
        if command == "resume":
            deadline = time.time() + 60
            while not connected() and time.time() < deadline:
                time.sleep(0.2)
        print("done", flush=True)
    elif command == "in-step":
        difference = in_step(float(arguments[0]))
        print("done" if difference is None else f"differ {difference}", flush=True)
    elif command == "names":
        print("".join(f"\t{name}" for name in sorted(files(synced["a"]))), flush=True)
stop()
