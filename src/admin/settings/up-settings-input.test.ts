import { describe, expect, it } from 'vitest';
import { isValidEmailTemplate, parseAdvancedSettings, parseProviders } from './up-settings-input.js';

describe('isValidEmailTemplate', () => {
  it.each([
    ['<p><%= URL %>?code=<%= TOKEN %></p>', true],
    ['Hello <%=USER.username%>, <%= SERVER_URL %> <%= CODE %>', true],
    ['<%= USER.password %>', false],
    ['<% process.exit() %>', false],
    ['<%- URL %>', false],
    ['${process.env.JWT_SECRET}', false],
  ])('%s → %s', (template, valid) => {
    expect(isValidEmailTemplate(template)).toBe(valid);
  });
});

describe('parseAdvancedSettings', () => {
  const stored = { unique_email: true, allow_register: true, default_role: 'authenticated', extra: 1 };
  const types = ['authenticated', 'public'];

  it('applies the known keys to the stored settings and ignores the others', () => {
    expect(parseAdvancedSettings({ allow_register: false, other: 2 }, stored, {}, types)).toEqual({
      ...stored,
      allow_register: false,
    });
  });

  it("stores a switch the panel's Clear button sent as null as false", () => {
    expect(parseAdvancedSettings({ unique_email: null }, stored, {}, types)).toMatchObject({ unique_email: false });
  });

  it('refuses to change a setting given as code, and accepts it sent unchanged', () => {
    expect(() => parseAdvancedSettings({ allow_register: true }, stored, { allow_register: false }, types)).toThrow(
      'allow_register is set in config/plugins.js (users-permissions.config.advanced) at every start: change it in that file and restart',
    );
    expect(parseAdvancedSettings({ allow_register: false }, stored, { allow_register: false }, types)).toEqual({
      ...stored,
      allow_register: false,
    });
  });
});

describe('parseProviders', () => {
  const stored = { email: { enabled: true, icon: 'envelope' }, github: { enabled: true, icon: 'github', key: 'k' } };

  it('keeps a third-party provider Strapi had turned on, and stores its keys without the computed redirectUri', () => {
    const given = { github: { enabled: true, key: 'k2', redirectUri: 'http://x/api/connect/github/callback' } };
    expect(parseProviders({ providers: given }, stored)).toEqual({
      email: stored.email,
      github: { enabled: true, icon: 'github', key: 'k2' },
    });
  });
});
