import { describe, expect, it } from 'vitest';
import { DecodeGate } from '../../../../src-main/core/ingest/decode-gate.ts';

/** A piece of work that runs until `finish` is called, noting when it starts and ends. */
function work(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
    },
    finish: () => finish(),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the decode gate', () => {
  it('runs a lone decode once those beside each other have ended, and holds new ones until it ends', async () => {
    const gate = new DecodeGate();
    const log: string[] = [];
    const [a, b, lone, c] = ['a', 'b', 'lone', 'c'].map((name) => work(log, name));
    const running = [gate.beside(a!.run), gate.beside(b!.run)];
    await turn();
    const alone = gate.alone(lone!.run);
    const later = gate.beside(c!.run);
    await turn();
    expect(log).toEqual(['a starts', 'b starts']);
    a!.finish();
    await turn();
    expect(log).toEqual(['a starts', 'b starts', 'a ends']);
    b!.finish();
    await turn();
    expect(log).toEqual(['a starts', 'b starts', 'a ends', 'b ends', 'lone starts']);
    lone!.finish();
    await alone;
    await turn();
    expect(log.slice(-2)).toEqual(['lone ends', 'c starts']);
    c!.finish();
    await Promise.all([...running, later]);
  });

  it('runs two lone decodes one after the other, and lets go after a failure', async () => {
    const gate = new DecodeGate();
    const log: string[] = [];
    const first = work(log, 'first');
    const started = gate.alone(first.run);
    const failing = gate.alone(async () => {
      log.push('second starts');
      throw new Error('corrupt');
    });
    await turn();
    expect(log).toEqual(['first starts']);
    first.finish();
    await started;
    await expect(failing).rejects.toThrow('corrupt');
    expect(await gate.beside(async () => 'after')).toBe('after');
    expect(log).toEqual(['first starts', 'first ends', 'second starts']);
  });
});
