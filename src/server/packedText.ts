/**
 * A piece of a big text kept compressed, by the server's process (piecedText.ts) and on its way to a worker:
 * brotli's quality 1 takes about 2 ms a megabyte of a kube-proxy dump and leaves a seventh of it (zlib's fastest
 * level took 3 ms a megabyte). Apart from the LSP libraries: the worker reads these too.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

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
  const bytes = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  return { bytes, wide };
}

/** The characters of a packed piece. */
export function unpack(p: Packed): string {
  return brotliDecompressSync(p.bytes).toString(p.wide ? 'utf16le' : 'latin1');
}
