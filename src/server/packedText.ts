/**
 * A piece of a big text kept compressed, by the server's process (piecedText.ts) and on its way to a worker:
 * deflate's fastest level leaves about a seventh of a kube-proxy dump (24 MB in 256 KB pieces: 3.4 MB; brotli's
 * quality 1, used before, 3.1 MB) at about 3 ms a megabyte. Brotli was as fast without the extension's allocator
 * settings, but with them (allocatorEnv.ts: every block from 128 KB a mapping of its own) each piece's brotli
 * state was fresh memory, page faults and all: packing the 10k-Service dump took 400 ms of CPU against deflate's
 * 70-150, most of the server's main thread while the dump's didOpen came. Apart from the LSP libraries: the worker
 * reads these too.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * A piece's characters as bytes, compressed: Latin-1 when every character fits a byte, else UTF-16 (both keep
 * every code unit as it is; a piece may end in half a surrogate pair, which UTF-8 would not keep).
 */
export interface Packed {
  bytes: Uint8Array;
  wide: boolean;
}

export function pack(piece: string): Packed {
  const wide = /[^\u0000-\u00ff]/.test(piece);
  return compress(Buffer.from(piece, wide ? 'utf16le' : 'latin1'), wide);
}

/** A piece given as its Latin-1 bytes (no string made of them): packed as `pack` packs the string they stand for. */
export function packLatin1(bytes: Uint8Array): Packed {
  return compress(bytes, false);
}

function compress(raw: Uint8Array, wide: boolean): Packed {
  return { bytes: deflateRawSync(raw, { level: 1 }), wide };
}

/** The characters of a packed piece. */
export function unpack(p: Packed): string {
  return inflateRawSync(p.bytes).toString(p.wide ? 'utf16le' : 'latin1');
}
