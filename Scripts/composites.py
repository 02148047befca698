"""Composite photos with exact ground truth, shared by make-validation-set and train-subject-prior.

A case is a cut-out with its own alpha from Tux Paint's stamps placed over a background
(a studio gradient, a texture, a photo or a flat colour), with a soft shadow, colour
matching, a lighting gradient, slight defocus, sensor noise and JPEG compression, the way
the dev set's README describes its own. The ground truth is the stamp's alpha, carried
through the same resampling and defocus.

The stamps are split in two halves by a hash of their names: validation sets use one half
and the subject prior is trained on the other, and the two draw on different backgrounds,
so a validation set shows neither a subject nor a background the network was trained on.
The dev set's stamps and backgrounds are in neither.
"""
import glob
import os
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMPS = "/usr/share/tuxpaint/stamps"
TEMPLATES = "/usr/share/tuxpaint/templates"
MATE = "/usr/share/backgrounds/mate/nature"
PLASMA = "/usr/share/wallpapers"
LOMIRI = "/usr/share/backgrounds"
PACKAGES = {STAMPS: "tuxpaint-stamps-default", TEMPLATES: "tuxpaint-data", MATE: "mate-backgrounds",
            PLASMA: "plasma-workspace-wallpapers", LOMIRI + "/Bridge_by_Sander_Klootwijk.jpg": "lomiri-wallpapers-16.04"}

# Stamps the dev set is built from: kept out so the two sets share no subject.
DEV_SET_STAMPS = {"Strawberry2", "cementmixer", "otter", "lark", "lion-2", "heron_greatblue_flying",
                  "gnu-baby-stand", "duck", "gander", "tree336", "indycar", "fox", "t_glove"}
DEV_SET_SVGS = {"umbrella", "sunglasses_01", "sportscar", "bikewheel"}
# Backgrounds are scenes and surfaces, not photos of one object (a lighthouse, a flower in
# macro), which would be a second subject; the dev set's own backgrounds are left out.
TEXTURES = [f"{TEMPLATES}/{name}.jpg" for name in ("burnt_bark", "mossy_log", "mudstone", "rocks", "corn_maze",
                                                    "ocean_splash", "wool_mill_machine")]
TEXTURES += [f"{MATE}/{name}.jpg" for name in ("Blinds", "Wood")] + [f"{PLASMA}/OneStandsOut"]
PHOTOS = [f"{TEMPLATES}/{name}.jpg" for name in ("ocean_waves", "redwoods_above", "sun_behind_clouds",
                                                  "sun_behind_leaves", "trees_above", "trees_at_dusk", "spiders_web")]
PHOTOS += [f"{MATE}/RainDrops.jpg"]
PHOTOS += [f"{PLASMA}/{name}" for name in ("BytheWater", "ColdRipple", "DarkestHour", "EveningGlow", "Kite",
                                           "summer_1am", "Volna")]
PHOTOS += [f"{LOMIRI}/{name}.jpg" for name in ("Bridge_by_Sander_Klootwijk", "aitzgorri_by_Aitzol_Berasategi",
                                                "life_by_Aitzol_Berasategi", "picosdeeuropa_by_Aitzol_Berasategi",
                                                "seeding_by_Clements_Engelhardt")]
CATEGORY_NAMES = {"a": "product/studio", "b": "textured background", "c": "real photo background",
                  "d": "illustration/flat art", "f": "hard"}
# Category f's three kinds, in turn.
HARD_KINDS = ["two objects", "touching the border", "low contrast"]
SIZES = [(900, 1200), (1200, 900), (1280, 1024), (1400, 1000), (800, 600), (1000, 1000)]


def ensure_sources(packages=PACKAGES):
    missing = [package for path, package in packages.items() if not os.path.exists(path)]
    if missing:
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing],
                       check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    try:
        import numpy  # noqa: F401
        import PIL  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "numpy", "pillow"], check=True)


def usable_stamps(half):
    """Stamp PNGs with a real cut-out (some transparency, a mostly hard edge, big enough)
    in one half ("validation" or "training")."""
    from PIL import Image
    import numpy as np
    stamps = []
    for path in sorted(glob.glob(os.path.join(STAMPS, "**", "*.png"), recursive=True)):
        name = os.path.splitext(os.path.basename(path))[0]
        if name in DEV_SET_STAMPS or "/symbols/" in path or name.endswith("_mirror") or "thumb" in path:
            continue
        if in_validation_half(name) != (half == "validation"):
            continue
        with Image.open(path) as image:
            if min(image.size) < 150 or image.mode not in ("RGBA", "LA", "P"):
                continue
            alpha = np.asarray(image.convert("RGBA").getchannel("A"), dtype=np.float32) / 255
        inside = (alpha > 0.5).mean()
        soft = ((alpha > 0.05) & (alpha < 0.95)).sum() / max(1, (alpha > 0.5).sum())
        if 0.1 < inside < 0.9 and soft < 0.15:
            stamps.append(path)
    return stamps


def resolve(path):
    """A file as is; a Plasma wallpaper folder as its largest image."""
    if os.path.isfile(path):
        return path
    sizes = glob.glob(os.path.join(path, "contents", "images", "*.jpg")) + glob.glob(os.path.join(path, "contents", "images", "*.png"))
    return max(sizes, key=lambda p: int(os.path.basename(p).split("x")[0]))



# Backgrounds only the subject prior's training uses: scenes, surfaces and abstract art
# that neither the validation sets nor the dev set show.
TRAINING_BACKGROUNDS = [f"{PLASMA}/{name}" for name in ("Altai", "Cascade", "Cluster", "Elarun", "Flow", "Honeywave",
                                                        "IceCold", "Kay", "Kokkini", "MilkyWay", "Opal", "PastelHills",
                                                        "Patak", "Shell")]
TRAINING_BACKGROUNDS += [f"{LOMIRI}/{name}" for name in (
    "Fossa_by_Jasper_Roks.jpg", "Infinite-Sea_by_Aury88.jpg", "Painting-Colors_by__herobrine7gamer.jpg",
    "analogpattern_by_Peter_Nerlich.jpg", "city.png", "desert.png", "fluent-color.png", "lomiri-default-background.png",
    "rhythm.jpg", "rollpaper.png", "string.jpg", "umang_by_Abhishek_Mudgal.jpg", "warty-final-ubuntu.png",
    "mate/abstract/Elephants.jpg", "mate/desktop/Stripes.png", "mate/desktop/Ubuntu-Mate-Cold-no-logo.png",
    "mate/desktop/Ubuntu-Mate-Warm-no-logo.png")]
TRAINING_BACKGROUNDS += [f"{LOMIRI}/gnome/{name}.webp" for name in ("grid-l", "grid-d", "licorice-l", "truchet-l",
                                                                   "wood-l", "wood-d", "adwaita-l")]
ETR = "/usr/share/games/etr"
PAPERS = "/usr/share/mypaint/backgrounds"
# GCompris's photos of monuments and landscapes, packed in a Qt resource file; the ones
# of a single object (a statue, a tower, a lone pyramid) are left out.
MONUMENTS = "/usr/share/gcompris-qt/rcc/explore_monuments.rcc"
SINGLE_OBJECT_MONUMENTS = {"cabrillo", "christTheRedeemer", "eiffelTower", "qutubMinar", "statueofLiberty",
                           "bentPyramid", "greatPyramidOfGiza", "meidumPyramid", "redPyramid"}
TRAINING_PACKAGES = {LOMIRI + "/city.png": "ukui-wallpapers", LOMIRI + "/Fossa_by_Jasper_Roks.jpg": "lomiri-wallpapers-20.04",
                     LOMIRI + "/warty-final-ubuntu.png": "lomiri-wallpapers", LOMIRI + "/gnome": "gnome-backgrounds",
                     ETR: "extremetuxracer-data", PAPERS: "mypaint-data-extras", "/usr/bin/rsvg-convert": "librsvg2-bin",
                     MONUMENTS: "gcompris-qt-data"}


def in_validation_half(name):
    """Whether a stamp belongs to the validation sets' half (else to the training half)."""
    return zlib.crc32(name.encode()) % 2 == 1


def qt_resources(path):
    """The files packed in a Qt binary resource file (.rcc) as (name, bytes) pairs.

    The layout rcc writes (Qt's src/tools/rcc/rcc.cpp): a "qres" header with the format
    version and the offsets of the tree, the payloads and the names. Tree nodes are 14
    bytes (22 from version 2, which appends a modification time): a name offset, flags
    (2 = directory, 1 = zlib payload, 4 = zstd payload), then a directory's child count and
    first child, or a file's locale and payload offset. A payload is a 4-byte length and the
    bytes; a zlib one starts with the 4-byte uncompressed size. Names are a 2-byte length, a
    4-byte hash and UTF-16 characters. zstd payloads are skipped."""
    import struct
    with open(path, "rb") as file:
        data = file.read()
    if data[:4] != b"qres":
        raise ValueError(f"{path}: not a Qt resource file")
    version, tree, payloads, names = struct.unpack(">IIII", data[4:20])
    node_size = 14 if version == 1 else 22
    files, pending = [], [(0, "")]
    while pending:
        index, prefix = pending.pop()
        node = tree + index * node_size
        name_offset, flags = struct.unpack(">IH", data[node:node + 6])
        length, = struct.unpack(">H", data[names + name_offset:names + name_offset + 2])
        name = data[names + name_offset + 6:names + name_offset + 6 + 2 * length].decode("utf-16-be") if index else ""
        if flags & 2:
            count, first = struct.unpack(">II", data[node + 6:node + 14])
            pending += [(first + k, f"{prefix}{name}/") for k in range(count)]
        elif not flags & 4:
            offset, = struct.unpack(">I", data[node + 10:node + 14])
            size, = struct.unpack(">I", data[payloads + offset:payloads + offset + 4])
            payload = data[payloads + offset + 4:payloads + offset + 4 + size]
            files.append((prefix + name, zlib.decompress(payload[4:]) if flags & 1 else payload))
    return files


def monument_photos(cache):
    """GCompris's monument photos (less the single-object ones) as JPEG files under `cache`."""
    from PIL import Image
    import io
    os.makedirs(cache, exist_ok=True)
    result = []
    for name, payload in sorted(qt_resources(MONUMENTS)):
        stem, extension = os.path.splitext(os.path.basename(name))
        if extension.lower() not in (".jpg", ".jpeg", ".png", ".webp") or stem in SINGLE_OBJECT_MONUMENTS:
            continue
        target = os.path.join(cache, f"gcompris-monuments-{stem}.jpg")
        if not os.path.exists(target):
            with Image.open(io.BytesIO(payload)) as image:
                if min(image.size) < 300:
                    continue
                image.convert("RGB").save(target, quality=95)
        result.append(target)
    return result


def training_backgrounds(cache):
    """The training backgrounds as files of at most 1000 px (ExtremeTuxRacer's terrain tiles
    repeated 3x3), written under `cache` once, and GCompris's monument photos."""
    from PIL import Image
    os.makedirs(cache, exist_ok=True)
    sources = [resolve(path) for path in TRAINING_BACKGROUNDS]
    sources += sorted(glob.glob(f"{ETR}/env/etr/*/*H.png")) + sorted(glob.glob(f"{PAPERS}/*/*.png")) + sorted(glob.glob(f"{PAPERS}/*/*.jpg"))
    result = []
    for path in sources + sorted(glob.glob(f"{ETR}/terrains/*.png")):
        target = os.path.join(cache, os.path.relpath(path, "/usr/share").replace("/", "-") + ".jpg")
        if not os.path.exists(target):
            with Image.open(path) as image:
                image = image.convert("RGB")
                if "/terrains/" in path:
                    tile = image.resize((256, 256))
                    image = Image.new("RGB", (768, 768))
                    for k in range(9):
                        image.paste(tile, ((k % 3) * 256, (k // 3) * 256))
                image.thumbnail((1000, 1000), Image.LANCZOS)
                image.save(target, quality=95)
        result.append(target)
    return result + monument_photos(cache)


def training_stamps(cache):
    """The training half of the usable stamps, plus Tux Paint's vector stamps rendered to
    PNG under `cache` (the dev set's four left out)."""
    from PIL import Image
    import numpy as np
    stamps = usable_stamps("training")
    os.makedirs(cache, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(STAMPS, "**", "*.svg"), recursive=True)):
        name = os.path.splitext(os.path.basename(path))[0]
        if name in DEV_SET_SVGS or "/symbols/" in path:
            continue
        target = os.path.join(cache, name + ".png")
        if not os.path.exists(target):
            if subprocess.run(["rsvg-convert", "-w", "600", "-a", path, "-o", target], capture_output=True).returncode:
                continue
        with Image.open(target) as image:
            alpha = np.asarray(image.convert("RGBA").getchannel("A"), dtype=np.float32) / 255
        if 0.1 < (alpha > 0.5).mean() < 0.9:
            stamps.append(target)
    return stamps


def backgrounds():
    return [resolve(p) for p in PHOTOS], [resolve(p) for p in TEXTURES]


class Composer:
    def __init__(self, rng, close_up=False, fill=False):
        """With `close_up`, every subject is framed as real photographs often frame theirs:
        it covers 30-60% of the picture and half the time is cut by an edge. With `fill`,
        closer still, as a portrait or a pet photographed up close: the subject's box is
        0.8-1.6 times the picture's area (up to 1.4 times its width and height), so it is
        usually cut by two or more edges. Neither draws from `rng` when not asked for, so
        the other framings' sets stay as they were."""
        self.rng = rng
        self.close_up = close_up
        self.fill = fill

    def canvas_size(self):
        return self.rng.choice(SIZES)

    def photo_background(self, path, size, blur):
        from PIL import Image, ImageFilter
        with Image.open(path) as image:
            image = image.convert("RGB")
            scale = max(size[0] / image.width, size[1] / image.height) * self.rng.uniform(1.0, 1.6)
            image = image.resize((max(size[0], round(image.width * scale)), max(size[1], round(image.height * scale))),
                                 Image.LANCZOS)
            x = self.rng.randint(0, image.width - size[0])
            y = self.rng.randint(0, image.height - size[1])
            image = image.crop((x, y, x + size[0], y + size[1]))
        return image.filter(ImageFilter.GaussianBlur(blur)) if blur > 0 else image

    def gradient_background(self, size):
        import numpy as np
        from PIL import Image
        top = np.array([self.rng.uniform(200, 250) for _ in range(3)])
        bottom = top - self.rng.uniform(20, 60)
        t = np.linspace(0, 1, size[1])[:, None, None] ** 1.5
        pixels = top * (1 - t) + bottom * t
        return Image.fromarray(np.broadcast_to(pixels, (size[1], size[0], 3)).astype(np.uint8))

    def flat_background(self, size, color=None):
        from PIL import Image
        color = color or tuple(self.rng.randint(30, 240) for _ in range(3))
        return Image.new("RGB", size, color)

    def place(self, stamp_path, size, area, border=False):
        """The stamp scaled to cover about `area` of the canvas (the framing may choose
        another), as an RGBA layer of the canvas's size."""
        from PIL import Image
        if self.fill:
            area, border = self.rng.uniform(0.8, 1.6), False
        elif self.close_up:
            area = self.rng.uniform(0.3, 0.6)
            border = border or self.rng.random() < 0.5
        with Image.open(stamp_path) as stamp:
            stamp = stamp.convert("RGBA")
            bbox = stamp.getchannel("A").point(lambda a: 255 if a > 8 else 0).getbbox()
            stamp = stamp.crop(bbox)
        scale = (area * size[0] * size[1] / (stamp.width * stamp.height)) ** 0.5
        most = 1.4 if self.fill else 0.9
        scale = min(scale, most * size[0] / stamp.width, most * size[1] / stamp.height)
        stamp = stamp.resize((max(8, round(stamp.width * scale)), max(8, round(stamp.height * scale))), Image.LANCZOS)
        if self.rng.random() < 0.5:
            stamp = stamp.transpose(Image.FLIP_LEFT_RIGHT)
        if self.fill:
            # Anywhere from a fifth to four fifths of the slack (negative when it overhangs).
            x = round((size[0] - stamp.width) * self.rng.uniform(0.2, 0.8))
            y = round((size[1] - stamp.height) * self.rng.uniform(0.2, 0.8))
        elif border:
            side = self.rng.choice(["left", "right", "bottom"])
            cut = self.rng.uniform(0.15, 0.35)
            x = {"left": -round(stamp.width * cut), "right": size[0] - round(stamp.width * (1 - cut))}.get(
                side, self.rng.randint(0, size[0] - stamp.width))
            y = size[1] - round(stamp.height * (1 - cut)) if side == "bottom" else self.rng.randint(0, size[1] - stamp.height)
        else:
            margin = 0.04
            x = self.rng.randint(round(size[0] * margin), max(round(size[0] * margin), size[0] - stamp.width - round(size[0] * margin)))
            y = self.rng.randint(round(size[1] * margin), max(round(size[1] * margin), size[1] - stamp.height - round(size[1] * margin)))
        layer = Image.new("RGBA", size, (0, 0, 0, 0))
        layer.paste(stamp, (x, y))
        return layer

    def shadow(self, background, layer):
        """A soft drop shadow below and beside the subject, darkening the background only."""
        import numpy as np
        from PIL import Image, ImageFilter
        alpha = layer.getchannel("A")
        dx = round(background.width * self.rng.uniform(-0.02, 0.02))
        dy = round(background.height * self.rng.uniform(0.005, 0.02))
        shifted = Image.new("L", alpha.size, 0)
        shifted.paste(alpha, (dx, dy))
        blur = shifted.filter(ImageFilter.GaussianBlur(background.width * 0.008))
        strength = self.rng.uniform(0.3, 0.55)
        pixels = np.asarray(background, dtype=np.float32)
        pixels *= 1 - strength * (np.asarray(blur, dtype=np.float32)[:, :, None] / 255)
        return Image.fromarray(pixels.clip(0, 255).astype(np.uint8))

    def match(self, layer, background, amount):
        """Pulls the subject's colours a little towards the background's mean (colour matching)."""
        import numpy as np
        from PIL import Image
        pixels = np.asarray(layer, dtype=np.float32).copy()
        mean = np.asarray(background, dtype=np.float32).reshape(-1, 3).mean(axis=0)
        pixels[:, :, :3] = pixels[:, :, :3] * (1 - amount) + mean * amount
        return Image.fromarray(pixels.clip(0, 255).astype(np.uint8), "RGBA")

    def finish(self, background, layers, lossless):
        """Composites, lights, defocuses and adds noise; returns (image, ground-truth alpha)."""
        import numpy as np
        from PIL import Image, ImageFilter
        image = background.convert("RGBA")
        truth = np.zeros((background.height, background.width), dtype=np.float32)
        for layer in layers:
            image = Image.alpha_composite(image, layer)
            a = np.asarray(layer.getchannel("A"), dtype=np.float32) / 255
            truth = truth + a * (1 - truth)
        image = image.convert("RGB")
        defocus = self.rng.uniform(0.3, 0.8)
        image = image.filter(ImageFilter.GaussianBlur(defocus))
        truth_image = Image.fromarray((truth * 255).round().astype(np.uint8)).filter(ImageFilter.GaussianBlur(defocus))
        pixels = np.asarray(image, dtype=np.float32)
        h, w = truth.shape
        yy, xx = np.mgrid[0:h, 0:w]
        angle = self.rng.uniform(0, 6.283)
        ramp = (np.cos(angle) * (xx / w - 0.5) + np.sin(angle) * (yy / h - 0.5))
        vignette = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2)
        light = 1 + self.rng.uniform(0.05, 0.15) * ramp - self.rng.uniform(0.1, 0.3) * vignette
        pixels = pixels * light[:, :, None]
        if not lossless:
            pixels += np.random.default_rng(self.rng.randint(0, 2**31)).normal(0, self.rng.uniform(1.5, 4), pixels.shape)
        return Image.fromarray(pixels.clip(0, 255).round().astype(np.uint8)), truth_image

    def case(self, category, size, stamp, other, photos, textures, hard_kind, subject_free=False):
        """One case of a category over `size`: (image, truth, sources, description, lossless).
        Category f is `hard_kind`: "two objects" (`stamp` and `other`), "touching the
        border" or "low contrast". Subject-free, the same background with nothing on it."""
        rng = self.rng
        sources = [stamp]
        layers = []
        lossless = False
        if category == "a":
            background = self.gradient_background(size)
            layers.append(self.place(stamp, size, rng.uniform(0.08, 0.3)))
            if not subject_free:
                background = self.shadow(background, layers[0])
            what = "studio gradient with a soft shadow"
        elif category == "b":
            texture = rng.choice(textures)
            sources.append(texture)
            background = self.photo_background(texture, size, 0)
            layers.append(self.match(self.place(stamp, size, rng.uniform(0.08, 0.3)), background, 0.15))
            what = "textured background"
        elif category == "c":
            photo = rng.choice(photos)
            sources.append(photo)
            blur = rng.choice([0, 0, size[0] / 300])
            background = self.photo_background(photo, size, blur)
            layers.append(self.match(self.place(stamp, size, rng.uniform(0.06, 0.3)), background, 0.1))
            what = "photo background" + (", blurred" if blur else "")
        elif category == "d":
            background = self.flat_background(size)
            layers.append(self.place(stamp, size, rng.uniform(0.1, 0.35)))
            lossless = rng.random() < 0.5
            what = "flat colour background"
        else:
            if hard_kind == "low contrast":
                layer = self.place(stamp, size, rng.uniform(0.1, 0.3))
                mean = layer.crop(layer.getchannel("A").getbbox()).convert("RGB").resize((1, 1)).getpixel((0, 0))
                background = self.flat_background(size, tuple(min(255, max(0, c + rng.randint(-40, 40))) for c in mean))
                layers.append(layer)
            else:
                photo = rng.choice(photos + textures)
                sources.append(photo)
                background = self.photo_background(photo, size, rng.choice([0, size[0] / 300]))
                if hard_kind == "two objects":
                    sources.append(other)
                    layers.append(self.place(stamp, size, rng.uniform(0.05, 0.15)))
                    layers.append(self.place(other, size, rng.uniform(0.05, 0.15)))
                else:
                    layers.append(self.place(stamp, size, rng.uniform(0.1, 0.3), border=True))
            what = hard_kind
        if subject_free:
            layers, sources, what = [], sources[1:], "no subject: " + what
        image, truth = self.finish(background, layers, lossless)
        return image, truth, sources, what, lossless
