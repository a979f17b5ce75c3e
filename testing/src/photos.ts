import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { seededRandom } from './seeded-random.js';

/** Pixel dimensions of one photo. */
export interface PhotoSize {
  width: number;
  height: number;
}

/**
 * The sizes of the twenty photos, in product order: the spread the real Fake Store API serves (370–1,049 px
 * wide, 333–1,500 px tall, portrait, square and landscape). The first product's photo is the largest, as the
 * real one is, so the first card on `/products` carries the heaviest original.
 */
export const PHOTO_SIZES: readonly PhotoSize[] = [
  { width: 1049, height: 1500 },
  { width: 600, height: 879 },
  { width: 679, height: 740 },
  { width: 582, height: 879 },
  { width: 1000, height: 1000 },
  { width: 900, height: 676 },
  { width: 640, height: 640 },
  { width: 700, height: 700 },
  { width: 1000, height: 667 },
  { width: 800, height: 800 },
  { width: 1000, height: 580 },
  { width: 1000, height: 750 },
  { width: 1000, height: 560 },
  { width: 370, height: 333 },
  { width: 557, height: 879 },
  { width: 676, height: 900 },
  { width: 1000, height: 563 },
  { width: 541, height: 879 },
  { width: 679, height: 679 },
  { width: 568, height: 879 },
];

export interface PhotoOptions extends PhotoSize {
  /** Same seed and size, same bytes. */
  seed: number;
}

/**
 * A photo-like JPEG: a product shot on a light studio background — a shaded, textured object with a few
 * details and sensor noise — so that encoders meet what real product photos give them (smooth gradients, edges,
 * fine texture) and the files weigh what real ones do (15–230 KB for the sizes above), unlike flat test
 * images that compress to almost nothing.
 */
export async function makePhoto({ width, height, seed }: PhotoOptions): Promise<Buffer> {
  const random = seededRandom(seed);
  const pixels = Buffer.alloc(width * height * 3);

  // The object: an ellipse-ish body covering most of the frame, lit from the top left, in a random hue.
  const base = hueToRgb(random());
  const centreX = width * (0.45 + 0.1 * random());
  const centreY = height * (0.45 + 0.1 * random());
  const radiusX = width * (0.32 + 0.1 * random());
  const radiusY = height * (0.34 + 0.1 * random());
  // A fabric-like weave whose period and direction vary per photo.
  const weave = 0.15 + 0.25 * random();
  const stripes = 6 + Math.floor(random() * 10);
  // How grainy the object is: what spreads the file sizes, as fabric, plastic and metal do in real photos.
  const grainAmplitude = 4 + 18 * random();
  // A few round details (buttons, a logo, stitching) on the body.
  const details = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
    x: centreX + (random() - 0.5) * radiusX,
    y: centreY + (random() - 0.5) * radiusY,
    radiusSquared: (Math.min(width, height) * (0.02 + 0.05 * random())) ** 2,
    shade: random() < 0.5 ? 0.35 : 1.6,
  }));

  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      const dx = (x - centreX) / radiusX;
      const dy = (y - centreY) / radiusY;
      const distance = dx * dx + dy * dy;
      // Background: near-white with a soft vignette and a faint floor shadow under the object.
      let r = 246 - 10 * (y / height);
      let g = r;
      let b = r + 2;
      const shadow = Math.max(0, 1 - Math.hypot(dx * 0.8, (dy - 1.05) * 3)) * 40;
      r -= shadow;
      g -= shadow;
      b -= shadow;
      if (distance < 1) {
        const light = 1.15 - 0.45 * (dx + dy + 1) * 0.5 - 0.25 * distance;
        const texture =
          1 + 0.08 * Math.sin((x * Math.cos(weave) + y * Math.sin(weave)) * 0.9) + 0.05 * Math.sin((y / height) * stripes * Math.PI * 2);
        let shade = light * texture;
        for (const detail of details) {
          if ((x - detail.x) ** 2 + (y - detail.y) ** 2 < detail.radiusSquared) shade *= detail.shade;
        }
        const grain = (random() - 0.5) * grainAmplitude;
        r = base[0] * shade + grain;
        g = base[1] * shade + grain;
        b = base[2] * shade + grain;
      } else {
        const grain = (random() - 0.5) * 6;
        r += grain;
        g += grain;
        b += grain;
      }
      pixels[offset] = clamp(r);
      pixels[offset + 1] = clamp(g);
      pixels[offset + 2] = clamp(b);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const made = new Map<number, Promise<Buffer>>();

/** The photo of product `id` (1-based): `PHOTO_SIZES` in turn, seeded by the id, made once per process. */
export function productPhoto(id: number): Promise<Buffer> {
  let photo = made.get(id);
  if (photo === undefined) {
    photo = makePhoto({ ...photoSize(id), seed: id });
    made.set(id, photo);
  }
  return photo;
}

/** The size of product `id`'s photo. */
export function photoSize(id: number): PhotoSize {
  const size = PHOTO_SIZES[(((id - 1) % PHOTO_SIZES.length) + PHOTO_SIZES.length) % PHOTO_SIZES.length];
  if (size === undefined) throw new Error(`no photo size for ${id}`);
  return size;
}

function hueToRgb(hue: number): [number, number, number] {
  const channel = (shift: number) => 150 + 90 * Math.cos(2 * Math.PI * (hue + shift));
  return [channel(0), channel(1 / 3), channel(2 / 3)];
}

function clamp(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}

/**
 * A decompression bomb: a valid PNG that declares `width` × `height` pixels but holds only one row of compressed
 * zeros, so a few kilobytes claim, say, ten gigapixels (100,000 × 100,000). A decoder that trusts the header would
 * try to allocate all of it.
 */
export function decompressionBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth; colour type 0 (greyscale), no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
