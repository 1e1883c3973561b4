// Generic or per-run plans, decided per statement by timing both.
//
// The engine marks a statement whose best plan depends on its values (a filtered, ordered, limited
// list). PostgreSQL can keep one generic plan for it, made once without the values, or plan each run
// for its values. The generic plan is dearer when its guesses are wrong (a skewed filter; a LIMIT
// that is a parameter); the per-run plan costs a planning every time (bench Q4: about as much as
// the execution). Which is cheaper depends on the data and the values. PostgreSQL's own 'auto' mode
// compares estimated costs, and the generic plan's estimate is the guess that misleads. So this
// times the statement both ways on real runs, in turns, and compares their lower quartiles: under
// load a run's time is mostly waiting for a CPU, and the quick runs show what the plan itself
// costs. Per-run plans must win clearly (by a fifth); where the two are close, the generic plan
// spares PostgreSQL the planning. It measures again now and then, since data and values change.

/** Runs per mode before a choice: enough that the first run on each pooled connection (which also parses, and for the generic plan plans) cannot move the lower quartile. */
export const SAMPLES = 48;
/** Runs between two rounds of measuring. */
export const RECHECK_EVERY = 50_000;
/**
 * Runs on the generic plan before the first round of measuring. A statement's first runs come as
 * a server starts: connections open, backends load their catalog caches, code is not yet
 * optimized, and every run waits milliseconds for a CPU, which hides the plans' difference of a
 * fraction of one (bench Q4: per-run plans were chosen in one start out of three, and halved the
 * throughput until the next round).
 */
export const WARMUP = 200;

/** The choice for one statement. */
export class PlanChoice {
  private generic: number[] = [];
  private custom: number[] = [];
  private issued = 0;
  private sinceChoice = 0;
  private choice: boolean | null = null;

  constructor(private readonly samples = SAMPLES, private readonly recheckEvery = RECHECK_EVERY, private warmup = WARMUP) {}

  /** True when the next run should be planned for its values. */
  next(): boolean {
    if (this.warmup > 0) {
      this.warmup--;
      return false;
    }
    if (this.choice !== null) {
      if (++this.sinceChoice < this.recheckEvery) return this.choice;
      this.choice = null;
      this.generic = [];
      this.custom = [];
    }
    return this.issued++ % 2 === 1;
  }

  /** Records how long a run took (ms, from sending the statement to its answer). */
  record(custom: boolean, ms: number): void {
    if (this.choice !== null || this.warmup > 0) return;
    const times = custom ? this.custom : this.generic;
    if (times.length < this.samples) times.push(ms);
    if (this.generic.length < this.samples || this.custom.length < this.samples) return;
    this.choice = lowerQuartile(this.custom) < CLEAR_WIN * lowerQuartile(this.generic);
    this.sinceChoice = 0;
  }

  /** True while the first runs go to the generic plan unmeasured (WARMUP). */
  get warming(): boolean {
    return this.warmup > 0;
  }

  /** The mode chosen (true: per-run plans), or null while measuring. */
  get chosen(): boolean | null {
    return this.choice;
  }
}

/**
 * Per-run plans are chosen only when their lower quartile is below this share of the generic
 * plan's. The case they are for, a generic plan that reads far more rows than the values need, is
 * many times slower; where the two are within a factor of two, a run's time under load is mostly
 * waiting, and the generic plan spares PostgreSQL the planning.
 */
const CLEAR_WIN = 0.5;

function lowerQuartile(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 4)]!;
}

/** The choices of a driver, by statement name; bounded so that a server with endless distinct statements cannot grow it forever. */
export class PlanChoices {
  private readonly byName = new Map<string, PlanChoice>();

  constructor(private readonly max = 10_000) {}

  for(name: string): PlanChoice {
    let c = this.byName.get(name);
    if (!c) {
      if (this.byName.size >= this.max) this.byName.clear();
      c = new PlanChoice();
      this.byName.set(name, c);
    }
    return c;
  }
}
