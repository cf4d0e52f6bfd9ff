// The memory backstop: past its share of the heap limit, the engine's checkpoints stop the work with a message in
// the person's language, instead of V8 ending the process with a crash. The limit is lowered over the real heap.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { InputTooLarge, watchMemory, type HeapProbe } from '../../../src/cli/memoryBackstop';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { setMemoryCheck } from '../../../src/core/common/memoryCheck';
import { oneChainListing } from '../../helpers/dumps';

const listing = (rows: number) => oneChainListing(rows, (i) => `ns/s${i}:p`);

/** The real heap with `room` bytes more than is live now as its limit's stopping share. */
function heapWithRoom(room: number): HeapProbe {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const live = getHeapStatistics().used_heap_size;
  return { limit: (live + room) / 0.7, used: () => getHeapStatistics().used_heap_size, collect: gc };
}

afterEach(() => setMemoryCheck(undefined));

test('a listing too large for the heap stops inside its parse with a message naming the file and the memory', () => {
  const text = listing(60_000);
  watchMemory('big.txt', 'en', heapWithRoom(16 * 1024 * 1024));
  assert.throws(
    () => analyzeText(text),
    (e: unknown) =>
      e instanceof InputTooLarge &&
      // Stopped while the listing's rows were read, not once all of them were kept.
      /parseListingBlock/.test(e.stack ?? '') &&
      /^big\.txt is too large for kpp: \d+ MB of memory used reading it, of the \d+ MB Node allows; grep the chains you need first$/.test(
        e.message,
      ),
  );
});

test('the message is in the language asked for', () => {
  watchMemory('big.txt', 'zh-CN', heapWithRoom(16 * 1024 * 1024));
  assert.throws(
    () => analyzeText(listing(60_000)),
    (e: unknown) => e instanceof InputTooLarge && /^big\.txt 对 kpp 来说太大：读取它已用 \d+ MB 内存/.test(e.message),
  );
});

test('between phases: an analysis that fits stops before lint when the heap has no room left for it', () => {
  const a = analyzeText(listing(2_000));
  watchMemory('big.txt', 'en', heapWithRoom(-1024 * 1024));
  assert.throws(() => diagnosticsOf(a, 'en'), InputTooLarge);
});

test('with room to spare the same listing is read and linted as without the backstop', () => {
  const text = listing(5_000);
  const unwatched = diagnosticsOf(analyzeText(text), 'en');
  watchMemory('big.txt', 'en', heapWithRoom(1024 * 1024 * 1024));
  assert.deepEqual(diagnosticsOf(analyzeText(text), 'en'), unwatched);
});
