import { ConfigError, loadConfig } from './env';

const valid = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/bv',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SECRET_ENCRYPTION_KEY: 'k'.repeat(32),
  CAPTURE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  PII_MASTER_KEYS: `k1:${Buffer.alloc(32, 9).toString('base64')}`,
};

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config).toMatchObject({
      PORT: 8080,
      SESSION_EXPIRY_MINUTES: 30,
      WEBHOOK_RETRY_INTERVAL_SECONDS: 30,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
    });
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:8080');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        REDIS_URL: 'http://nope',
        SESSION_EXPIRY_MINUTES: '-5',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes',
        CAPTURE_ENCRYPTION_KEY: 'c2hvcnQ=',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
    expect(named).toEqual([
      'CAPTURE_ENCRYPTION_KEY',
      'MONGODB_URI',
      'PII_MASTER_KEYS',
      'PORT',
      'REDIS_URL',
      'SECRET_ENCRYPTION_KEY',
      'SESSION_EXPIRY_MINUTES',
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
    ]);
  });

  it('refuses PII master keys that are not 32 bytes or repeat an id, and takes the first as the sealing key', () => {
    const short = `k1:${Buffer.alloc(16).toString('base64')}`;
    const twice = `k1:${Buffer.alloc(32, 1).toString('base64')},k1:${Buffer.alloc(32, 2).toString('base64')}`;
    for (const value of [short, twice, 'no-colon'])
      expect(() => loadConfig({ ...valid, PII_MASTER_KEYS: value })).toThrow(/PII_MASTER_KEYS/);
    expect(
      loadConfig({
        ...valid,
        PII_MASTER_KEYS: `new:${Buffer.alloc(32, 1).toString('base64')},old:${Buffer.alloc(32, 2).toString('base64')}`,
      }).PII_MASTER_KEYS,
    ).toMatch(/^new:/);
  });

  it('drops a trailing slash from PUBLIC_BASE_URL so verification URLs have one slash', () => {
    expect(loadConfig({ ...valid, PUBLIC_BASE_URL: 'https://verify.example.com/' }).PUBLIC_BASE_URL).toBe(
      'https://verify.example.com',
    );
  });

  it('refuses CHIP_TRUST_ANCHORS naming a path that does not exist, and takes existing ones', () => {
    expect(() => loadConfig({ ...valid, CHIP_TRUST_ANCHORS: '/nonexistent/csca.pem' })).toThrow(
      /CHIP_TRUST_ANCHORS: \/nonexistent\/csca.pem does not exist/,
    );
    expect(loadConfig({ ...valid, CHIP_TRUST_ANCHORS: `${__dirname}, ${__filename}` }).CHIP_TRUST_ANCHORS).toBe(
      `${__dirname}, ${__filename}`,
    );
  });
});
