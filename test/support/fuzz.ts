import fc from 'fast-check';

// The property tests' budget (issue 28 point 8). In CI: a fixed seed and a short run, so a failure is the
// same failure on every machine. `npm run fuzz` (scripts/fuzz.mjs) sets ADBATCH_FUZZ=1 and a random seed for
// a longer run; ADBATCH_FUZZ_SEED replays one (fast-check also prints the seed and the path of a failure).

const FIXED_SEED = 20_261_127;
const fuzzing = process.env.ADBATCH_FUZZ === '1';
const seedFromEnv = Number.parseInt(process.env.ADBATCH_FUZZ_SEED ?? '', 10);

export const FUZZ_SEED = Number.isSafeInteger(seedFromEnv) ? seedFromEnv : FIXED_SEED;
export const FUZZ_RUNS = fuzzing ? Number(process.env.ADBATCH_FUZZ_RUNS ?? 20_000) : 150;

console.info(
  `fast-check: seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs a property (${fuzzing ? 'npm run fuzz' : 'CI budget'}); replay with ADBATCH_FUZZ_SEED=${FUZZ_SEED} npm run fuzz`,
);

/** Checks a property within the budget above; `runs` scales it for a costlier property. */
export function check<Ts>(property: fc.IRawProperty<Ts>, share = 1): void {
  fc.assert(property, { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(FUZZ_RUNS * share)) });
}

/**
 * Text as hostile input is made: any Unicode (whole graphemes, emoji, accents), or the characters that
 * matter to CSV files, spreadsheets and file names, many at once.
 */
export const hostileText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({
      unit: fc.constantFrom(
        '=',
        '+',
        '-',
        '@',
        '\t',
        '\r',
        '\n',
        ' ',
        '\u00a0',
        "'",
        '"',
        ',',
        ';',
        '/',
        '\\',
        ':',
        '*',
        '?',
        '<',
        '>',
        '|',
        '.',
        '..',
        '\u0000',
        '\u001f',
        '\u0085',
        'a',
        'Z',
        '0',
        '·',
        'é',
        'e\u0301',
        '😀',
        '👩‍👩‍👧',
        'CON',
        'nul',
        'LPT1',
        'com¹',
        '{',
        '}',
        '{product}',
        '{n:02}',
      ),
      maxLength,
    }),
  );
