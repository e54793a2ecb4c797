import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext, InvalidArgumentsError } from '@mcp-agent/core';
import { createManualClock } from '@mcp-agent/core/testing';
import { openRegistry, type Registry } from '../../index.js';
import { randomKey } from '../../testing/test-registry.js';
import { dialects, reportSkippedPostgres } from './dialects.js';

const clock = createManualClock();
const alice = createContext({ userId: 'alice', clock });
const bob = createContext({ userId: 'bob', clock });
const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const vector = (...values: number[]) => Float32Array.from(values);

reportSkippedPostgres();

describe.each(dialects)('embedding cache on $name', (dialect) => {
  let registry: Registry;
  beforeEach(async () => {
    registry = await dialect.open();
  });
  afterEach(async () => {
    await registry.close();
  });

  it('returns exactly the vectors stored, by model and content hash', async () => {
    const values = vector(0.1, -2.5, 3.4028234663852886e38, 1e-45, 0);
    await registry.embeddings.put(alice, 'model-a', [
      { contentHash: hash('create an issue'), vector: values },
      { contentHash: hash('send an email'), vector: vector(1, 2, 3, 4, 5) },
    ]);
    const found = await registry.embeddings.get(alice, 'model-a', [
      hash('create an issue'),
      hash('never embedded'),
    ]);
    expect([...found.keys()]).toEqual([hash('create an issue')]);
    expect(found.get(hash('create an issue'))).toEqual(values);
    // Another model's vectors of the same text are another entry.
    expect((await registry.embeddings.get(alice, 'model-b', [hash('send an email')])).size).toBe(0);
    expect(await registry.embeddings.count('model-a')).toBe(2);
  });

  it('is shared by every tenant: a text embedded for one is never embedded for another', async () => {
    await registry.embeddings.put(alice, 'model-a', [
      { contentHash: hash('list files'), vector: vector(1, 0) },
    ]);
    const forBob = await registry.embeddings.get(bob, 'model-a', [hash('list files')]);
    expect(forBob.get(hash('list files'))).toEqual(vector(1, 0));
  });

  it('keeps the first vector of a hash, and refuses keys and vectors it cannot trust', async () => {
    await registry.embeddings.put(alice, 'm', [{ contentHash: hash('x'), vector: vector(1) }]);
    await registry.embeddings.put(alice, 'm', [{ contentHash: hash('x'), vector: vector(2) }]);
    expect((await registry.embeddings.get(alice, 'm', [hash('x')])).get(hash('x'))).toEqual(
      vector(1),
    );
    await expect(
      registry.embeddings.put(alice, 'm', [{ contentHash: 'not-a-hash', vector: vector(1) }]),
    ).rejects.toBeInstanceOf(InvalidArgumentsError);
    await expect(
      registry.embeddings.put(alice, 'm', [{ contentHash: hash('y'), vector: vector(1, NaN) }]),
    ).rejects.toThrow(/finite numbers/);
    expect(await registry.embeddings.count()).toBe(1);
  });

  it('reads and writes past the per-statement parameter caps', async () => {
    const entries = Array.from({ length: 1_203 }, (_, i) => ({
      contentHash: hash(`tool ${i}`),
      vector: vector(i, -i),
    }));
    await registry.embeddings.put(alice, 'm', entries);
    const found = await registry.embeddings.get(
      alice,
      'm',
      entries.map((e) => e.contentHash),
    );
    expect(found.size).toBe(1_203);
    expect(found.get(hash('tool 1202'))).toEqual(vector(1202, -1202));
  });

  it('prunes the least recently used vectors past a bound', async () => {
    for (const text of ['a', 'b', 'c', 'd']) {
      await registry.embeddings.put(alice, 'm', [{ contentHash: hash(text), vector: vector(1) }]);
      clock.advance(1_000);
    }
    // Reading "a" makes it recent again.
    await registry.embeddings.get(alice, 'm', [hash('a')]);
    clock.advance(1_000);
    expect(await registry.embeddings.prune(2)).toBe(2);
    const left = await registry.embeddings.get(alice, 'm', ['a', 'b', 'c', 'd'].map(hash));
    expect([...left.keys()].sort()).toEqual([hash('a'), hash('d')].sort());
    expect(await registry.embeddings.prune(10)).toBe(0);
  });
});

describe('embedding cache across a restart', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mcp-agent-embeddings-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it('a vector stored by one process is read by the next one on the same database', async () => {
    const open = () =>
      openRegistry({
        url: join(home, 'db.sqlite'),
        home,
        env: { MCP_AGENT_SECRET_KEY: randomKey() },
      });
    const first = await open();
    await first.embeddings.put(alice, 'm', [{ contentHash: hash('t'), vector: vector(0.5) }]);
    await first.close();
    const second = await open();
    try {
      expect((await second.embeddings.get(bob, 'm', [hash('t')])).get(hash('t'))).toEqual(
        vector(0.5),
      );
    } finally {
      await second.close();
    }
  });
});
