import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl (request log lines)', () => {
  it('replaces the value of access_token, however its name is spelled, and keeps the rest', () => {
    expect(redactUrl('/api/articles/stream?access_token=abc&lastEventId=1')).toBe(
      '/api/articles/stream?access_token=[REDACTED]&lastEventId=1',
    );
    expect(redactUrl('/api/a?x=1&access%5Ftoken=abc&access_token[0]=def')).toBe(
      '/api/a?x=1&access%5Ftoken=[REDACTED]&access_token[0]=[REDACTED]',
    );
    expect(redactUrl('/api/a?access_token')).toBe('/api/a?access_token=[REDACTED]');
    expect(redactUrl('/api/a?filters[title]=access_token&%E0=1')).toBe('/api/a?filters[title]=access_token&%E0=1');
    expect(redactUrl('/api/a')).toBe('/api/a');
  });
});
