#!/usr/bin/env bash
# Makes the photo tests' pictures into FOLDER, from nothing, so that no binary image is kept in
# the repository. Needs ImageMagick (convert), cwebp (webp), heif-enc (libheif-examples) and
# exiftool (libimage-exiftool-perl): `scripts/setup --tests` installs them.
#
#   Tests/Support/make_photos.sh FOLDER
#
# Each picture has a size of its own, so a test can tell that the right one was read:
#   plain.jpg          600×400, EXIF ImageDescription "FLOURISH-EXIF-MARKER" and an EXIF thumbnail
#   rotated.jpg        600×400 stored, progressive, EXIF Orientation 6 (turned 90° clockwise):
#                      seen as 400×600
#   alpha.png          300×200, transparent around a half-transparent disc
#   photo.webp         500×300
#   photo.heic         640×360
#   big.jpg            6000×4000 (24 megapixels), with the EXIF marker
#   truncated.jpg      plain.jpg cut to half its bytes (also .png, .webp, .heic from theirs)
#   not-a-picture.jpg  a line of text
set -euo pipefail

folder=${1:?usage: make_photos.sh FOLDER}
mkdir -p "$folder"
cd "$folder"

marker="FLOURISH-EXIF-MARKER"

# A picture that is not one colour: a gradient, a square in the top left (where a turn shows)
# and a disc. $1 size, $2 gradient, $3 file.
scene() {
    local width=${1%x*} height=${1#*x}
    convert -size "$1" "gradient:$2" \
        -fill yellow -draw "rectangle 0,0 $((width / 6)),$((height / 4))" \
        -fill green -draw "circle $((width / 2)),$((height / 2)) $((width / 2)),$((height / 5))" \
        -quality 92 "$3"
}

# The first half of a file's bytes: a download or a copy cut short.
half() { head -c $(( $(stat -c %s "$1") / 2 )) "$1" > "$2"; }

# With an EXIF thumbnail (as cameras write): its own end-of-image marker sits early in the
# file, so the first half of it (truncated.jpg) holds an end marker that is not the photo's.
scene 600x400 red-blue plain.jpg
scene 160x120 red-blue exif-thumbnail.jpg
exiftool -q -overwrite_original -ImageDescription="$marker" "-ThumbnailImage<=exif-thumbnail.jpg" plain.jpg
rm exif-thumbnail.jpg

# Progressive (several scans, as web browsers' and editors' JPEGs often are).
scene 600x400 orange-purple rotated.jpg
mogrify -interlace JPEG -quality 92 rotated.jpg
exiftool -q -overwrite_original -ImageDescription="$marker" -Orientation#=6 rotated.jpg

convert -size 300x200 xc:none -fill 'rgba(255,0,0,0.5)' -draw "circle 150,100 150,20" \
    -fill 'rgba(0,0,255,1)' -draw "rectangle 10,10 60,60" alpha.png

scene 500x300 teal-white webp-source.png
cwebp -quiet -q 85 webp-source.png -o photo.webp
rm webp-source.png

scene 640x360 navy-pink heic-source.png
heif-enc -q 70 -o photo.heic heic-source.png >/dev/null
rm heic-source.png

scene 6000x4000 black-skyblue big.jpg
exiftool -q -overwrite_original -ImageDescription="$marker" big.jpg

half plain.jpg truncated.jpg
half alpha.png truncated.png
half photo.webp truncated.webp
half photo.heic truncated.heic

printf 'This is a journal note, not a picture.\n' > not-a-picture.jpg
