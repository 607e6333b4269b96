#!/usr/bin/env python3
"""Writes each X.daylio.json here as X.daylio, in the layout of Daylio's own backup: a ZIP file
whose member backup.daylio is the JSON in Base64 (in lines of 76, as Android writes it), beside
a stand-in photo and voice note for each asset under assets/. The .daylio files are committed;
run this again after changing a .daylio.json.
"""
import base64
import glob
import json
import os
import zipfile

here = os.path.dirname(os.path.abspath(__file__))
for source in sorted(glob.glob(os.path.join(here, "*.daylio.json"))):
    with open(source, encoding="utf-8") as file:
        document = json.load(file)
    encoded = base64.encodebytes(json.dumps(document, ensure_ascii=False).encode("utf-8"))
    target = source[: -len(".json")]
    # A fixed date for every member, so the same JSON gives the same bytes.
    stamp = (2024, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(zipfile.ZipInfo("backup.daylio", stamp), encoded)
        for asset in document.get("assets", []):
            folder = "audio" if asset.get("type") == 2 else "photos"
            archive.writestr(zipfile.ZipInfo(f"assets/{folder}/{asset['checksum']}", stamp), b"not imported")
    print(os.path.relpath(target, here))
