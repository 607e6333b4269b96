#!/usr/bin/env python3
"""Moving in from other apps, end to end from a terminal: the built flourish binary imports a
Day One export (a ZIP of two journals and their photos) and a jrnl export, both made here from
what those formats hold. Checks what --import prints and exits with, and what the journal file
holds: every entry without a mood, titles, tags, places, photos byte for byte, and nothing
added by importing the same file again. A file that cannot be imported changes nothing and
says why in one line.

    import_cli.py PATH/TO/flourish
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zipfile

import pictures

flourish = os.path.abspath(sys.argv[1])
root = tempfile.mkdtemp(prefix="flourish-import-cli-")
journal = os.path.join(root, "journal.sqlite")
passed = 0


def check(description, condition):
    global passed
    if not condition:
        print(f"import-cli: FAILED: {description}", file=sys.stderr)
        print(f"import-cli: {passed} passed, 1 failed")
        sys.exit(1)
    passed += 1
    print(f"import-cli: ok: {description}", file=sys.stderr)


def run(*arguments):
    environment = {"HOME": root, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "TZ": "Europe/Berlin",
                   "XDG_DATA_HOME": os.path.join(root, "data"), "XDG_CONFIG_HOME": os.path.join(root, "config")}
    done = subprocess.run([flourish, "--database", journal, *arguments], capture_output=True, text=True, env=environment, timeout=120)
    return done.returncode, done.stdout.strip(), done.stderr.strip()


def rows(sql):
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


# A JPEG and a PNG that decode, each of bytes of its own: compared byte for byte.
jpeg = pictures.jpeg("heligoland")
png = pictures.png("tiles")
dayone = os.path.join(root, "Day One export.zip")
with zipfile.ZipFile(dayone, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": [
        {"uuid": "0F1E2D3C4B5A69788796A5B4C3D2E1F0", "creationDate": "2021-03-02T08:15:00Z", "timeZone": "Europe/Berlin",
         "text": "# Sea air\\. At last\n\nWalked 5 km, then tea.\n\n![](dayone-moment://P1)", "tags": ["walks"], "starred": True,
         "photos": [{"identifier": "P1", "md5": "aa11", "type": "jpeg"}],
         "location": {"latitude": 54.18, "longitude": 7.88, "placeName": "Heligoland"}, "weather": {"conditionsDescription": "Windy"}},
        {"uuid": "1F1E2D3C4B5A69788796A5B4C3D2E1F0", "creationDate": "2021-03-03T20:00:00Z",
         "text": "Tiles\n![](dayone-moment://P2) ![](dayone-moment://GONE)",
         "photos": [{"identifier": "P2", "md5": "bb22", "type": "png"}]},
    ]}))
    archive.writestr("Travel.json", json.dumps({"metadata": {"version": "1.0"}, "entries": [
        {"uuid": "2F1E2D3C4B5A69788796A5B4C3D2E1F0", "creationDate": "2022-07-01T12:00:00Z", "text": "Lisbon\nTrams."},
    ]}))
    archive.writestr("photos/aa11.jpeg", jpeg)
    archive.writestr("photos/bb22.png", png)

status, out, err = run("--import", dayone)
check("--import reads a Day One export and says so", status == 0 and "A journal from Day One: 3 entries." in out)
check("it says the days the entries span", "From 2 March 2021 to 1 July 2022." in out)
check("it says they have no mood, and are kept without one", "3 of them have no mood, and are kept without one." in out)
check("it names what it leaves behind", "1 photo is left behind" in out and "Not imported: weather of 1 entry." in out)
check("it imports them, with their photos", "Imported 3 entries" in out and "2 photos came with them." in out)
entries = {row[0]: row[1:] for row in rows("SELECT title, body, mood, latitude, longitude, created_at FROM entry")}
check("every entry without a mood", set(entries) == {"Sea air. At last", "Tiles", "Lisbon"} and all(row[1] is None for row in entries.values()))
check("the text without its photo links", entries["Sea air. At last"][0] == "Walked 5 km, then tea." and entries["Tiles"][0] == "")
check("the place kept", entries["Sea air. At last"][2:4] == (54.18, 7.88))
check("the time kept, in UTC", entries["Sea air. At last"][4] == "2021-03-02 08:15:00.000")
tags = {row[0] for row in rows("SELECT tag.name FROM entry_tag JOIN tag ON tag.id = tag_id JOIN entry ON entry.id = entry_id WHERE entry.title = 'Sea air. At last'")}
check("its tags, the journal's name and the star as tags", tags == {"walks", "Journal", "starred"})
check("two photo files kept beside the journal", len(rows("SELECT name FROM photo")) == 2)

status, out, err = run("--import", dayone)
check("the same export again adds nothing", status == 0 and "Imported 0 entries (3 already in your journal)" in out)
check("and writes no entry", rows("SELECT count(*) FROM entry") == [(3,)])

jrnl = os.path.join(root, "jrnl.json")
with open(jrnl, "w", encoding="utf-8") as file:
    json.dump({"tags": {"@work": 1}, "entries": [
        {"title": "Standup moved.", "body": "Again.", "date": "2024-03-31", "time": "09:30", "tags": ["@work"], "starred": False},
        {"title": "Evening", "body": "Quiet.", "date": "2024-04-01", "time": "21:00", "tags": [], "starred": True},
    ]}, file)
status, out, err = run("--import", jrnl)
check("--import reads a jrnl export", status == 0 and "A journal from jrnl: 2 entries." in out and "Imported 2 entries" in out)
check("its local times read in this computer's zone", rows("SELECT created_at FROM entry WHERE title = 'Standup moved.'") == [("2024-03-31 07:30:00.000",)])
check("its tags without the @", rows("SELECT count(*) FROM tag WHERE name = 'work'") == [(1,)])
status, out, err = run("--import", jrnl)
check("the same jrnl export again adds nothing", status == 0 and "Imported 0 entries (2 already in your journal)" in out)

journey = os.path.join(root, "journey-export.zip")
none = 1.7976931348623157e308
with zipfile.ZipFile(journey, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("1700000000000-aa.json", json.dumps({
        "id": "1700000000000-aa", "date_journal": 1700000000000, "type": "html", "mood": 2,
        "text": "<p>Autumn walk</p><p>Leaves &amp; rain.</p>", "lat": 48.85, "lon": 2.35, "tags": ["walks"],
        "photos": ["1700000000000-aa-leaf.jpg"], "weather": {"description": "Rain", "degree_c": 9}}))
    archive.writestr("1700100000000-bb.json", json.dumps({
        "id": "1700100000000-bb", "date_journal": 1700100000000, "text": "Nothing to say", "mood": 0, "lat": none, "lon": none}))
    archive.writestr("1700000000000-aa-leaf.jpg", jpeg)
status, out, err = run("--import", journey)
check("--import reads a Journey export", status == 0 and "A journal from Journey: 2 entries." in out and "Imported 2 entries" in out)
check("it brings its photo", "1 photo came with them." in out and "Not imported: weather of 1 entry." in out)
moods = dict(rows("SELECT title, mood FROM entry WHERE title IN ('Autumn walk', 'Nothing to say')"))
check(f"Journey's step 2 is really good, 0 no mood ({moods})", moods == {"Autumn walk": 1, "Nothing to say": None})
check("its HTML made plain text", rows("SELECT body FROM entry WHERE title = 'Autumn walk'") == [("Leaves & rain.",)])
status, out, err = run("--import", journey)
check("the same Journey export again adds nothing", status == 0 and "Imported 0 entries (2 already in your journal)" in out)

diaro = os.path.join(root, "Diaro_20240101.zip")
with zipfile.ZipFile(diaro, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("DiaroBackup.xml", '<?xml version="1.0" encoding="UTF-8"?><data version="2">'
                     '<table name="diaro_folders"><r><uid>f</uid><title>Career</title></r></table>'
                     '<table name="diaro_entries"><r><uid>d1</uid><date>1700000000000</date><title>Launch</title>'
                     '<text>It shipped &amp; held.</text><folder_uid>f</folder_uid><tags/><mood>1</mood></r></table>'
                     '<table name="diaro_attachments"><r><uid>p</uid><entry_uid>d1</entry_uid><type>photo</type>'
                     '<filename>photo_1.jpg</filename><position>1</position></r></table></data>')
    archive.writestr("media/photo/photo_1.jpg", jpeg)
status, out, err = run("--import", diaro)
check("--import reads a Diaro backup", status == 0 and "A journal from Diaro: 1 entry." in out and "1 photo came with them." in out)
check("Diaro's step 1 is the best, its folder a tag",
      rows("SELECT title, body, mood FROM entry WHERE title = 'Launch'") == [("Launch", "It shipped & held.", 0)]
      and rows("SELECT count(*) FROM tag WHERE name = 'Career'") == [(1,)])

vault = os.path.join(root, "Vault")
os.makedirs(os.path.join(vault, "Daily"))
os.makedirs(os.path.join(vault, "Attachments"))
with open(os.path.join(vault, "Daily", "2023-11-05.md"), "w", encoding="utf-8") as file:
    file.write("---\ntags: [notes]\nmood: okay\n---\n# Market day\nApples. ![[apples.jpg]]\n")
with open(os.path.join(vault, "Daily", "2023-11-06.md"), "w", encoding="utf-8") as file:
    file.write("Just a line\n")
with open(os.path.join(vault, "Ideas.md"), "w", encoding="utf-8") as file:
    file.write("Not a day\n")
with open(os.path.join(vault, "Attachments", "apples.jpg"), "wb") as file:
    file.write(jpeg)
status, out, err = run("--import", vault)
check("--import reads a folder of daily notes", status == 0 and "A journal from Markdown notes: 2 entries." in out and "Imported 2 entries" in out)
check("it counts the note not named by a date", "Not imported: 1 note not named by a date." in out)
notes = dict(rows("SELECT title, mood FROM entry WHERE created_at LIKE '2023-11-0%'"))
check(f"a mood by its name, none where none is given ({notes})", notes == {"Market day": 2, "Just a line": None})
check("noon of its day, in this computer's zone", rows("SELECT created_at FROM entry WHERE title = 'Market day'") == [("2023-11-05 11:00:00.000",)])
check("its picture, found by name in the folder", rows("SELECT file_name FROM entry_photo JOIN entry ON entry.id = entry_id WHERE title = 'Market day'") == [("apples.jpg",)])

rednotebook = os.path.join(root, ".rednotebook", "data")
os.makedirs(rednotebook)
picture = os.path.join(root, "Pictures", "lake.jpg")
os.makedirs(os.path.dirname(picture))
with open(picture, "wb") as file:
    file.write(jpeg)
with open(os.path.join(rednotebook, "2012-06.txt"), "w", encoding="utf-8") as file:
    file.write("5:\n  Holiday:\n    Lake: null\n  text: 'Swam in the **lake**\n\n    [\"\"%s\"\".jpg]'\n6: {text: Rain}\n"
               % picture[:-4])
status, out, err = run("--import", rednotebook)
check("--import reads RedNotebook's data folder", status == 0 and "A journal from RedNotebook: 2 entries." in out and "1 photo came with them." in out)
check("its markup made readable, its category a tag",
      rows("SELECT title, body FROM entry WHERE title = 'Swam in the lake'") == [("Swam in the lake", "Holiday: Lake")]
      and rows("SELECT count(*) FROM tag WHERE name = 'Holiday'") == [(1,)])

def claim_size(path, member, size):
    """Makes the ZIP file's listing say `member` unpacks to `size` bytes, as a file made to
    inflate to gigabytes says it: its central directory entry's uncompressed size."""
    with open(path, "r+b") as file:
        data = bytearray(file.read())
        at = data.find(b"PK\x01\x02")
        while at != -1:
            name_length = int.from_bytes(data[at + 28:at + 30], "little")
            if data[at + 46:at + 46 + name_length] == member.encode():
                data[at + 24:at + 28] = size.to_bytes(4, "little")
            at = data.find(b"PK\x01\x02", at + 4)
        file.seek(0)
        file.write(data)


bomb = os.path.join(root, "bomb.zip")
with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("journal.json", json.dumps({"format": "flourish-journal", "version": 1, "entries": []}))
claim_size(bomb, "journal.json", 0xFFFFFFF0)
count = rows("SELECT count(*) FROM entry")
status, out, err = run("--import", bomb)
check("a journal.json that would unpack to 4 GiB is refused unread, in one line",
      status == 1 and "larger than 512 MiB unpacked" in err and err.count("\n") == 0 and rows("SELECT count(*) FROM entry") == count)

spaces = os.path.join(root, "spaces.zip")
with zipfile.ZipFile(spaces, "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("Journal.json", json.dumps({"metadata": {}, "entries": [
        {"uuid": "5PACE5", "creationDate": "2019-09-09T09:09:09Z", "text": "Spaces\n![](dayone-moment://S)",
         "photos": [{"identifier": "S", "md5": "spaces", "type": "jpeg"}]}]}))
    archive.writestr("photos/spaces.jpeg", bytes([0xFF, 0xD8, 0xFF, 0xE0]) + b" " * 4096)
claim_size(spaces, "photos/spaces.jpeg", 0x80000000)
status, out, err = run("--import", spaces)
check("a 'photo' of 2 GiB behind a JPEG's first bytes is left behind and said, the entry kept",
      status == 0 and "1 photo is left behind" in out and "Imported 1 entries" in out
      and rows("SELECT count(*) FROM entry_photo JOIN entry ON entry.id = entry_id WHERE title = 'Spaces'") == [(0,)])

# A PNG whose header is right (320 x 240) over pixels that are not: its header alone would let it
# in, its pixels do not decode.
undecodable = os.path.join(root, "undecodable.zip")
broken = pictures.png("broken")
broken = broken[:41] + bytes(b ^ 0x5A for b in broken[41:-12]) + broken[-12:]
with zipfile.ZipFile(undecodable, "w") as archive:
    archive.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": [
        {"uuid": "B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0", "creationDate": "2020-01-05T10:00:00Z", "text": "Scrambled\n![](dayone-moment://X)",
         "photos": [{"identifier": "X", "md5": "scrambled", "type": "png"}]}]}))
    archive.writestr("photos/scrambled.png", broken)
status, out, err = run("--import", undecodable)
check("a picture whose header is right but whose pixels do not decode is left behind and said, the entry kept",
      status == 0 and "1 photo is left behind" in out and "Imported 1 entries" in out
      and rows("SELECT count(*) FROM entry_photo JOIN entry ON entry.id = entry_id WHERE title = 'Scrambled'") == [(0,)])

deep = os.path.join(root, "deep.json")
with open(deep, "w") as file:
    file.write('{"metadata": {}, "entries": ' + "[" * 100_000 + "]" * 100_000 + "}")
status, out, err = run("--import", deep)
check("JSON nested 100,000 deep is refused in one line, never a crash", status == 1 and err.count("\n") == 0 and "JSON" in err)

fifo = os.path.join(root, "pipe.json")
os.mkfifo(fifo)
status, out, err = run("--import", fifo)
check("a pipe is refused at once, never read", status == 1 and "a pipe or a device" in err)

broken = os.path.join(root, "broken.zip")
with zipfile.ZipFile(broken, "w") as archive:
    archive.writestr("Journal.json", json.dumps({"metadata": {}, "entries": [{"uuid": "X", "creationDate": "someday", "text": "x"}]}))
count = rows("SELECT count(*) FROM entry")
status, out, err = run("--import", broken)
check("a Day One file that cannot be imported exits 1 saying why in one line",
      status == 1 and err.count("\n") == 0 and "its creationDate “someday” is not an ISO 8601 time." in err)
check("and imports nothing", rows("SELECT count(*) FROM entry") == count)

shutil.rmtree(root)
print(f"import-cli: {passed} passed, 0 failed")
