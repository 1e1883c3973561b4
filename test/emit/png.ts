// A minimal PNG reader for screenshot tests: 8-bit RGB or RGBA, not interlaced (what Chromium
// writes). Decodes the IDAT stream with node:zlib and undoes the per-row filters.

import { inflateSync } from 'node:zlib';

/** Decoded pixels: `rgba` has 4 bytes per pixel, row by row. */
export interface Png {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes a PNG file's bytes. */
export function readPng(bytes: Buffer): Png {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      cur[i] = (line[i]! + predict(filter, a, b, c)) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 3; k++) out[(y * width + x) * 4 + k] = cur[x * channels + k]!;
      out[(y * width + x) * 4 + 3] = channels === 4 ? cur[x * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, rgba: out };
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0: return 0;
    case 1: return a;
    case 2: return b;
    case 3: return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default: throw new Error(`bad PNG row filter ${filter}`);
  }
}

/** How many pixels are within `tolerance` of the colour `[r, g, b]`. */
export function countColour(png: Png, [r, g, b]: readonly [number, number, number], tolerance = 3): number {
  let n = 0;
  for (let i = 0; i < png.rgba.length; i += 4) {
    if (Math.abs(png.rgba[i]! - r) <= tolerance && Math.abs(png.rgba[i + 1]! - g) <= tolerance && Math.abs(png.rgba[i + 2]! - b) <= tolerance) n++;
  }
  return n;
}

/** The number of distinct colours. */
export function distinctColours(png: Png): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.rgba.length; i += 4) seen.add((png.rgba[i]! << 16) | (png.rgba[i + 1]! << 8) | png.rgba[i + 2]!);
  return seen.size;
}
