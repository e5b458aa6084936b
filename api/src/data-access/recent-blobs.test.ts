import { RecentBlobs } from './recent-blobs';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('the recent blobs a process remembers are bounded by bytes and by age', () => {
  it('recalls what it remembered, byte for byte', () => {
    const recent = new RecentBlobs(1024);
    recent.remember('a', bytes(100, 7));
    expect(recent.recall('a')).toEqual(bytes(100, 7));
  });

  it('drops the least recently used blobs once the byte bound is passed', () => {
    const recent = new RecentBlobs(300);
    recent.remember('a', bytes(100));
    recent.remember('b', bytes(100));
    recent.remember('c', bytes(100));
    recent.recall('a');
    recent.remember('d', bytes(100));
    expect(recent.recall('b')).toBeUndefined();
    expect([recent.recall('a'), recent.recall('c'), recent.recall('d')].every(Boolean)).toBe(true);
  });

  it('never holds a blob larger than its bound, and a bound of 0 holds nothing', () => {
    const small = new RecentBlobs(50);
    small.remember('big', bytes(51));
    expect(small.size).toBe(0);
    const none = new RecentBlobs(0);
    none.remember('a', bytes(1));
    expect(none.recall('a')).toBeUndefined();
  });

  it('forgets a blob older than its age limit', () => {
    let now = 0;
    const recent = new RecentBlobs(1024, 1_000, () => now);
    recent.remember('a', bytes(10));
    now = 1_001;
    expect(recent.recall('a')).toBeUndefined();
    expect(recent.size).toBe(0);
  });

  it('frees the bytes of a forgotten blob for others', () => {
    const recent = new RecentBlobs(200);
    recent.remember('a', bytes(150));
    recent.forget('a');
    recent.remember('b', bytes(150));
    recent.remember('a', bytes(40));
    expect(recent.recall('b')).toBeDefined();
    expect(recent.recall('a')).toBeDefined();
  });
});
