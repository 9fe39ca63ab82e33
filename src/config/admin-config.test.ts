import { describe, expect, it } from 'vitest';
import { normalizeAdminConfig } from './admin-config.js';

const lifetimes = (auth: Record<string, unknown>) => {
  const {
    accessTokenLifespan,
    maxRefreshTokenLifespan,
    idleRefreshTokenLifespan,
    maxSessionLifespan,
    idleSessionLifespan,
  } = normalizeAdminConfig({ apiToken: { salt: 'salt' }, auth }).auth;
  return {
    accessTokenLifespan,
    maxRefreshTokenLifespan,
    idleRefreshTokenLifespan,
    maxSessionLifespan,
    idleSessionLifespan,
  };
};
const DAY = 86400;

describe('normalizeAdminConfig: session lifetimes (config/admin auth.sessions)', () => {
  it("defaults to Strapi 5.54's: 30 min access, 14 d idle / 30 d refresh, 2 h idle / 30 d session", () => {
    expect(lifetimes({})).toEqual({
      accessTokenLifespan: 1800,
      maxRefreshTokenLifespan: 30 * DAY,
      idleRefreshTokenLifespan: 14 * DAY,
      maxSessionLifespan: 30 * DAY,
      idleSessionLifespan: 2 * 3600,
    });
  });

  it('bounds both maximums by the legacy expiresIn when they are unset, as Strapi does', () => {
    expect(lifetimes({ options: { expiresIn: '7d' } })).toMatchObject({
      maxRefreshTokenLifespan: 7 * DAY,
      maxSessionLifespan: 7 * DAY,
    });
    // auth.sessions.options wins over auth.options; a string of digits is seconds there.
    expect(lifetimes({ options: { expiresIn: '7d' }, sessions: { options: { expiresIn: '3600' } } })).toMatchObject({
      maxRefreshTokenLifespan: 3600,
      maxSessionLifespan: 3600,
    });
    expect(lifetimes({ options: { expiresIn: '7d' }, sessions: { maxSessionLifespan: 60 } })).toMatchObject({
      maxRefreshTokenLifespan: 7 * DAY,
      maxSessionLifespan: 60,
    });
  });

  it('refuses a legacy expiresIn that is no span, naming the setting', () => {
    expect(() => lifetimes({ options: { expiresIn: 'soon' } })).toThrow(/auth\.options\.expiresIn/);
  });
});
