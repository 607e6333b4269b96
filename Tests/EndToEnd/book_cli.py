#!/usr/bin/env python3
"""The journal as a book, end to end from a terminal: the built flourish binary writes a PDF of
a journal holding every kind of entry (a long Markdown body, an entry without a mood, right-to-
left text, emoji, a photo turned by its EXIF, a 24-megapixel photo, tags, measures, a place),
and poppler's and qpdf's tools read it back as a person's reader would: the titles in order and
none outside the range, the photos upright and at no more than 300 dpi, every font embedded, an
outline of years and months, page numbers, the moods' colours on the rendered pages. A locked
journal's PDF is said to be plain before it is written.

    book_cli.py PATH/TO/flourish
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import pictures

flourish = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
root = tempfile.mkdtemp(prefix="flourish-book-cli-")
journal = os.path.join(root, "journal.sqlite")
passed = 0
environment = {"HOME": root, "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "LC_PAPER": "C.UTF-8", "TZ": "Europe/Berlin",
               "XDG_DATA_HOME": os.path.join(root, "data"), "XDG_CONFIG_HOME": os.path.join(root, "config")}


def check(description, condition):
    global passed
    if not condition:
        print(f"book-cli: FAILED: {description}", file=sys.stderr)
        print(f"book-cli: {passed} passed, 1 failed")
        sys.exit(1)
    passed += 1
    print(f"book-cli: ok: {description}", file=sys.stderr)


def run(*arguments, database=None, stdin=""):
    done = subprocess.run([flourish, "--database", database or journal, *arguments], input=stdin, capture_output=True, text=True,
                          env=environment, timeout=300)
    return done.returncode, done.stdout.strip(), done.stderr.strip()


def tool(*arguments):
    return subprocess.run(arguments, capture_output=True, text=True, check=True).stdout


# MARK: - A journal with every kind of entry

photos = os.path.join(root, "pictures")
subprocess.run([os.path.join(here, "..", "Support", "make_photos.sh"), photos], check=True, capture_output=True)
long_body = "\n\n".join([
    "# The harbour",
    "We walked to the **harbour** at dusk, and the lights came on one by one. *Nobody* spoke.",
    "- bread from the bakery\n- a scarf\n- [x] call mum\n- [ ] write back",
    "> The sea does not care, and that is a comfort.",
    "```\nsteps = 12000\n```",
    "A link to [the tide tables](https://example.org/tides) for tomorrow.",
] + [f"Paragraph {number}: " + "the boats rocked on the water and the gulls argued over the nets. " * 6 for number in range(1, 13)])
entries = [
    ("2023-11-05T17:30:00Z", "Harbour lights", long_body, 0, ["walks", "sea"], {"Sleep": 7.5}, None,
     {"latitude": 54.18, "longitude": 7.88, "accuracy": 50}),
    ("2024-01-10T08:00:00Z", "Quiet morning", "Tea\u0007, and nothing else to say.", None, [], {}, None, None),
    ("2024-01-15T19:00:00Z", "Letters in Hebrew", "שלום עולם, מה שלומך היום?\n\nمرحبا بالعالم", 3, [], {}, None, None),
    ("2024-02-29T12:00:00Z", "Turned photo", "The camera was held sideways.", 2, [], {}, "rotated.jpg", None),
    ("2024-03-01T12:00:00Z", "Big picture", "Twenty-four megapixels of a field.", 4, [], {}, "big.jpg", None),
    ("2024-03-20T09:00:00Z", "Emoji day", "Sun ☀ and smiles 😀 all day.", 5, ["friends"], {}, None, None),
    ("2025-06-01T10:00:00Z", "Summer letter", "Warm, at last.", 1, [], {}, "plain.jpg", None),
]
moods = ["the best", "really good", "okay", "meh", "not so great", "the worst"]
archive_path = os.path.join(root, "journal.zip")
with zipfile.ZipFile(archive_path, "w") as archive:
    document = {"format": "flourish-journal", "version": 1, "exported_at": "2026-01-01T00:00:00.000Z",
                "tags": ["walks", "sea", "friends"],
                "measures": [{"kind": "number", "name": "Sleep", "unit": "hours", "uuid": "7d1df17b-0dff-4558-bfca-5e59d1e4c2e9"}],
                "entries": []}
    for number, (created, title, body, mood, tags, values, photo, place) in enumerate(entries):
        entry = {"uuid": f"00000000-0000-4000-8000-{number:012d}", "created_at": created.replace("Z", ".000Z"), "title": title,
                 "body": body, "mood": mood, "mood_title": moods[mood] if mood is not None else None, "tags": tags}
        if values:
            entry["measures"] = values
        if place:
            entry["location"] = place
        if photo:
            archive.write(os.path.join(photos, photo), f"photos/{photo}")
            entry["photos"] = [{"file": f"photos/{photo}", "name": photo}]
        document["entries"].append(entry)
    archive.writestr("journal.json", json.dumps(document))
status, out, err = run("--import", archive_path)
check(f"the journal is made by importing its entries ({out.splitlines()[-1:] or err})", status == 0 and "Imported 7 entries" in out)

# MARK: - The whole journal

book = os.path.join(root, "journal.pdf")
status, out, err = run("--export", "pdf", book)
check(f"--export pdf says what it wrote ({out})", status == 0 and out.startswith(f"Exported 7 entries to {book} (") and "pages)" in out)
check("the PDF is readable by its owner only", os.stat(book).st_mode & 0o777 == 0o600)
check("nothing is left beside it", not [name for name in os.listdir(root) if name.endswith(".part")])
text = tool("pdftotext", "-enc", "UTF-8", book, "-")
titles = [entry[1] for entry in entries]
places = [text.find(title) for title in titles]
check(f"every title is in the text, oldest first ({places})", all(place >= 0 for place in places) and places == sorted(places))
check("the Markdown is set, not printed as marks (bullets, ticked boxes, no ** or #)",
      "• bread from the bakery" in text and "☑ call mum" in text and "☐ write back" in text
      and "**" not in text and "# The harbour" not in text and "The harbour" in text)
check("a link keeps its address on paper", "the tide tables (https://example.org/tides)" in text)
check("the long body is there whole (its last paragraph)", "Paragraph 12:" in text)
check("a control character an import brought loses nothing around it", "Tea, and nothing else to say." in text)
check("right-to-left text is kept", ("שלום" in text or "םולש" in text) and ("مرحبا" in text or "ابحرم" in text))
check("emoji are kept", "😀" in text and "☀" in text)
check("tags, measures and the place are printed", "Tags: sea, walks" in text and "Sleep: 7.5 hours" in text and "54.18° N" in text)
lines = [line for line in text.splitlines() if line.strip()]
before_quiet = next(lines[index - 1] for index, line in enumerate(lines) if line.startswith("Quiet morning"))
check(f"an entry without a mood names none ({before_quiet!r})", "2024" in before_quiet and not any(mood in before_quiet for mood in moods))
before_harbour = next(lines[index - 1] for index, line in enumerate(lines) if line.startswith("Harbour lights"))
check(f"an entry's mood is in words beside its date ({before_harbour!r})", "2023" in before_harbour and "the best" in before_harbour)
cover = tool("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", book, "-")
check("the cover says the range, the number of entries and its years",
      "The whole journal" in cover and "7 entries" in cover and all(year in cover for year in ("2023", "2024", "2025")))
pages = int(re.search(r"Pages:\s+(\d+)", tool("pdfinfo", book)).group(1))
third = [line.strip() for line in tool("pdftotext", "-enc", "UTF-8", "-f", "3", "-l", "3", book, "-").splitlines() if line.strip()]
check(f"pages are numbered ({pages} pages; page 3 ends with {third[-1:]})", pages >= 4 and third[-1] == "3")
size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", tool("pdfinfo", book))
check(f"the paper is the locale's: A4 ({size.groups()})", abs(float(size.group(1)) - 595.28) < 1 and abs(float(size.group(2)) - 841.89) < 1)
# In the United States the locale's paper is Letter: en_US compiled here (Debian's locales package
# has its source), so the test needs no locale set up on the machine.
locales = os.path.join(root, "locales")
os.makedirs(locales)
made = subprocess.run(["localedef", "-i", "en_US", "-f", "UTF-8", os.path.join(locales, "en_US.UTF-8")], capture_output=True, text=True)
check(f"en_US is made from its source ({made.stderr.strip()[:200]})", os.path.isdir(os.path.join(locales, "en_US.UTF-8")))
letter = os.path.join(root, "letter.pdf")
done = subprocess.run([flourish, "--database", journal, "--export", "pdf", letter], capture_output=True, text=True, timeout=300,
                      env=dict(environment, LOCPATH=locales, LC_PAPER="en_US.UTF-8"))
size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", tool("pdfinfo", letter))
check(f"and Letter where the locale says so ({size.groups()})", done.returncode == 0 and size.groups() == ("612", "792"))

# The photos: one image each, upright, at no more than 300 dpi of their printed size.
images = [line.split() for line in tool("pdfimages", "-list", book).splitlines()[2:] if line.strip()]
shown = [row for row in images if row[2] == "image"]
check(f"pdfimages finds the three photos ({len(shown)} images)", len(shown) == 3)
turned = next(row for row in shown if (int(row[3]), int(row[4])) in ((400, 600), (600, 400)))
check(f"the photo turned by its EXIF is upright ({turned[3]}×{turned[4]})", (int(turned[3]), int(turned[4])) == (400, 600))
big = max(shown, key=lambda row: int(row[3]))
check(f"the 24-megapixel photo is drawn from a copy at most 300 dpi ({big[3]}×{big[4]}, {big[12]}×{big[13]} ppi)",
      int(big[3]) < 6000 and int(big[12]) <= 301 and int(big[13]) <= 301)
check(f"and kept as JPEG ({big[8]})", big[8] == "jpeg")
check(f"the PDF stays small for it ({os.path.getsize(book) // 1024} KB)", os.path.getsize(book) < 3_000_000)

fonts = [line.split() for line in tool("pdffonts", book).splitlines()[2:] if line.strip()]
check(f"every font is embedded ({len(fonts)} fonts)", fonts and all(row[-5] == "yes" for row in fonts))

outline = json.loads(tool("qpdf", "--json", book)).get("outlines", [])
years = [item["title"] for item in outline]
months = {item["title"]: [kid["title"] for kid in item.get("kids", [])] for item in outline}
check(f"the outline lists the years ({years})", years == ["2023", "2024", "2025"])
check(f"and each year's months ({months.get('2024')})",
      months.get("2023") == ["November 2023"] and months.get("2024") == ["January 2024", "February 2024", "March 2024"]
      and months.get("2025") == ["June 2025"])


def rendered(page, dpi=40):
    """The page rendered by poppler: (width, height, pixels as RGB bytes)."""
    stem = os.path.join(root, f"page-{page}")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", book, stem], check=True)
    with open(stem + ".ppm", "rb") as file:
        data = file.read()
    # P6, width, height, 255, then the pixels (poppler writes one space or newline between).
    fields = data.split(maxsplit=4)
    return int(fields[1]), int(fields[2]), fields[4]


def colours(page):
    """The distinct colours on a page, as (r, g, b)."""
    _, _, pixels = rendered(page)
    return {tuple(pixels[index:index + 3]) for index in range(0, len(pixels) - 2, 3)}


def margin_colours(page):
    """The colours down the page 45 points from its left edge: in the margin, where an entry's
    mood bar is drawn beside it (the text starts at 56)."""
    width, height, pixels = rendered(page)
    x = round(45 / 72 * 40)
    return {tuple(pixels[(y * width + x) * 3:(y * width + x) * 3 + 3]) for y in range(height)}


def shows(found, hex_colour):
    wanted = tuple(int(hex_colour[index:index + 2], 16) for index in (1, 3, 5))
    return any(all(abs(a - b) <= 6 for a, b in zip(colour, wanted)) for colour in found)


on_cover = colours(1)
check("the cover's years in pixels are in the moods' colours", all(shows(on_cover, hex_colour) for hex_colour in ("#8647b7", "#a8a23f", "#b05050")))
check("an entry's mood bar is drawn beside it in its colour (the best, purple)", shows(margin_colours(2), "#8647b7"))
later = set().union(*(margin_colours(page) for page in range(3, pages + 1)))
check("and each mood's beside its entries", all(shows(later, hex_colour) for hex_colour in ("#4870b7", "#45a85a", "#a8a23f", "#c6802e", "#b05050")))

# MARK: - A range of days

year = os.path.join(root, "2024.pdf")
status, out, err = run("--export", "pdf", year, "--from", "2024-01-01", "--to", "2024-12-31")
check(f"--from and --to choose the days ({out})", status == 0 and out.startswith("Exported 5 entries"))
text = tool("pdftotext", "-enc", "UTF-8", year, "-")
check("the entries of the range are all there", all(title in text for title in titles[1:6]))
check("and none outside it", "Harbour lights" not in text and "Summer letter" not in text)
check("the cover says the range", "1 January 2024 – 31 December 2024" in tool("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", year, "-")
      or "January 1, 2024 – December 31, 2024" in tool("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", year, "-"))
status, out, err = run("--export", "pdf", os.path.join(root, "none.pdf"), "--from", "2024-13-01")
check(f"a day that is none is refused ({err.splitlines()[:1]})", status == 2 and "--from needs a day as YYYY-MM-DD" in err
      and not os.path.exists(os.path.join(root, "none.pdf")))
status, out, err = run("--from", "2024-01-01")
check(f"--from without --export pdf is refused ({err.splitlines()[:1]})", status == 2)
status, out, err = run("--export", "pdf", os.path.join(root, "no such folder", "book.pdf"))
check(f"a PDF that cannot be written says why ({err})", status == 1 and "could not be written" in err)

# MARK: - A locked journal's PDF is plain, and says so first

locked = os.path.join(root, "locked", "journal.sqlite")
os.makedirs(os.path.dirname(locked))
shutil.copy(journal, locked)
shutil.copytree(os.path.join(root, "journal-photos"), os.path.join(root, "locked", "journal-photos")) \
    if os.path.isdir(os.path.join(root, "journal-photos")) else None
passphrase = "a book passphrase nobody guesses"
status, out, err = run("--encrypt", database=locked, stdin=passphrase + "\n")
check("a copy of the journal is locked", status == 0)
plain = os.path.join(root, "locked.pdf")
status, out, err = run("--export", "pdf", plain, database=locked, stdin=passphrase + "\n")
check(f"--export pdf of a locked journal says on stderr that the PDF is plain ({err})",
      status == 0 and "This journal is locked, but a PDF is not" in err)
check("and the PDF holds the entries, readable", "Harbour lights" in tool("pdftotext", "-enc", "UTF-8", plain, "-"))
check("and the passphrase is in no output", passphrase not in out + err)

shutil.rmtree(root)
print(f"book-cli: {passed} passed, 0 failed")
