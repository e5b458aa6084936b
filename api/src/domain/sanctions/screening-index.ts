import { ScreenedList, ScreeningHit, ScreeningSubject } from '../ports/sanctions-screening';
import { nameScore, Similarity, tokenSimilarity } from './name-score';
import { nameTokens } from './name-tokens';
import { dobAdjustment, nationalityAdjustment } from './qualifiers';
import { PackedStrings } from './packed-strings';
import { blockingKeys, TokenPostings } from './token-postings';
import { LoadedList } from './watchlist-entry';

/** How many blocked candidates are scored in full; the rest cannot outrank them on shared keys. */
const CANDIDATES_SCORED = 200;
/** A key on more than this share of rows only strengthens candidates, it does not add any. */
const COMMON_KEY_SHARE = 0.005;
const MIN_COMMON_KEY_ROWS = 2000;

export interface IndexVerdict {
  score: number;
  best: ScreeningHit | null;
}

/**
 * Every name and alias of every loaded list, held compactly (token ids in typed arrays) so a
 * process can screen a million persons in memory. Screening blocks on shared token keys (a
 * token, its first and its last three letters), ranks the rows by how many and how rare the
 * query tokens they share are, and scores the best few hundred in full.
 */
export class ScreeningIndex {
  readonly lists: ScreenedList[];
  readonly entryCount: number;
  readonly rowCount: number;
  private readonly vocabulary: string[] = [];
  private readonly rowEntry: Int32Array;
  private readonly rowTokenStart: Int32Array;
  private readonly rowTokens: Int32Array;
  private readonly rowName = new PackedStrings();
  private readonly entryList: Uint16Array;
  private readonly entryId = new PackedStrings();
  /** Per entry, its dates and its nationalities joined with commas. */
  private readonly entryDobs = new PackedStrings();
  private readonly entryNationalities = new PackedStrings();
  private readonly postings = new TokenPostings();
  private readonly weight: Float32Array;
  /** Which query tokens (bit per token, 32 at most) already counted for a row. */
  private readonly tokenMask: Uint32Array;

  constructor(lists: LoadedList[]) {
    this.lists = lists.map(({ name, version }) => ({ name, version }));
    const vocabularyIds = new Map<string, number>();
    const rowEntry: number[] = [];
    const rowTokenStart: number[] = [0];
    const rowTokens: number[] = [];
    const entryList: number[] = [];
    lists.forEach((list, listIndex) => {
      for (const entry of list.entries) {
        const entryIndex = this.entryId.push(entry.id);
        entryList.push(listIndex);
        this.entryDobs.push(entry.dobs.join(','));
        this.entryNationalities.push(entry.nationalities.join(','));
        const seen = new Set<string>();
        for (const name of entry.names) {
          const tokens = nameTokens(name);
          const signature = tokens.join(' ');
          if (tokens.length === 0 || seen.has(signature)) continue;
          seen.add(signature);
          const row = rowEntry.length;
          rowEntry.push(entryIndex);
          this.rowName.push(name);
          for (const token of tokens) {
            let id = vocabularyIds.get(token);
            if (id === undefined) {
              id = this.vocabulary.length;
              this.vocabulary.push(token);
              vocabularyIds.set(token, id);
            }
            rowTokens.push(id);
            for (const key of blockingKeys(token)) this.postings.add(key, row);
          }
          rowTokenStart.push(rowTokens.length);
        }
      }
    });
    this.postings.freeze();
    for (const packed of [this.rowName, this.entryId, this.entryDobs, this.entryNationalities]) packed.freeze();
    this.rowEntry = Int32Array.from(rowEntry);
    this.rowTokenStart = Int32Array.from(rowTokenStart);
    this.rowTokens = Int32Array.from(rowTokens);
    this.entryList = Uint16Array.from(entryList);
    this.entryCount = entryList.length;
    this.rowCount = rowEntry.length;
    this.weight = new Float32Array(this.rowCount);
    this.tokenMask = new Uint32Array(this.rowCount);
  }

  screen(subject: ScreeningSubject): IndexVerdict {
    const query = nameTokens(subject.name).slice(0, 32);
    let best: IndexVerdict = { score: 0, best: null };
    if (query.length === 0) return best;
    // Candidates share tokens ("muhammad"), so each token pair is compared once per screening.
    const known = new Map<string, number>();
    const similarity = (a: string, b: string) => {
      const key = `${a} ${b}`;
      let value = known.get(key);
      if (value === undefined) known.set(key, (value = tokenSimilarity(a, b)));
      return value;
    };
    for (const row of this.candidates(query)) {
      const verdict = this.scoreRow(row, query, subject, similarity);
      if (verdict.score > best.score) best = verdict;
    }
    return best;
  }

  /**
   * Rows sharing keys with the query, weighted by rarity; each query token counts once per row
   * (its rarest key that hits). Keys held by more than COMMON_KEY_SHARE of the rows ("ova",
   * "maria" in a million names) only add weight to rows a rarer key found, so a screening never
   * walks a hundred thousand candidates; if every key is common, the rarest one still finds.
   */
  private candidates(query: string[]): number[] {
    const keyed = query
      .flatMap((token, q) => blockingKeys(token).map((key) => ({ q, rows: this.postings.rows(key) })))
      .filter((key): key is { q: number; rows: Int32Array } => key.rows !== undefined)
      .sort((a, b) => a.rows.length - b.rows.length);
    const common = Math.max(MIN_COMMON_KEY_ROWS, this.rowCount * COMMON_KEY_SHARE);
    const touched: number[] = [];
    keyed.forEach(({ q, rows }, index) => {
      const finds = index === 0 || rows.length <= common;
      const bit = 1 << q;
      const rarity = Math.log(1 + this.rowCount / rows.length);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const seen = this.tokenMask[row];
        if (seen & bit) continue;
        if (seen === 0) {
          if (!finds) continue;
          touched.push(row);
        }
        this.tokenMask[row] = seen | bit;
        this.weight[row] = this.weight[row] + rarity;
      }
    });
    const chosen = this.heaviest(touched, CANDIDATES_SCORED);
    for (const row of touched) {
      this.weight[row] = 0;
      this.tokenMask[row] = 0;
    }
    return chosen;
  }

  /** The `count` rows with the most (and rarest) keys in common, without sorting them all. */
  private heaviest(touched: number[], count: number): number[] {
    if (touched.length <= count) return touched;
    const weights = Float32Array.from(touched, (row) => this.weight[row]);
    const cut = kthLargest(weights, count);
    const above = touched.filter((row) => this.weight[row] > cut);
    for (const row of touched) if (above.length < count && this.weight[row] === cut) above.push(row);
    return above;
  }

  private scoreRow(row: number, query: string[], subject: ScreeningSubject, similarity: Similarity): IndexVerdict {
    const tokens: string[] = [];
    for (let i = this.rowTokenStart[row]; i < this.rowTokenStart[row + 1]; i++) {
      tokens.push(this.vocabulary[this.rowTokens[i]]);
    }
    const names = nameScore(query, tokens, similarity);
    if (names === 0) return { score: 0, best: null };
    const entry = this.rowEntry[row];
    const adjusted =
      names +
      dobAdjustment(subject.dob, splitList(this.entryDobs.get(entry))) +
      nationalityAdjustment(subject.nationality, splitList(this.entryNationalities.get(entry)));
    const score = Math.round(Math.min(1, Math.max(0, adjusted)) * 1000) / 1000;
    return {
      score,
      best: {
        list: this.lists[this.entryList[entry]]?.name,
        entry_id: this.entryId.get(entry),
        matched_name: this.rowName.get(row),
        score,
      },
    };
  }
}

const splitList = (joined: string): string[] => (joined ? joined.split(',') : []);

/** Quickselect (Hoare): the k-th largest value; `values` is reordered. */
function kthLargest(values: Float32Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] > pivot) i++;
      while (values[j] < pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i++] = values[j];
        values[j--] = swap;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}
