/**
 * What a MARK target's option does to the packet mark, in words an explanation can pick: `--set-xmark V/M`
 * is "clear M, then XOR V", so `0x4000/0x4000` sets a bit and kube-proxy's `0x4000/0x0` flips (clears) it.
 */
import { parseU32, parseValueMask } from './trace/values';

export type MarkEffectKind = 'set' | 'set-bits' | 'flip' | 'keep' | 'clear-then-flip' | 'clear-then-set';

export interface MarkEffect {
  kind: MarkEffectKind;
  /** The value as written (without the mask). */
  value: string;
  /** The mask as written, for the `clear-then-*` kinds. */
  mask?: string;
}

const U32 = 0xffffffff;

/** The effect of one MARK option (`set-xmark`, `set-mark`, `or-mark`, `xor-mark`, `and-mark`); undefined if unreadable. */
export function markEffect(option: string, written: string): MarkEffect | undefined {
  const [value, mask] = written.split('/');
  if (option === 'or-mark' || option === 'xor-mark' || option === 'and-mark') {
    if (parseU32(written) === undefined) return undefined;
    return { kind: option === 'or-mark' ? 'set-bits' : option === 'xor-mark' ? 'flip' : 'keep', value: written };
  }
  if (option !== 'set-xmark' && option !== 'set-mark') return undefined;
  const vm = parseValueMask(written);
  if (!vm) return undefined;
  if (vm.mask === U32) return { kind: 'set', value };
  // (mark & ~v) ^ v and (mark & ~v) | v both set v's bits; with no bits cleared, XOR flips and OR sets them.
  if (vm.mask === vm.value) return { kind: 'set-bits', value };
  if (vm.mask === 0) return { kind: option === 'set-xmark' ? 'flip' : 'set-bits', value };
  return { kind: option === 'set-xmark' ? 'clear-then-flip' : 'clear-then-set', value, mask };
}
