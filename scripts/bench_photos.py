"""The benchmark's photos (used by scripts/bench-app.py): a few dozen distinct pictures, made with
Debian's ImageMagick, and a thumbnail of each as the app makes its own; `flourish-bench generate
ENTRIES PATH --photos FOLDER` hands them out to one entry in five.

    FOLDER/photo-NN.jpg             a photo of 3 to 8 megapixels, 0.4 to 1.6 MB
    FOLDER/thumbnails/photo-NN.jpg  320 px on its long side, JPEG quality 85
"""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

# Debian's convert (imagemagick, which scripts/setup --tests installs), by its own path: another
# convert found first on PATH would not be the package the benchmark is written against.
CONVERT = "/usr/bin/convert"
PHOTOS = 40
THUMBNAIL_EDGE = 320  # PhotoDecoding.defaultThumbnailEdge


def picture_arguments(number):
    """The convert arguments that draw photo `number`: a plasma cloud (a different one for each
    seed), enlarged to a camera's size and given grain, so that no two are alike and none
    compresses to nothing, as a real photo does not. Sizes, shapes (some upright) and grain vary,
    so that the files run from 0.4 to 1.6 MB."""
    width = 2000 + (number * 373) % 1200        # 2,000 to 3,200 pixels
    height = width * 3 // 4
    if number % 4 == 3:
        width, height = height, width           # taken with the camera turned
    grain = 0.1 + (number * 7 % 10) / 20        # 0.1 to 0.55
    # The cloud is drawn small (plasma is slow), then enlarged: the grain is what makes it a photo's size.
    return ["-seed", str(1000 + number), "-size", f"{width // 4}x{height // 4}", "plasma:fractal",
            "-resize", f"{width}x{height}!", "-attenuate", f"{grain:.2f}", "+noise", "Gaussian", "-quality", "88"]


def make_photos(folder, count=PHOTOS):
    """Makes the pictures in `folder` (those already there are kept: the same seed draws the same)."""
    os.makedirs(os.path.join(folder, "thumbnails"), exist_ok=True)

    def make(number):
        name = f"photo-{number:02}.jpg"
        photo, thumbnail = os.path.join(folder, name), os.path.join(folder, "thumbnails", name)
        if os.path.exists(photo) and os.path.exists(thumbnail):
            return
        # One convert writes both: the photo, then its thumbnail from the same pixels.
        subprocess.run([CONVERT, *picture_arguments(number), "+write", "jpeg:" + photo + ".partial",
                        "-thumbnail", f"{THUMBNAIL_EDGE}x{THUMBNAIL_EDGE}", "-quality", "85", thumbnail],
                       check=True)
        os.replace(photo + ".partial", photo)

    # Two at a time: the machine's two cores.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(make, range(1, count + 1)))


def forget_thumbnails(journal):
    """Removes the thumbnails kept beside `journal` (its "<stem>-photos" folder's "*.thumb"), so
    that the app must make each one again from its photo the first time it shows it."""
    stem = os.path.splitext(os.path.basename(journal))[0]
    folder = os.path.join(os.path.dirname(journal), f"{stem}-photos")
    for name in os.listdir(folder):
        if name.endswith(".thumb"):
            os.remove(os.path.join(folder, name))
