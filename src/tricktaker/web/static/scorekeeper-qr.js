// @ts-check
// A QR code drawn by the page itself (ISO/IEC 18004: byte mode, error correction level M,
// versions 1 to 10, up to 213 bytes): the scorekeeper's edit link shown for another phone
// to scan. Nothing is fetched from elsewhere.
//
//   qrMatrix(text)          ->  boolean[][] (true: a dark module), without the quiet zone
//   qrSvg(text, label)      ->  <svg role="img" aria-label=label>

/** Per version 1-10 at level M: [EC codewords per block, [blocks, data codewords]...]. */
/** @type {[number, [number, number][]][]} */
const BLOCKS = [
  [10, [[1, 16]]],
  [16, [[1, 28]]],
  [26, [[1, 44]]],
  [18, [[2, 32]]],
  [24, [[2, 43]]],
  [16, [[4, 27]]],
  [18, [[4, 31]]],
  [22, [[2, 38], [2, 39]]],
  [22, [[3, 36], [2, 37]]],
  [26, [[4, 43], [1, 44]]],
];
/** The alignment patterns' centres, by version. */
const ALIGN = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Array(512).fill(0);
const LOG = new Array(256).fill(0);
for (let i = 0, x = 1; i < 255; i += 1) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];

/**
 * @param {number} a
 * @param {number} b
 */
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/**
 * The Reed-Solomon error correction codewords of `data`.
 * @param {number[]} data
 * @param {number} count
 * @returns {number[]}
 */
function correction(data, count) {
  let gen = [1];
  for (let i = 0; i < count; i += 1) {
    const next = new Array(gen.length + 1).fill(0);
    gen.forEach((g, j) => {
      next[j] ^= g;
      next[j + 1] ^= mul(g, EXP[i]);
    });
    gen = next;
  }
  const rest = [...data, ...new Array(count).fill(0)];
  for (let i = 0; i < data.length; i += 1) {
    const factor = rest[i];
    if (!factor) continue;
    gen.forEach((g, j) => {
      rest[i + j] ^= mul(g, factor);
    });
  }
  return rest.slice(data.length);
}

/**
 * The BCH code of `value` (the format or version information).
 * @param {number} value
 * @param {number} poly
 * @param {number} bits
 */
function bch(value, poly, bits) {
  let rem = value << bits;
  const top = Math.floor(Math.log2(poly));
  for (let i = Math.floor(Math.log2(rem)); i >= top; i -= 1) if (rem & (1 << i)) rem ^= poly << (i - top);
  return (value << bits) | rem;
}

/** @type {((r: number, c: number) => boolean)[]} */
const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/**
 * The codewords of `bytes` in version `version` (1-based), interleaved, with their error
 * correction.
 * @param {number[]} bytes
 * @param {number} version
 * @returns {number[]}
 */
function codewords(bytes, version) {
  const [ecCount, groups] = BLOCKS[version - 1];
  const capacity = groups.reduce((sum, [n, k]) => sum + n * k, 0);
  /** @type {number[]} */
  const bits = [];
  /** @param {number} value @param {number} length */
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  /** @type {number[]} */
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
  for (let pad = 0; data.length < capacity; pad += 1) data.push(pad % 2 ? 0x11 : 0xec);
  /** @type {number[][]} */
  const blocks = [];
  let at = 0;
  for (const [n, k] of groups) {
    for (let i = 0; i < n; i += 1) {
      blocks.push(data.slice(at, at + k));
      at += k;
    }
  }
  const ecs = blocks.map((block) => correction(block, ecCount));
  /** @type {number[]} */
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.length));
  for (let i = 0; i < longest; i += 1) for (const block of blocks) if (i < block.length) out.push(block[i]);
  for (let i = 0; i < ecCount; i += 1) for (const ec of ecs) out.push(ec[i]);
  return out;
}

/**
 * The penalty of a masked symbol (the four rules of the standard): the lowest is drawn.
 * @param {boolean[][]} m
 */
function penalty(m) {
  const n = m.length;
  let score = 0;
  for (let pass = 0; pass < 2; pass += 1) {
    for (let i = 0; i < n; i += 1) {
      let run = 1;
      for (let j = 1; j <= n; j += 1) {
        const same = j < n && (pass ? m[j][i] === m[j - 1][i] : m[i][j] === m[i][j - 1]);
        if (same) run += 1;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      for (let j = 0; j + 10 < n; j += 1) {
        const line = Array.from({ length: 11 }, (_, k) => (pass ? m[j + k][i] : m[i][j + k]));
        const text = line.map((v) => (v ? "1" : "0")).join("");
        if (text === "10111010000" || text === "00001011101") score += 40;
      }
    }
  }
  for (let i = 0; i + 1 < n; i += 1) {
    for (let j = 0; j + 1 < n; j += 1) {
      const v = m[i][j];
      if (v === m[i + 1][j] && v === m[i][j + 1] && v === m[i + 1][j + 1]) score += 3;
    }
  }
  const dark = m.flat().filter(Boolean).length;
  score += Math.floor(Math.abs((dark * 20) / (n * n) - 10)) * 10;
  return score;
}

/**
 * The modules of the QR code of `text` (true: dark), without the quiet zone.
 * @param {string} text
 * @returns {boolean[][]}
 */
export function qrMatrix(text) {
  const bytes = Array.from(new TextEncoder().encode(text));
  const version =
    BLOCKS.findIndex(([, groups], i) => groups.reduce((sum, [n, k]) => sum + n * k, 0) * 8 >= 4 + (i + 1 < 10 ? 8 : 16) + 8 * bytes.length) + 1;
  if (version === 0) throw new RangeError("The text is too long for a QR code of this page.");
  const size = 17 + 4 * version;
  /** @type {boolean[][]} */
  const m = Array.from({ length: size }, () => new Array(size).fill(false));
  /** @type {boolean[][]} */
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  /** @param {number} r @param {number} c @param {boolean} dark */
  const set = (r, c, dark) => {
    m[r][c] = dark;
    fixed[r][c] = true;
  };
  for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r += 1) {
      for (let c = -1; c <= 7; c += 1) {
        const rr = r0 + r;
        const cc = c0 + c;
        if (rr < 0 || cc < 0 || rr >= size || cc >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(rr, cc, ring !== 2 && ring !== 4);
      }
    }
  }
  const centres = ALIGN[version - 1];
  const last = centres.length - 1;
  for (const [i, r] of centres.entries()) {
    for (const [j, c] of centres.entries()) {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue; // the finders
      for (let dr = -2; dr <= 2; dr += 1) for (let dc = -2; dc <= 2; dc += 1) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  for (let i = 8; i < size - 8; i += 1) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  set(size - 8, 8, true); // the dark module
  // Reserve the format (and version) information areas.
  for (let i = 0; i < 9; i += 1) {
    if (!fixed[8][i]) set(8, i, false);
    if (!fixed[i][8]) set(i, 8, false);
  }
  for (let i = 0; i < 8; i += 1) {
    set(8, size - 1 - i, false);
    if (!fixed[size - 1 - i][8]) set(size - 1 - i, 8, false);
  }
  const versionBits = version >= 7 ? bch(version, 0x1f25, 12) : 0;
  if (version >= 7) {
    for (let i = 0; i < 18; i += 1) {
      const dark = ((versionBits >> i) & 1) === 1;
      const a = Math.floor(i / 3);
      const b = size - 11 + (i % 3);
      set(a, b, dark);
      set(b, a, dark);
    }
  }
  // The data, in two-module columns from the bottom right, up and down in turn.
  const words = codewords(bytes, version);
  const bits = words.flatMap((w) => Array.from({ length: 8 }, (_, i) => ((w >> (7 - i)) & 1) === 1));
  let k = 0;
  for (let right = size - 1, upward = true; right > 0; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step += 1) {
      const r = upward ? size - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        m[r][c] = k < bits.length ? bits[k] : false;
        k += 1;
      }
    }
  }
  /** @type {boolean[][] | null} */
  let best = null;
  let bestScore = Infinity;
  MASKS.forEach((mask, id) => {
    const out = m.map((row, r) => row.map((v, c) => (fixed[r][c] ? v : v !== mask(r, c))));
    const format = bch(id, 0x537, 10) ^ 0x5412; // level M: 00, then the mask's number
    /** @param {number} i */
    const bit = (i) => ((format >> i) & 1) === 1;
    // Around the top left finder (row, column), skipping the timing patterns...
    for (let i = 0; i <= 5; i += 1) out[i][8] = bit(i);
    out[7][8] = bit(6);
    out[8][8] = bit(7);
    out[8][7] = bit(8);
    for (let i = 9; i < 15; i += 1) out[8][14 - i] = bit(i);
    // ...and split between the other two.
    for (let i = 0; i < 8; i += 1) out[8][size - 1 - i] = bit(i);
    for (let i = 8; i < 15; i += 1) out[size - 15 + i][8] = bit(i);
    out[size - 8][8] = true;
    const score = penalty(out);
    if (score < bestScore) {
      bestScore = score;
      best = out;
    }
  });
  if (!best) throw new Error("no mask");
  return best;
}

/**
 * The QR code of `text` as an SVG image (with its quiet zone), labelled `label`.
 * @param {string} text
 * @param {string} label
 * @returns {SVGSVGElement}
 */
export function qrSvg(text, label) {
  const NS = "http://www.w3.org/2000/svg";
  const m = qrMatrix(text);
  const n = m.length + 8;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.classList.add("sk-qr");
  const back = document.createElementNS(NS, "rect");
  back.setAttribute("width", String(n));
  back.setAttribute("height", String(n));
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(NS, "path");
  const parts = [];
  for (let r = 0; r < m.length; r += 1) for (let c = 0; c < m.length; c += 1) if (m[r][c]) parts.push(`M${c + 4} ${r + 4}h1v1h-1z`);
  path.setAttribute("d", parts.join(""));
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
