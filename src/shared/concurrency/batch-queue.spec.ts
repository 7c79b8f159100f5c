import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchQueue } from './batch-queue.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Takes every queued piece as one batch; each batch runs until the test finishes it. */
class HeldBatches extends BatchQueue<number> {
  readonly running: { batch: number[]; finish: () => void }[] = [];

  submit(piece: number): void {
    this.enqueue(piece);
  }

  protected takeBatch(): number[] {
    return this.queue.splice(0);
  }

  protected runBatch(batch: number[]): Promise<void> {
    return new Promise((finish) => this.running.push({ batch, finish: () => finish() }));
  }
}

describe('BatchQueue', () => {
  it('counts as pending the work queued and the work in batches under way, until their batch ends', async () => {
    const batches = new HeldBatches(2);
    assert.equal(batches.pending, 0);
    batches.submit(1);
    batches.submit(2);
    await settled();
    batches.submit(3);
    await settled();
    assert.equal(batches.running.length, 2);
    assert.equal(batches.pending, 3, 'two batches under way');
    batches.submit(4);
    batches.submit(5);
    assert.equal(batches.pending, 5, 'and two waiting for one of them to end');
    batches.running[0]!.finish();
    await settled();
    await settled();
    assert.deepEqual(batches.running[2]!.batch, [4, 5], 'what waited goes as one batch when one ends');
    assert.equal(batches.pending, 3);
    batches.running[1]!.finish();
    batches.running[2]!.finish();
    await settled();
    assert.equal(batches.pending, 0);
  });
});
