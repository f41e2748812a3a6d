/**
 * A fixed arithmetic loop timed between the measurements of a figure (issue 16 item 1): the same
 * work in every run and on every machine, so `figure / calibration` stays comparable when the
 * absolute times swing with a busy neighbour. Sample it at the natural breaks of a measurement
 * (between batches or runs), so both see the same load.
 *
 * The loop is sized like one sample of the figure: on a busy machine a process loses the CPU
 * every few milliseconds, so a 1 ms loop beside 200 ms turns would mostly run undisturbed while
 * the turns never do, and the ratio would follow the load again.
 */

/** ms per million iterations where the targets were set (the 2-core project machine, fastest of 300 runs). */
const REFERENCE_MS_PER_MILLION = 0.96;

function loopMs(iterations: number): number {
  const start = process.hrtime.bigint();
  let x = 1;
  for (let i = 0; i < iterations; i += 1) x = (Math.imul(x, 48271) + i) | 0;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // Keeps the loop from being optimised away.
  if (x === 0.5) console.log(x);
  return ms;
}

export class Calibration {
  private readonly samples: number[] = [];
  private readonly iterations: number;

  /** `sampleMs`: about as long as one sample of the figure takes on an idle machine. */
  constructor(sampleMs: number) {
    this.iterations = Math.max(10_000, Math.round((sampleMs / REFERENCE_MS_PER_MILLION) * 1e6));
    for (let i = 0; i < 5; i += 1) loopMs(this.iterations); // optimised before the first sample counts
  }

  sample(): void {
    this.samples.push(loopMs(this.iterations));
  }

  /** Median of the samples, ms. */
  get ms(): number {
    if (this.samples.length === 0) this.sample();
    const s = [...this.samples].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  }

  /**
   * `calibration loop 1.02 ms in the same run (median of 9); ratio 0.456 (target ≤ 1.04)` for a
   * figure and its target in ms. `opsPerSample`: how many operations one sample of the figure
   * covers (the figure is per operation), so the ratio compares like with like. The ratio target
   * is the ms target over the loop's time where the targets were set.
   */
  describe(figureMs: number, targetMs: number, opsPerSample = 1): string {
    const reference = (this.iterations / 1e6) * REFERENCE_MS_PER_MILLION;
    const per = opsPerSample === 1 ? '' : ` per ${opsPerSample}-operation sample`;
    return `calibration loop ${this.ms.toFixed(2)} ms${per} in the same run (median of ${this.samples.length}); ratio ${((figureMs * opsPerSample) / this.ms).toFixed(3)} (target ≤ ${((targetMs * opsPerSample) / reference).toFixed(3)})`;
  }
}
