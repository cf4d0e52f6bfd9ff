/**
 * SHA-256 (FIPS 180-4) of a string's UTF-8 bytes. kube-proxy names chains by hashing short strings, and a big dump
 * needs tens of thousands of those hashes. A face that has a one-shot native hash (node:crypto's `hash`, about
 * 1 µs a call) may give it: code that has not warmed up yet takes 20 µs a hash here, 10 ms for the 500 Services of
 * a small dump. Without one, or where the runtime has none, it is computed in plain TypeScript; buffers are reused,
 * so a call allocates only its 32-byte result.
 */
export type Sha256 = (text: string) => Uint8Array;

/** What gives the native hash, asked at the first hash (loading it costs milliseconds a command may not need). */
let nativeSha256: (() => Sha256 | undefined) | undefined;
/** The hash in use once the first was asked. */
let chosen: Sha256 | undefined;

export function useNativeSha256(load: () => Sha256 | undefined): void {
  nativeSha256 = load;
  chosen = undefined;
}

export function sha256(text: string): Uint8Array {
  return (chosen ??= nativeSha256?.() ?? sha256InScript)(text);
}

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Int32Array(64);
const h = new Int32Array(8);
let bytes = new Uint8Array(256);

/** UTF-8 bytes of `s` into the shared buffer, followed by the SHA-256 padding; returns the padded length. */
function load(s: string): number {
  let n = 0;
  const ensure = (extra: number) => {
    if (n + extra + 72 > bytes.length) {
      const b = new Uint8Array((n + extra + 72) * 2);
      b.set(bytes.subarray(0, n));
      bytes = b;
    }
  };
  ensure(s.length * 3);
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) bytes[n++] = c;
    else if (c < 0x800) {
      bytes[n++] = 0xc0 | (c >> 6);
      bytes[n++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          bytes[n++] = 0xf0 | (c >> 18);
          bytes[n++] = 0x80 | ((c >> 12) & 63);
          bytes[n++] = 0x80 | ((c >> 6) & 63);
          bytes[n++] = 0x80 | (c & 63);
          continue;
        }
      }
      // A lone surrogate encodes as U+FFFD, as TextEncoder and Buffer do.
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      bytes[n++] = 0xe0 | (c >> 12);
      bytes[n++] = 0x80 | ((c >> 6) & 63);
      bytes[n++] = 0x80 | (c & 63);
    }
  }
  const bitLength = n * 8;
  bytes[n++] = 0x80;
  while (n % 64 !== 56) bytes[n++] = 0;
  // Message length in bits, big-endian 64-bit (strings here are far below 2^32 bits).
  const high = Math.floor(bitLength / 0x100000000);
  for (let i = 3; i >= 0; i--) bytes[n++] = (high >>> (i * 8)) & 255;
  for (let i = 3; i >= 0; i--) bytes[n++] = (bitLength >>> (i * 8)) & 255;
  return n;
}

function sha256InScript(s: string): Uint8Array {
  const n = load(s);
  for (let i = 0; i < 8; i++) h[i] = H0[i];
  for (let off = 0; off < n; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h[0];
    let b = h[1];
    let c = h[2];
    let d = h[3];
    let e = h[4];
    let f = h[5];
    let g = h[6];
    let hh = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0;
    h[5] = (h[5] + f) | 0;
    h[6] = (h[6] + g) | 0;
    h[7] = (h[7] + hh) | 0;
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = (h[i] >>> 16) & 255;
    out[i * 4 + 2] = (h[i] >>> 8) & 255;
    out[i * 4 + 3] = h[i] & 255;
  }
  return out;
}
