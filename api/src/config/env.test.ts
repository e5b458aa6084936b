import { ConfigError, loadConfig } from './env';

const valid = { MONGODB_URI: 'mongodb://127.0.0.1:27017/bv', REDIS_URL: 'redis://127.0.0.1:6379', SECRET_ENCRYPTION_KEY: 'k'.repeat(32), CAPTURE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config).toMatchObject({ PORT: 8080, SESSION_EXPIRY_MINUTES: 30, WEBHOOK_RETRY_INTERVAL_SECONDS: 30, WEBHOOK_ALLOW_PRIVATE_NETWORKS: false });
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:8080');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'http://nope', SESSION_EXPIRY_MINUTES: '-5', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes', CAPTURE_ENCRYPTION_KEY: 'c2hvcnQ=' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
    expect(named).toEqual(['CAPTURE_ENCRYPTION_KEY', 'MONGODB_URI', 'PORT', 'REDIS_URL', 'SECRET_ENCRYPTION_KEY', 'SESSION_EXPIRY_MINUTES', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS']);
  });

  it('drops a trailing slash from PUBLIC_BASE_URL so verification URLs have one slash', () => {
    expect(loadConfig({ ...valid, PUBLIC_BASE_URL: 'https://verify.example.com/' }).PUBLIC_BASE_URL).toBe('https://verify.example.com');
  });
});
