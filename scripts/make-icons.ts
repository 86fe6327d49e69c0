// Draws the app icons into public/icons/: a white drop with a brand-green cross on the brand colour
// #009B7E. Run by hand when the mark changes (`node scripts/make-icons.ts`); the results are
// committed, so the build needs no image tooling. Pure Node: the shape is rasterised here with 4×4
// supersampling and encoded as PNG with node:zlib, and the SVG is written from the same geometry.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

const BRAND: Rgb = [0x00, 0x9b, 0x7e];
const WHITE: Rgb = [0xff, 0xff, 0xff];
type Rgb = readonly [number, number, number];

/** The mark in a unit square: a drop (circle plus the cone from its tip) with a cross inside. */
interface Mark {
  tip: { x: number; y: number };
  centre: { x: number; y: number };
  radius: number;
  /** The cross: half its arm length and half its arm width. */
  crossHalfLength: number;
  crossHalfWidth: number;
}

/** Scales the mark about the centre of the square (the maskable icon keeps it in the safe zone). */
function markAt(scale: number): Mark {
  const s = (v: number) => 0.5 + (v - 0.5) * scale;
  return {
    tip: { x: 0.5, y: s(0.14) },
    centre: { x: 0.5, y: s(0.6) },
    radius: 0.25 * scale,
    crossHalfLength: 0.12 * scale,
    crossHalfWidth: 0.04 * scale,
  };
}

/** Where the drop's straight sides touch its round bottom, and what lies inside it. */
function dropGeometry(m: Mark) {
  const d = m.centre.y - m.tip.y;
  const sinA = m.radius / d;
  const cosA = Math.sqrt(1 - sinA * sinA);
  // Tangent points: distance d·cosA from the tip along lines at ±A to the axis.
  const along = d * cosA;
  const tangentY = m.tip.y + along * cosA;
  const tangentDx = along * sinA;
  return {
    tangentY,
    tangentDx,
    inside(x: number, y: number): boolean {
      const dx = x - m.centre.x;
      const dy = y - m.centre.y;
      if (dx * dx + dy * dy <= m.radius * m.radius) return true;
      if (y < m.tip.y || y > tangentY) return false;
      // Between the two straight sides: the half-width grows linearly from the tip.
      return Math.abs(x - m.tip.x) <= ((y - m.tip.y) / (tangentY - m.tip.y)) * tangentDx;
    },
  };
}

function inCross(m: Mark, x: number, y: number): boolean {
  const dx = Math.abs(x - m.centre.x);
  const dy = Math.abs(y - m.centre.y);
  return (dx <= m.crossHalfLength && dy <= m.crossHalfWidth) || (dx <= m.crossHalfWidth && dy <= m.crossHalfLength);
}

/** Rounded-square background for the "any" icons; the maskable one is full bleed (the OS masks it). */
function insideBackground(x: number, y: number, cornerRadius: number): boolean {
  if (cornerRadius <= 0) return true;
  const cx = Math.min(Math.max(x, cornerRadius), 1 - cornerRadius);
  const cy = Math.min(Math.max(y, cornerRadius), 1 - cornerRadius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= cornerRadius * cornerRadius;
}

function render(size: number, mark: Mark, cornerRadius: number): Buffer {
  const drop = dropGeometry(mark);
  const SAMPLES = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let cover = 0;
      let white = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          if (!insideBackground(x, y, cornerRadius)) continue;
          cover++;
          if (drop.inside(x, y) && !inCross(mark, x, y)) white++;
        }
      }
      const o = (py * size + px) * 4;
      // Colour is the mix of the covered samples; alpha is the coverage (antialiased corners).
      const w = cover === 0 ? 0 : white / cover;
      for (let c = 0; c < 3; c++) rgba[o + c] = Math.round((BRAND[c] as number) * (1 - w) + (WHITE[c] as number) * w);
      rgba[o + 3] = Math.round((cover / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** PNG, 8-bit RGBA, no interlace, filter 0 on every row. */
function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function svg(mark: Mark, cornerRadius: number): string {
  const S = 512;
  const n = (v: number) => Number((v * S).toFixed(2));
  const drop = dropGeometry(mark);
  const { tip, centre } = mark;
  const h = mark.crossHalfLength;
  const w = mark.crossHalfWidth;
  const hex = `#${BRAND.map((c) => c.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
  // The drop: tip, down the right side to its tangent point, the long way round the circle, back up.
  const dropPath = `M${n(tip.x)} ${n(tip.y)}L${n(tip.x + drop.tangentDx)} ${n(drop.tangentY)}A${n(mark.radius)} ${n(mark.radius)} 0 1 1 ${n(tip.x - drop.tangentDx)} ${n(drop.tangentY)}Z`;
  const crossPath =
    `M${n(centre.x - w)} ${n(centre.y - h)}h${n(2 * w)}v${n(h - w)}h${n(h - w)}v${n(2 * w)}h${n(-(h - w))}v${n(h - w)}h${n(-2 * w)}` +
    `v${n(-(h - w))}h${n(-(h - w))}v${n(-2 * w)}h${n(h - w)}Z`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${S} ${S}">`,
    `<rect width="${S}" height="${S}" rx="${n(cornerRadius)}" fill="${hex}"/>`,
    `<path fill="#FFFFFF" d="${dropPath}"/>`,
    `<path fill="${hex}" d="${crossPath}"/>`,
    '</svg>',
    '',
  ].join('\n');
}

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
mkdirSync(outDir, { recursive: true });

const CORNER = 0.18;
const full = markAt(1);
// Maskable icons may be cut down to a circle of 80 % of the width (the safe zone, radius 0.4). The
// drop reaches 0.36 from the centre at full size (its tip), so at 0.85 (0.31) it stays well inside.
const safe = markAt(0.85);

const files: Array<[string, Buffer | string]> = [
  ['icon-192.png', render(192, full, CORNER)],
  ['icon-512.png', render(512, full, CORNER)],
  ['icon-maskable-512.png', render(512, safe, 0)],
  ['icon.svg', svg(full, CORNER)],
];
for (const [name, data] of files) {
  writeFileSync(path.join(outDir, name), data);
  process.stdout.write(`public/icons/${name} (${data.length} bytes)\n`);
}
