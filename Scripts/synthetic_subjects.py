"""Synthetic subjects for training the subject prior: random objects with exact alpha.

The prior learns from only 99 stamp photos and 224 vector stamps, so it partly learns
those subjects rather than what makes any region a subject. Synthetic objects, pasted
into composites the way the stamps are (the cut-and-paste synthesis of Dwibedi, Misra and
Hebert, "Cut, Paste and Learn", ICCV 2017, with procedural objects instead of cut-outs),
show it many more: a lobed blob, sometimes with more lobes or limbs, thin parts (legs,
stems, antennas) and a hole that shows the background, split into one to four parts, each
filled with a flat colour, a photo texture from the training backgrounds or the colours of
a training stamp, shaded as a lit solid and now and then outlined as drawings are. Each
is an RGBA image whose alpha is the truth.
"""
import math
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

# A turn in radians to four figures, as the shipped weights' objects were drawn with.
TURN = 6.283


def draw_blob(draw, rng, cx, cy, radius, value):
    """A closed blob around (cx, cy): a circle whose radius varies with a few random
    harmonics, stretched along each axis."""
    harmonics = rng.randint(2, 6)
    amplitudes = [rng.uniform(0, 0.35) / (k + 1) ** 0.7 for k in range(harmonics)]
    phases = [rng.uniform(0, TURN) for _ in range(harmonics)]
    sx, sy = rng.uniform(0.6, 1.4), rng.uniform(0.6, 1.4)
    points = []
    for step in range(96):
        angle = step / 96 * TURN
        r = radius * (1 + sum(a * math.cos((k + 2) * angle + p) for k, (a, p) in enumerate(zip(amplitudes, phases))))
        points.append((cx + r * math.cos(angle) * sx, cy + r * math.sin(angle) * sy))
    draw.polygon(points, fill=value)


def silhouette(rng, side):
    """The object's mask (mode L) at twice `side`, to be shrunk for smooth edges."""
    size = side * 2
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    centre = size / 2
    radius = size * rng.uniform(0.16, 0.26)
    draw_blob(draw, rng, centre, centre, radius, 255)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        angle = rng.uniform(0, TURN)
        distance = radius * rng.uniform(0.6, 1.3)
        draw_blob(draw, rng, centre + distance * math.cos(angle), centre + distance * math.sin(angle),
                  radius * rng.uniform(0.3, 0.7), 255)
    if rng.random() < 0.4:
        for _ in range(rng.randint(1, 4)):
            angle = rng.uniform(0, TURN)
            x0, y0 = centre + 0.6 * radius * math.cos(angle), centre + 0.6 * radius * math.sin(angle)
            length = radius * rng.uniform(0.8, 1.9)
            bend = rng.uniform(-0.5, 0.5)
            x1, y1 = x0 + length * math.cos(angle + bend), y0 + length * math.sin(angle + bend)
            draw.line([(x0, y0), (x1, y1)], fill=255, width=max(2, round(size * rng.uniform(0.006, 0.025))))
    if rng.random() < 0.15:
        draw_blob(draw, rng, centre + rng.uniform(-0.2, 0.2) * radius, centre + rng.uniform(-0.2, 0.2) * radius,
                  radius * rng.uniform(0.2, 0.45), 0)
    return mask


def part_colours(rng, size, textures, photos):
    """A `size` x `size` RGB fill (float32) for one part of the object: a flat colour, a
    crop of a photo texture, or a stretched crop of a stamp photo; half the time with its
    saturation scaled and its colour shifted."""
    kind = rng.random()
    if kind < 0.4:
        colour = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
        return np.broadcast_to(colour, (size, size, 3)).copy()
    if kind < 0.75:
        with Image.open(rng.choice(textures)) as image:
            image = image.convert("RGB")
            scale = rng.uniform(0.3, 1.0)
            width, height = max(size, round(image.width * scale)), max(size, round(image.height * scale))
            image = image.resize((width, height))
            x, y = rng.randint(0, width - size), rng.randint(0, height - size)
            pixels = np.asarray(image.crop((x, y, x + size, y + size)), np.float32)
    else:
        with Image.open(rng.choice(photos)) as image:
            image = image.convert("RGBA")
            box = image.getchannel("A").point(lambda a: 255 if a > 128 else 0).getbbox() or (0, 0, *image.size)
            image = image.crop(box)
            width, height = image.size
            crop_width, crop_height = max(4, width // 3), max(4, height // 3)
            x, y = rng.randint(0, width - crop_width), rng.randint(0, height - crop_height)
            pixels = np.asarray(image.crop((x, y, x + crop_width, y + crop_height)).convert("RGB").resize((size, size)),
                                np.float32)
    if rng.random() < 0.5:
        grey = pixels.mean(2, keepdims=True)
        pixels = grey + (pixels - grey) * rng.uniform(0.3, 1.6)
        pixels = pixels + np.array([rng.uniform(-60, 60) for _ in range(3)], np.float32)
    return pixels


def synthetic_subject(rng, textures, photos, side=384):
    """One synthetic object as a `side` x `side` RGBA image, drawn from `rng`, filled
    from `textures` (background files) and `photos` (stamp photo files)."""
    mask = silhouette(rng, side)
    size = side * 2
    # Parts: the nearest of one to four random centres owns each pixel.
    parts = rng.choice([1, 1, 2, 2, 3, 4])
    yy, xx = np.mgrid[0:size, 0:size]
    centres = [(rng.uniform(0.25, 0.75) * size, rng.uniform(0.25, 0.75) * size) for _ in range(parts)]
    owner = np.argmin(np.stack([(xx - cx) ** 2 + (yy - cy) ** 2 for cx, cy in centres]), 0)
    rgb = np.zeros((size, size, 3), np.float32)
    for part in range(parts):
        fill = part_colours(rng, size, textures, photos)
        rgb[owner == part] = fill[owner == part]
    # Lit as a solid: the blurred mask is its height, brighter at the top of the dome
    # and on the side that faces the light.
    alpha = np.asarray(mask, np.float32) / 255
    dome = np.asarray(mask.filter(ImageFilter.GaussianBlur(size * 0.06)), np.float32) / 255
    gy, gx = np.gradient(dome)
    angle = rng.uniform(0, TURN)
    light = (1 + rng.uniform(0, 0.5) * (dome - 0.5)
             + rng.uniform(0, 25) * (gx * math.cos(angle) + gy * math.sin(angle)) * size / 100)
    rgb = rgb * np.clip(light, 0.4, 1.5)[:, :, None]
    if rng.random() < 0.2:
        inside = np.asarray(mask.filter(ImageFilter.MinFilter(2 * rng.randint(1, 3) + 1)), np.float32) / 255
        rgb[(alpha - inside) > 0.5] = rng.choice([(0, 0, 0), (40, 30, 20), (255, 255, 255)])
    image = Image.fromarray(np.dstack([rgb.clip(0, 255), alpha * 255]).astype(np.uint8), "RGBA")
    return image.resize((side, side), Image.LANCZOS)


def write_synthetic_subject(cache, index, textures, photos):
    """Synthetic subject number `index` as a PNG file under `cache` (made once); its path."""
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, f"synthetic-{index:05d}.png")
    if not os.path.exists(path):
        synthetic_subject(random.Random(7 * 10**6 + index), textures, photos).save(path)
    return path
